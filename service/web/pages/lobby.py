"""The lobby: your matches with "your move" first, open matches, the new-match forms, and joining, accepting or
declining a seat from it."""
from __future__ import annotations

from flask import redirect, render_template, request
from flask_babel import gettext, lazy_gettext as _l
from marshmallow import ValidationError

from domain.bots import NAMES as BOT_NAMES
from service.app import invitations
from service.app.errors import AppError
from service.app.standings import winners_sentence
from service.web.boards import has_picture
from service.web.bot_names import said_names
from service.web.browser import login_csrf, page_user, require_session_csrf
from service.web.errors import ApiError, api_error
from service.web.game_words import say
from service.web.http import wiring
from service.web.i18n import choose_language
from service.web.pages.lobby_form import bots_from_form, field_errors, option_fields, parse_options, resolve_invites
from service.web.pages.match_log import dispute_vote_note, rules_vote_note
from service.web.pages.refusal_words import page_refusal
from service.web.pages.site import bp

VOTE_NOTES = {"dispute_vote": dispute_vote_note, "rules_vote": rules_vote_note}  # an inbox vote's line, in words


def said_winners(winners: list, names: dict) -> str:
    """Who won, in the page's language (the lobby's finished matches)."""
    return say(winners_sentence(winners, names))


def lobby(error: str | None = None, status: int = 200, kept: dict | None = None):
    """Render the lobby for the current browser; `kept` is a refused form's entries, shown again."""
    w = wiring()
    user = page_user()
    inbox, mine, open_matches = [], [], []
    if user:
        inbox = w.read_models.inbox(user["id"])
        waiting = {row["id"] for row in inbox}
        mine = [row for row in w.read_models.list_matches(player=user["id"], limit=100) if row["id"] not in waiting]
    open_matches = [row for row in w.read_models.list_matches(status="open", limit=100)
                    if not user or user["id"] not in row["players"]]
    ids = [p for row in inbox + mine + open_matches for p in row.get("players", [])]
    names = said_names(w.users.names(ids))
    notes = {row["id"]: w.matches.read(row["id"], lambda m: VOTE_NOTES[row["waiting_for"]](m, user["id"], names))
             for row in inbox if row.get("waiting_for") in VOTE_NOTES}
    games = [{"id": gm.id, "title": gm.title, "min": gm.min_players, "max": gm.max_players,
              "fields": option_fields(gm), "picture": has_picture(gm)} for gm in w.games.values()]
    html = render_template("lobby.html", user=user, inbox=inbox, mine=mine, open_matches=open_matches,
                           names=names, notes=notes, winners_sentence=said_winners, games=games,
                           titles={gm.id: gm.title for gm in w.games.values()},
                           error=error, kept=kept or {}, login_csrf=login_csrf())
    return html, status


@bp.get("/")
def index():
    """The lobby: sign-in forms, your matches with "your move" first, open matches, new-match forms."""
    return lobby()


@bp.post("/matches/new")
def new_match():
    """Start a match from the lobby form: invite players (it starts once they accept) or open seats."""
    w = wiring()
    try:
        user = require_session_csrf(request.form.get("csrf"))
        game = w.games.get(request.form.get("game", ""))
        if game is None:
            raise ApiError(400, "unknown_game", "choose one of the games listed")
        options = game.options_schema.load(parse_options(game, request.form))
        deadline = _deadline_hours(request.form.get("turn_deadline_hours", ""))
        bots = bots_from_form(request.form.get("bots", ""))
        stand_in = _int_field(request.form.get("replace_after_timeouts", ""), "timeouts before a stand-in") \
            if request.form.get("replace_after_timeouts", "").strip() else None
        w.users.ensure_bots(bots, BOT_NAMES)
        seating = {"turn_deadline_hours": deadline, "bots": bots, "replace_after_timeouts": stand_in}
        invited = resolve_invites(w.users, request.form.get("invite", ""))
        if invited:
            players = [user["id"]] + [p for p in invited if p != user["id"]]
            match = w.matches.create(user["id"], game.id, options, players=players, **seating)
        else:
            seats = _int_field(request.form.get("seats", ""), "seats")
            if bots and seats <= 1 + len(bots):  # you and the bots fill the table: it starts at once
                match = w.matches.create(user["id"], game.id, options, players=[user["id"]], **seating)
            else:
                match = w.matches.create(user["id"], game.id, options, seats=seats, **seating)
    except ValidationError as exc:
        if choose_language() != "en":  # marshmallow's words are English: name the options to check instead
            labels = {f["name"]: f["label"] for f in option_fields(game)}
            named = exc.messages if isinstance(exc.messages, dict) else {}
            fields = ", ".join(labels.get(str(k), str(k)) for k in named)
            return lobby(gettext("Check these options: %(fields)s.", fields=fields), 400, kept=kept_form())
        return lobby("invalid options: " + field_errors(exc.messages), 400, kept=kept_form())
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc, NEW_MATCH_REFUSALS), exc.status, kept=kept_form())
    return redirect(f"/matches/{match.id}", 303)


# the new-match form's refusals in the page's language (English pages keep the detailed message)
NEW_MATCH_REFUSALS = {
    "unknown_game": _l("Choose one of the games listed."),
    "invalid_form": _l("A number, a bot level or a seat count in the form is not valid: check it."),
    "unknown_players": lambda exc: gettext("Check the players you invite: %(names)s.",
                                           names=", ".join(exc.extra.get("entries") or [])),
}


def kept_form() -> dict:
    """The refused form's entries to fill in again: {"game", "values": {field: [values]}} (no secrets)."""
    values = {k: request.form.getlist(k) for k in request.form if k not in ("csrf", "token")}
    return {"game": request.form.get("game"), "values": values}


def _int_field(raw: str, name: str) -> int:
    """A whole number typed in the form, or a 400 naming the field."""
    try:
        return int(raw)
    except ValueError:
        raise ApiError(400, "invalid_form", f"{name} must be a whole number") from None


def _deadline_hours(raw: str) -> float | None:
    """The turn deadline typed in the form, in hours (None: no deadline), or a 400."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        hours = float(raw)
    except ValueError:
        raise ApiError(400, "invalid_form", "the turn deadline is a number of hours") from None
    if not 0.001 <= hours <= 24 * 60:
        raise ApiError(400, "invalid_form", "the turn deadline is between 0.001 and 1440 hours")
    return hours


def _seat_form(match_id: str, act, then: str):
    """Run a lobby seat form (`act(matches, user id, match id)`) and redirect to `then`, or show the lobby's error."""
    try:
        user = require_session_csrf(request.form.get("csrf"))
        act(wiring().matches, user["id"], match_id)
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc), exc.status)
    return redirect(then, 303)


@bp.post("/matches/<match_id>/join")
def join(match_id):
    """Take a seat in an open match from the lobby."""
    return _seat_form(match_id, lambda matches, user_id, mid: matches.join(user_id, mid), f"/matches/{match_id}")


@bp.post("/matches/<match_id>/accept")
def accept(match_id):
    """Accept an invitation from the lobby (the last acceptance starts the match)."""
    return _seat_form(match_id, invitations.accept, f"/matches/{match_id}")


@bp.post("/matches/<match_id>/decline")
def decline(match_id):
    """Decline an invitation from the lobby: the match is cancelled."""
    return _seat_form(match_id, invitations.decline, "/")
