"""Mail jobs on the notifications queue: send one mail (retried with backoff by RQ while the SMTP server is
away; sent once per mail id), and decide which mails projection changes call for ("your move", invitations,
disputes), the daily digest and the deadline reminders."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

from domain.engine import platform_events as pe
from domain.engine.timestamps import epoch, format_time, parse_time
from projections.summary import DISPUTE_VOTE, INVITATION, TURN, turns_started, waits, waits_started

from service.app.mail.compose import Letter, compose, unsubscribe_kind
from service.app.mail.contacts import DIGEST, IMMEDIATE
from service.app.mail.transport import MailNotSent, transport_for

from .context import wiring

log = logging.getLogger("turnstream.mail")

_TRANSPORTS: dict = {}


def transport(settings):
    """The process's transport for these settings (SMTP or the mail folder)."""
    key = (settings.smtp_url, settings.mail_dir)
    if key not in _TRANSPORTS:
        _TRANSPORTS[key] = transport_for(settings)
    return _TRANSPORTS[key]


# -- sending ---------------------------------------------------------------------------------------------
def send_mail(spec: dict) -> str:
    """Send the mail `spec` describes unless it was sent already, its reader turned that kind off, or what it
    would say is no longer true; raise MailNotSent (RQ retries with backoff) when the server is unreachable."""
    w = wiring()
    mail = w.mail
    if mail.was_sent(spec["id"]):
        return "already_sent"
    user = w.users.get(spec["user"])
    if user is None:
        return "no_user"
    contact = mail.contacts.get(spec["user"])
    to = spec.get("to") or (contact["email"] if contact["email_verified"] else None)
    if not to:
        return "no_verified_address"
    why_not = None if spec.get("to") else skip_reason(w, spec, contact["notifications"])
    if why_not:
        log.info("mail %s not sent: %s", spec["id"], why_not)
        return why_not
    letter = letter_of(w, spec, user["name"])
    if letter is None:
        return "nothing_to_say"
    message = compose(letter, to, contact["lang"], w.settings.mail_from, spec["id"],
                      mail.unsubscribe_link(spec["user"], unsubscribe_kind(spec["kind"])))
    try:
        transport(w.settings).send(message)
    except MailNotSent as exc:
        log.warning("mail %s to %s not sent yet (retried with backoff): %s", spec["kind"], spec["user"], exc)
        raise
    mail.mark_sent(spec["id"])
    log.info("mail %s sent to %s", spec["kind"], spec["user"])
    return "sent"


def skip_reason(w, spec: dict, prefs: dict) -> str | None:
    """Why a notification mail is not sent now (its preference is off, the wait is over, the player saw the
    move live), or None."""
    kind = spec["kind"]
    if kind == "your_move":
        if prefs["your_move"] != IMMEDIATE:
            return "off"
        if not still_waiting(w, spec["match"], spec["user"], spec["since"]):
            return "moved_on"
        if w.live.presence.saw(spec["user"], spec["match"], int(epoch(spec["since"]) * 1000)):
            return "seen_live"
    elif kind == "digest":
        if prefs["your_move"] != DIGEST:
            return "off"
    elif kind == "reminder":
        if prefs["deadline_reminder_hours"] is None:
            return "off"
        if not still_waiting(w, spec["match"], spec["user"], spec["since"]):
            return "moved_on"
    elif kind == "invitation" and not prefs["invitations"]:
        return "off"
    elif kind == "dispute" and not prefs["disputes"]:
        return "off"
    return None


def still_waiting(w, match_id: str, player: str, since: str) -> bool:
    """True while the read model shows `player` waiting since `since` (the same wait)."""
    rows = w.read_models.rows([match_id])
    return bool(rows) and rows[0].get("waiting", {}).get(player) == since


def letter_of(w, spec: dict, name: str) -> Letter | None:
    """What the mail of `spec` says, read now."""
    kind = spec["kind"]
    if kind in ("verify", "sign_in"):
        return Letter(kind, name, spec["link"])
    if kind == "digest":
        items = digest_items(w, spec["user"])
        if not items:
            return None
        return Letter(kind, name, w.mail.url("/"), {"count": len(items)}, items)
    rows = w.read_models.rows([spec["match"]])
    if not rows:
        return None
    row = rows[0]
    names = w.users.names(row["players"] + [p for p in (spec.get("by"), row.get("created_by")) if p])
    game = w.games[row["game"]].title if row["game"] in w.games else row["game"]
    others = ", ".join(names[p] for p in row["players"] if p != spec["user"]) or "-"
    values = {"game": game, "opponents": others, "players": others,
              "inviter": names.get(row.get("created_by"), "-"), "by": names.get(spec.get("by"), "-"),
              "reason": spec.get("reason") or ""}
    if kind == "reminder":
        values["deadline"] = parse_time(spec["deadline"]).strftime("%Y-%m-%d %H:%M")
        values["hours"] = f"{spec['hours']:g}"
    return Letter(kind, name, w.mail.url(f"/matches/{row['id']}"), values)


def digest_items(w, user_id: str) -> list:
    """Every match waiting for the user's move, longest-waiting first, as digest items."""
    titles = {g.id: g.title for g in w.games.values()}
    return [{"label": titles.get(row["game"], row["game"]), "url": w.mail.url(f"/matches/{row['id']}"),
             "note": row["waiting_since"][:16].replace("T", " ") + " UTC"}
            for row in w.read_models.inbox(user_id) if row.get("waiting_for") == TURN]
