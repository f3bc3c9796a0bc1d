"""Invitations and rematches: accept or decline a seat, and ask for a finished match's rematch."""
from __future__ import annotations

from domain.engine import invitations
from domain.engine import rematch as rematch_rules

from service.app.errors import AppError, Conflict, NotSeated


def accept(matches, actor: str, match_id: str):
    """Accept the caller's invitation; the last acceptance starts the match. Accepting again is a no-op."""
    def decide(match, player):
        return [] if invitations.accepted(match, player) and match.status in ("invited", "active") \
            else invitations.decide_accept(match, player)
    return matches.change_seats(actor, match_id, decide)


def accept_for_all(matches, match):
    """Every invited player of `match` accepts, through the same path as their own request; the started
    match. For benchmarks and tests that seat users they made themselves."""
    for player in list(match.invited):
        match = accept(matches, player, match.id)
    return match


def decline(matches, actor: str, match_id: str):
    """Decline the caller's seat (or withdraw the creator's match) before it starts: it is cancelled."""
    return matches.change_seats(actor, match_id, invitations.decide_decline)


def rematch(matches, actor: str, match_id: str):
    """The rematch of a finished match: the same game, seats (bots included, who need no consent) and
    options (but the game's secret ones, which the end revealed) as a new invited match created by the caller. Asking again (anyone seated) answers the same match."""
    def facts(m):
        if actor not in m.players:
            raise NotSeated("you are not seated in this match")
        # a secret option (a hidden setup) was revealed as the first match ended: the rematch draws its own
        secret = getattr(m.game, "secret_options", frozenset())
        options = {k: v for k, v in m.options.items() if k not in secret}
        return m.rematch, m.game_id, list(m.players), options, m.turn_deadline_hours, m.replace_after_timeouts

    named, game_id, players, options, hours, replace_after = matches.read(match_id, facts)
    if named is None:
        def decide(m, rng):
            return rematch_rules.decide_rematch(m, actor)
        try:
            answer = matches.execute(match_id, actor, decide)
            named = answer["events"][0]["data"]["match"]
        except AppError as exc:
            if exc.extra.get("rule") != "platform:rematch.exists":
                raise
            named = matches.read(match_id, lambda m: m.rematch)
    try:
        return matches.create(actor, game_id, options, players=players, turn_deadline_hours=hours, match_id=named,
                              replace_after_timeouts=replace_after)
    except Conflict:
        pass  # created by an earlier ask (or its lost reply): answer that match
    return matches.load(named)

