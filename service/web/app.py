"""The Flask app factory: wiring, blueprints, JSON errors (never an HTML page or a stack trace)."""
from __future__ import annotations

import logging

from flask import Flask, request
from flask_babel import gettext
from flask_limiter.errors import RateLimitExceeded
from redis.exceptions import RedisError
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from domain.engine.text import Text
from service import bootstrap as wiring_mod, logs
from service.app.errors import AppError
from service.store.replication import Replication, refused_for_replicas
from service.web import command_route, i18n, ratelimit, replicated
from service.web.api import concede, docs, games, health, history, mail as mail_api, matches, metrics, stream, users
from service.web.api import suggestions
from service.web.boards import speak_page_language
from service.web.pages import account, rules, site
from service.web.pages.errors import error_page, limit_page, wants_page
from service.web.errors import PAGE_TEXT, ApiError, api_error
from service.web.game_words import say
from service.web.i18n import choose_language
from service.web.json_guard import check_ids, check_url
from service.web.json_provider import OrjsonProvider

log = logging.getLogger("turnstream.web")


def _snake(name: str) -> str:
    return "_".join(name.lower().replace("-", " ").split())


def create_app(settings=None, wiring=None) -> Flask:
    """Build the web application (wiring defaults to the environment's settings)."""
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    w = wiring or wiring_mod.build(settings)
    app.extensions["turnstream"] = w
    app.config["MAX_CONTENT_LENGTH"] = w.settings.max_body_bytes
    if w.settings.log_format == "json":  # gunicorn workers: JSON lines from the first request on
        logs.configure(w.settings)
    logs.install(app)
    i18n.install(app)  # before the blueprints: their templates use gettext
    speak_page_language()  # the table kit and the games' drawings speak the page's language too
    app.add_template_global(say, "game_words")  # a game's Text (a reason, a label) in the page's language
    for bp in (health.bp, metrics.bp, users.bp, games.bp, docs.bp, matches.bp, history.bp, stream.bp, site.bp,
               account.bp, mail_api.bp, concede.bp, rules.bp, suggestions.bp):
        app.register_blueprint(bp)
    if w.settings.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=w.settings.trusted_proxies)
    limiter = ratelimit.install(app, w)
    command_route.install(app, w)  # a plain command request is answered without Flask's per-request machinery

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(exc: RateLimitExceeded):
        body, wait = ratelimit.refusal(exc, limiter)
        if wants_page():
            return limit_page(wait)
        return body, 429, {"Retry-After": str(wait)}

    @app.before_request
    def refuse_invalid_urls():
        if not request.view_args:  # a URL with ids was checked by refuse_malformed_ids already
            check_url(request.environ)

    @app.url_value_preprocessor  # runs before before_request: a URL that is not UTF-8 is told so first
    def refuse_malformed_ids(_endpoint, values):
        if values:
            check_url(request.environ)
            check_ids(values)

    @app.errorhandler(AppError)
    @app.errorhandler(ApiError)
    def refused(exc: AppError | ApiError):
        exc = api_error(exc)
        if wants_page():  # a page path (a bad URL, a missing match): the HTML error page
            return error_page(exc.status, exc.message)
        headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else {}
        body = exc.body()
        if "/act/" in request.path:  # a page's action: the refusal in the page's language (the API stays English)
            body["error"]["message"] = page_message(exc)
        return body, exc.status, headers

    def page_message(exc: ApiError) -> str:
        """A game's refusal in its own words, translated; another refusal by its code on a non-English page."""
        if isinstance(exc.message, Text) or choose_language() == "en" or exc.code not in PAGE_TEXT:
            return say(exc.message)
        return str(PAGE_TEXT[exc.code])

    if w.settings.min_replicas:  # acknowledged only when replicated; nothing of it runs otherwise
        replicated.install(app, Replication(w.redis, w.settings.min_replicas, w.settings.replica_wait_ms), refused)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if wants_page():
            return error_page(exc.code or 500, exc.description or exc.name)
        message = exc.description or exc.name
        if exc.code == 413:
            message = f"the request body is larger than {w.settings.max_body_bytes} bytes"
        headers = {"Allow": ", ".join(exc.valid_methods)} if getattr(exc, "valid_methods", None) else {}
        return {"error": {"code": _snake(exc.name), "message": message}}, exc.code, headers

    @app.errorhandler(RedisError)
    def redis_error(exc: RedisError):
        if refused_for_replicas(exc):  # the primary's min-replicas-to-write: too few replicas to take a write
            return refused(replicated.not_replicated(max(w.settings.min_replicas, 1)))
        log.warning("Redis unavailable: %s", exc)
        if wants_page():
            return error_page(503, gettext("The event store is unreachable; try again in a moment."))
        return {"error": {"code": "redis_unavailable",
                          "message": "the event store is unreachable; retry shortly"}}, 503

    @app.errorhandler(Exception)
    def internal_error(exc: Exception):
        log.exception("unhandled error")
        if wants_page():
            return error_page(500, gettext("The error has been logged. Try again, or go back to the lobby."))
        return {"error": {"code": "internal_error", "message": "internal error; it has been logged"}}, 500

    return app

