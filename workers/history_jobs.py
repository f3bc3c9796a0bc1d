"""RQ jobs of match history: close a dispute or a rules proposal whose deadline has passed."""
from __future__ import annotations

from service.app.history import History
from service.app.rules_upgrade import RulesUpgrades

from .context import wiring


def expire_dispute(match_id: str, dispute_id: str, now: str | None = None) -> str:
    """Reject dispute `dispute_id` of `match_id` if it is still open at its deadline; return its status."""

    return History.from_wiring(wiring()).expire(match_id, dispute_id, now)


def expire_rules_proposal(match_id: str, proposal_id: str, now: str | None = None) -> str:
    """Close rules proposal `proposal_id` of `match_id` (rules_upgrade_expired) if it is still open at its deadline;
    return its status."""

    return RulesUpgrades.from_wiring(wiring()).expire(match_id, proposal_id, now)
