"""recheck (and so `turnstream upgrade-check`) replays concessions like every other platform event: a two-player
match ended by a concession, and a larger one whose conceding player's stand-in played on to the end, are
identical; a forged winner of a conceded match is still found."""
from __future__ import annotations

import copy
import random

from domain.engine import platform_events as pe
from domain.engine.recheck import recheck
from domain.games import load_games
from domain.games.dice_race import GAME as RACE
from service.app import invitations
from service.app.concede import concede
from service.app.matches import MatchService, legal_for
from service.store.memory import InMemoryEventStore

GAMES = {**load_games(), RACE.id: RACE}


def started(service: MatchService, game_id: str, players: list, options: dict | None = None) -> str:
    game = GAMES[game_id]
    match = service.create(players[0], game_id, game.options_schema.load(options or {}), players=players)
    return invitations.accept_for_all(service, match).id


def play(service: MatchService, mid: str, steps: int, rnd: random.Random) -> None:
    """`steps` random legal commands of whoever is to move (a conceded seat's by its stand-in), or to the end."""
    for _ in range(steps):
        match = service.load(mid)
        if match.finished:
            return
        player = rnd.choice(sorted(match.active_players()))
        stand_in = player in match.conceded
        legal = match.game.legal_commands(match.game_state, player) if stand_in else legal_for(match, player)
        plain = [c for c in legal if c["type"] not in match.game.offer_commands] or legal
        command = rnd.choice(plain)
        service.submit(player, mid, command["type"], command.get("payload") or {}, stand_in=stand_in)


def envelopes(service: MatchService, mid: str) -> list:
    return service.store.read(mid).envelopes


def test_a_two_player_match_ended_by_a_concession_is_identical():
    for game_id in ("uchronia", "origins", "ti4-exploration", "merchant-of-venus"):
        service = MatchService(InMemoryEventStore(partitions=4), GAMES)
        mid = started(service, game_id, ["ann", "bob"])
        play(service, mid, 6, random.Random(game_id))
        concede(service, "bob", mid)
        match = service.load(mid)
        assert match.finished and match.result["reason"] == "conceded"
        outcome = recheck(mid, envelopes(service, mid), GAMES)
        assert outcome["status"] == "identical", (game_id, outcome)


def test_a_stand_in_playing_a_conceded_seat_to_the_end_is_identical():
    service = MatchService(InMemoryEventStore(partitions=4), GAMES)
    mid = started(service, RACE.id, ["ann", "bob", "cyd"], {"target": 12})
    play(service, mid, 1, random.Random(1))
    concede(service, "bob", mid)
    play(service, mid, 500, random.Random(2))
    match = service.load(mid)
    assert match.finished and match.result["conceded"] == ["bob"] and "bob" not in match.result["winners"]
    assert recheck(mid, envelopes(service, mid), GAMES)["status"] == "identical"


def test_a_forged_winner_of_a_conceded_match_is_changed():
    service = MatchService(InMemoryEventStore(partitions=4), GAMES)
    mid = started(service, "uchronia", ["ann", "bob"])
    concede(service, "ann", mid)
    forged = copy.deepcopy(envelopes(service, mid))
    finished = next(e for e in forged if e["type"] == pe.MATCH_FINISHED)
    finished["data"]["result"]["winners"] = ["ann"]
    outcome = recheck(mid, forged, GAMES)
    assert (outcome["status"], outcome["version"]) == ("changed", finished["version"])
    assert outcome["reason"].startswith("the result differs")
