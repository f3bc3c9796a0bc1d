"""The reconciler a worker runs every few seconds: bot turns whose job can no longer run are scheduled again."""
from __future__ import annotations

from .bot_turns import recover_stalled
from .context import wiring
from .queues import BOTS, queue


def reconcile() -> list:
    """Schedule again the bot turns whose job was lost (a dead worker); return the turns rescheduled."""
    return recover_stalled(wiring(), queue(BOTS).connection)
