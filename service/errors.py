"""API errors: one exception type carrying status, code, message and extra fields."""
from __future__ import annotations

from domain.engine import RuleViolation

# platform rules whose breach is a state conflict (409) rather than a rules refusal (422)
CONFLICT_RULES = {
    "platform:match.finished": "match_finished",
    "platform:match.not-started": "match_not_started",
    "platform:match.not-open": "match_not_open",
    "platform:dispute.paused": "match_paused",
    "platform:match.cancelled": "match_cancelled",
    "platform:invitation.not-pending": "invitation_not_pending",
    "platform:rematch.not-finished": "match_not_finished",
}


class ApiError(Exception):
    """An error answered as {"error": {"code", "message", ...}} with an HTTP status."""

    def __init__(self, status: int, code: str, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict:
        """The JSON error body."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def from_violation(exc: RuleViolation, game_id: str) -> ApiError:
    """Turn a RuleViolation into a 409 or 422 ApiError citing the prefixed rule id."""
    rule = exc.rule_id if exc.rule_id.startswith("platform:") else f"{game_id}:{exc.rule_id}"
    if rule in CONFLICT_RULES:
        return ApiError(409, CONFLICT_RULES[rule], exc.message, rule=rule)
    return ApiError(422, "rule_violation", exc.message, rule=rule)


def not_found(what: str, ident: str) -> ApiError:
    """A 404 for a missing resource."""
    return ApiError(404, "not_found", f"no {what} with id {ident!r}")
