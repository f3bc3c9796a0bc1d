"""What browser modules put in their site (tests/e2e/browser/conftest.py) beyond its people: matches started
through the API or from a seed, and a page signed in as Ann."""
from __future__ import annotations

import random

from domain.games import GAME_PACKAGES
from service.cli.golden import seeded_secrets
from tests.e2e.browser_kit import signed_in
from tests.e2e.processes import Api, start_invited
from tests.invites import create_started

# The Origins match only the undo tests play comes from this seed: its first player's first button (a visit to the
# Observatory) reveals nothing, so it may be taken back. Found by clicking that button in fresh matches from seeds
# 0-7: each could be taken back (whoever began); 0 is the first.
UNDO_SEED = 0


def seeded_match(redis_url: str, game: str, players: list, seed: int) -> str:
    """A match of `game` started in this process on the server's Redis, its seed and id drawn from `seed`."""
    from service.bootstrap import build
    from service.config import Settings
    w = build(Settings(redis_url=redis_url))
    try:
        with seeded_secrets(random.Random(seed)):
            return create_started(w, players[0], w.games[game], players)
    finally:
        w.live.stop()
        w.users.cache.close()


def started(site: dict, game: str) -> str:
    """A match of `game` Ann creates and Bob accepts; its id."""
    ann, bob = site["ann"], site["bob"]
    status, match = start_invited(Api(site["base"], ann["token"]), {"game": game, "players": [ann["id"], bob["id"]]},
                                  {bob["id"]: bob["token"]})
    assert status == 201, match
    return match["id"]


def as_ann(browser, site: dict, width: int, lang: str):
    """A page whose Accept-Language asks for `lang`, signed in as Ann; closed at the end."""
    return signed_in(browser, site["base"], site["ann"]["token"], width, lang)


def every_game(site: dict, redis_url: str) -> dict:
    """A running match of every game between Ann and Bob (a module's `furnish`)."""
    return {"matches": {game: started(site, game) for game in GAME_PACKAGES}}
