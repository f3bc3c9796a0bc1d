"""The use cases' own refusals: a stable code and a message; only the web layer turns them into HTTP statuses."""
from __future__ import annotations

from domain.engine import RuleViolation

# platform rules whose breach is a state conflict rather than a rules refusal, and the code each answers
CONFLICT_RULES = {
    "platform:match.finished": "match_finished",
    "platform:match.not-started": "match_not_started",
    "platform:match.not-open": "match_not_open",
    "platform:dispute.paused": "match_paused",
    "platform:match.cancelled": "match_cancelled",
    "platform:invitation.not-pending": "invitation_not_pending",
    "platform:rematch.not-finished": "match_not_finished",
    "platform:rules.not-active": "match_not_active",
    "platform:rules.dispute-open": "match_paused",
    "platform:rules.proposal-open": "rules_vote_open",
    "platform:rules.no-proposal": "no_rules_vote_open",
}


class AppError(Exception):
    """A refused use case: `code` is stable (clients branch on it), `extra` holds fields for the answer."""

    default_code = "error"

    def __init__(self, message: str, code: str | None = None, **extra):
        super().__init__(message)
        self.code = code or self.default_code
        self.message = message
        self.extra = extra


class Invalid(AppError):
    """The request itself is malformed (a field, a payload, a version out of range)."""

    default_code = "invalid"


class Unauthorized(AppError):
    """No credential, or one that is not (or no longer) valid."""

    default_code = "unauthorized"


class NotSeated(AppError):
    """The user is not a player of this match."""

    default_code = "not_seated"


class Forbidden(AppError):
    """The user may not do this."""

    default_code = "forbidden"


class SuggestionsOff(AppError):
    """Move suggestions are for learning against bots: this match seats another person."""

    default_code = "suggestions_off"


class NotFound(AppError):
    """No such match, user or dispute."""

    default_code = "not_found"

    @classmethod
    def of(cls, what: str, ident: str) -> "NotFound":
        """`no <what> with id <ident>`."""
        return cls(f"no {what} with id {ident!r}")


class Conflict(AppError):
    """The match's state does not allow this now (finished, not started, already taken)."""

    default_code = "conflict"


class VersionConflict(Conflict):
    """The match moved on since the version the client expected."""

    default_code = "version_conflict"


class RulesVersionUnavailable(Conflict):
    """The match is judged by a rules version this server does not have (a rollback, or an older host in a mixed
    deploy): it is neither read nor changed here."""

    default_code = "rules_version_unavailable"

    def __init__(self, game: str, version: str):
        super().__init__(f"this match is played under {game} rules version {version}, which this server does not "
                         f"have (it runs older code): try again once every server is updated", game=game,
                         rules_version=version)


class RuleRefused(AppError):
    """The game's (or the platform's) rules refuse the command; `rule` names the rule id."""

    default_code = "rule_violation"


class Unavailable(AppError):
    """The store answered something it should not have (a gap): retry shortly."""

    default_code = "unavailable"


def refused(exc: RuleViolation, game_id: str) -> AppError:
    """A RuleViolation as a RuleRefused (or a Conflict for the platform's state rules) citing the prefixed rule id."""
    rule = exc.rule_id if exc.rule_id.startswith("platform:") else f"{game_id}:{exc.rule_id}"
    if rule in CONFLICT_RULES:
        return Conflict(exc.message, CONFLICT_RULES[rule], rule=rule)
    return RuleRefused(exc.message, rule=rule)
