"""HTTP errors: the one table from application errors to statuses, and ApiError for the web layer's own refusals."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

from service.app import errors as app

# the one place an application error gets its HTTP status (the most specific class listed wins)
STATUS = {
    app.Invalid: 400,
    app.Unauthorized: 401,
    app.NotSeated: 403,
    app.Forbidden: 403,
    app.SuggestionsOff: 403,
    app.NotFound: 404,
    app.Conflict: 409,
    app.RuleRefused: 422,
    app.Unavailable: 503,
}


# what a page's refused action says in a language other than English, by code, when the refusal is not a game's
# own words (those come translated: service/web/game_words.py); English pages show the detailed message itself
PAGE_TEXT = {
    "version_conflict": _l("Someone moved first: the page has been brought up to date, try again."),
    "not_seated": _l("Only the players of this match may do that."),
    "not_signed_in": _l("Sign in first."),
    "csrf_failed": _l("The form is out of date: reload the page and try again."),
    "unauthorized": _l("Your sign-in is no longer valid: sign in again."),
    "forbidden": _l("You may not do that."),
    "suggestions_off": _l("Suggestions are only given in a match against bots."),
    "not_your_move": _l("It is not your move: there is nothing to suggest."),
    "not_found": _l("There is no such match or action."),
    "match_finished": _l("The match has finished."),
    "match_not_started": _l("The match has not started yet."),
    "match_paused": _l("The match is paused while a dispute is open."),
    "match_cancelled": _l("The match was cancelled."),
    "match_archived": _l("The match is archived: nothing more can be added to it."),
    "match_not_finished": _l("The match has not finished yet."),
    "match_not_active": _l("The match is not being played."),
    "match_not_open": _l("The match no longer takes players."),
    "invitation_not_pending": _l("This invitation has already been answered."),
    "rules_vote_open": _l("A vote on the rules is already open."),
    "no_rules_vote_open": _l("No vote on the rules is open."),
    "stand_in_over": _l("A stand-in is no longer playing for you."),
    "rate_limited": _l("Too many requests: wait a little and try again."),
    "invalid_payload": _l("That move is not complete: choose again."),
    "unavailable": _l("The service is busy: try again in a moment."),
    "redis_unavailable": _l("The event store is unreachable; try again in a moment."),
    "conflict": _l("That cannot be done now."),
    "rules_version_unavailable": _l("This match is played under newer rules than this server has: try again in a few "
                                    "minutes."),
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


def api_error(exc: app.AppError | ApiError) -> ApiError:
    """An application error as the ApiError it answers (an ApiError as itself)."""
    if isinstance(exc, ApiError):
        return exc
    status = next(STATUS[cls] for cls in type(exc).__mro__ if cls in STATUS)
    return ApiError(status, exc.code, exc.message, **exc.extra)


def status_of(exc: BaseException) -> int:
    """The HTTP status an exception answers (500 for one that is not a refusal)."""
    if isinstance(exc, (app.AppError, ApiError)):
        return api_error(exc).status
    return getattr(exc, "code", None) if isinstance(getattr(exc, "code", None), int) else 500
