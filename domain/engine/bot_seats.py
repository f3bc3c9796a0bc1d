"""Bot seats: a bot is a user whose id is `bot:<level>:<n>`; it needs no consent to be seated."""
from __future__ import annotations

from . import platform_events as pe

BOT_PREFIX = "bot:"
STAND_IN_LEVEL = "greedy"  # who plays a seat whose player timed out too often


def bot_id(level: str, n: int) -> str:
    """The user id of the n-th bot of a level (1-based)."""
    return f"{BOT_PREFIX}{level}:{n}"


def is_bot(user_id: str | None) -> bool:
    """True when the user is a bot."""
    return bool(user_id) and user_id.startswith(BOT_PREFIX)


def bot_level(user_id: str) -> str:
    """The level of a bot user ("random", "greedy", "mcts")."""
    return user_id.split(":")[1]


def seat_bots(levels: list) -> list:
    """User ids for the bots of one match: the n-th bot of each level is `bot:<level>:<n>`."""
    seen: dict = {}
    out = []
    for level in levels:
        seen[level] = seen.get(level, 0) + 1
        out.append(bot_id(level, seen[level]))
    return out


def played_by_people(players, envelopes) -> set:
    """The seated people who made at least one of their seat's game moves themselves: not bots, and not moves a
    stand-in bot made for them (between `stand_in_started` and `stand_in_ended`: the player's own next command
    ends the stand-in before its events). Moves later taken back still count; timeouts (no actor) do not."""
    seated = {p for p in players if not is_bot(p)}
    standing_in: set = set()
    people: set = set()
    for env in envelopes:
        if env.get("scope") == pe.GAME:
            actor = env.get("actor")
            if actor in seated and actor not in standing_in:
                people.add(actor)
        elif env.get("type") == pe.STAND_IN_STARTED:
            standing_in.add(env["data"]["player"])
        elif env.get("type") == pe.STAND_IN_ENDED:
            standing_in.discard(env["data"]["player"])
    return people
