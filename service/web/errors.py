"""HTTP errors: the one table from application errors to statuses, and ApiError for the web layer's own refusals."""
from __future__ import annotations

from service.app import errors as app

# the one place an application error gets its HTTP status (the most specific class listed wins)
STATUS = {
    app.Invalid: 400,
    app.Unauthorized: 401,
    app.NotSeated: 403,
    app.Forbidden: 403,
    app.NotFound: 404,
    app.Conflict: 409,
    app.RuleRefused: 422,
    app.Unavailable: 503,
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
