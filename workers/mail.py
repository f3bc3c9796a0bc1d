"""Mail jobs on the notifications queue: send one mail (retried with backoff by RQ while the SMTP server is
away; sent once per mail id), and decide which mails projection changes call for ("your move", invitations,
disputes, proposed rules), the daily digest and the deadline reminders."""
from __future__ import annotations

import dataclasses
import logging
from datetime import datetime, timedelta, timezone
from typing import Any

from rq.exceptions import DuplicateJobError

from domain.engine.contract import Game
from domain.engine.text import name as printed
from domain.engine.timestamps import epoch, format_time, parse_time
from projections.readers import ReadModels
from projections.summary import DISPUTE_VOTE, INVITATION, RULES_VOTE, TURN, waits, waits_started

from service.app.mail.compose import Letter, compose, unsubscribe_kind
from service.app.mail.service import MailService
from service.app.mail.service import job_id_of as job_id_of_spec  # noqa: F401 (tests find a mail's job by it)
from service.app.mail.contacts import DIGEST, IMMEDIATE, Contacts
from service.app.mail.transport import MailNotSent, transport_for
from service.app.users import Users
from service.config import Settings
from service.store.keys import Keys
from service.store.presence import Presence
from service.web.game_words import render

from .context import wiring

log = logging.getLogger("turnstream.mail")


@dataclasses.dataclass(frozen=True)
class Mailing:
    """What the mail jobs read and write: the mail service, the players, the read models and games a mail quotes,
    who watches live, the events Redis (addresses, the digest chain) and the mail settings."""

    mail: MailService
    users: Users
    read_models: ReadModels
    games: dict[str, Game]
    presence: Presence
    redis: Any
    settings: Settings


def mailing() -> Mailing:
    """The mail jobs' collaborators, from the worker's wiring."""
    w = wiring()
    return Mailing(w.mail, w.users, w.read_models, w.games, w.live.presence, w.redis, w.settings)


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
    m = mailing()
    mail = m.mail
    if mail.was_sent(spec["id"]):
        return "already_sent"
    user = m.users.get(spec["user"])
    if user is None:
        return "no_user"
    contact = mail.contacts.get(spec["user"])
    to = spec.get("to") or (contact["email"] if contact["email_verified"] else None)
    if not to:
        return "no_verified_address"
    why_not = None if spec.get("to") else skip_reason(spec, contact["notifications"], m.read_models, m.presence)
    if why_not:
        log.info("mail %s not sent: %s", spec["id"], why_not)
        return why_not
    letter = letter_of(m, spec, user["name"])
    if letter is None:
        return "nothing_to_say"
    message = compose(in_language(letter, contact["lang"]), to, contact["lang"], m.settings.mail_from, spec["id"],
                      mail.unsubscribe_link(spec["user"], unsubscribe_kind(spec["kind"])))
    try:
        transport(m.settings).send(message)
    except MailNotSent as exc:
        log.warning("mail %s to %s not sent yet (retried with backoff): %s", spec["kind"], spec["user"], exc)
        raise
    mail.mark_sent(spec["id"])
    log.info("mail %s sent to %s", spec["kind"], spec["user"])
    return "sent"


def sign_in_requested(address: str, back: str | None = None) -> str:
    """A sign-in link was asked for `address`: mail one to the player who proved it (nobody else hears of it),
    returning to the match page `back` when one was given."""
    return "posted" if wiring().mail.send_sign_in(address, back) else "no_owner"


def skip_reason(spec: dict, prefs: dict, read_models: ReadModels, presence: Presence) -> str | None:
    """Why a notification mail is not sent now (its preference is off, the wait is over, the player saw the
    move live), or None."""
    kind = spec["kind"]
    if kind == "your_move":
        if prefs["your_move"] != IMMEDIATE:
            return "off"
        if not read_models.still_waiting(spec["match"], spec["user"], spec["since"]):
            return "moved_on"
        if presence.saw(spec["user"], spec["match"], int(epoch(spec["since"]) * 1000)):
            return "seen_live"
    elif kind == "digest":
        if prefs["your_move"] != DIGEST:
            return "off"
    elif kind == "reminder":
        if prefs["deadline_reminder_hours"] is None:
            return "off"
        if not read_models.still_waiting(spec["match"], spec["user"], spec["since"]):
            return "moved_on"
    elif kind == "invitation" and not prefs["invitations"]:
        return "off"
    elif kind in ("dispute", "rules_vote") and not prefs["disputes"]:
        return "off"
    return None


def letter_of(m: Mailing, spec: dict, name: str) -> Letter | None:
    """What the mail of `spec` says, read now."""
    kind = spec["kind"]
    if kind in ("verify", "sign_in"):
        return Letter(kind, name, spec["link"])
    if kind == "digest":
        items = digest_items(m, spec["user"])
        if not items:
            return None
        return Letter(kind, name, m.mail.url("/"), {"count": len(items)}, items)
    rows = m.read_models.rows([spec["match"]])
    if not rows:
        return None
    row = rows[0]
    names = m.users.names(row["players"] + [p for p in (spec.get("by"), row.get("created_by")) if p])
    game = printed(m.games[row["game"]].title) if row["game"] in m.games else row["game"]
    others = ", ".join(names[p] for p in row["players"] if p != spec["user"]) or "-"
    values = {"game": game, "opponents": others, "players": others,
              "inviter": names.get(row.get("created_by"), "-"), "by": names.get(spec.get("by"), "-"),
              "reason": spec.get("reason") or "", "version": spec.get("version") or ""}
    values["deadline"] = parse_time(spec["deadline"]).strftime("%Y-%m-%d %H:%M") if spec.get("deadline") else "-"
    if kind == "reminder":
        values["hours"] = f"{spec['hours']:g}"
    return Letter(kind, name, m.mail.url(f"/matches/{row['id']}"), values)


def digest_items(m: Mailing, user_id: str) -> list:
    """Every match waiting for the user's move, longest-waiting first, as digest items."""
    titles = {g.id: printed(g.title) for g in m.games.values()}
    return [{"label": titles.get(row["game"], row["game"]), "url": m.mail.url(f"/matches/{row['id']}"),
             "note": row["waiting_since"][:16].replace("T", " ") + " UTC"}
            for row in m.read_models.inbox(user_id) if row.get("waiting_for") == TURN]


def in_language(letter: Letter, lang: str) -> Letter:
    """The letter with the games' words it quotes (a game's title) in the reader's language."""
    values = {k: render(v, lang) for k, v in letter.values.items()}
    items = [dict(item, label=render(item.get("label"), lang)) for item in letter.items]
    return dataclasses.replace(letter, values=values, items=items)


# -- what projection changes call for ------------------------------------------------------------------------
def mail_readers(redis, contacts: Contacts, user_ids) -> dict:
    """{user: preferences} of the users among `user_ids` with a proven address (one round trip; bots have none)."""
    user_ids = [u for u in dict.fromkeys(user_ids) if u and not u.startswith("bot:")]
    if not user_ids:
        return {}
    pipe = redis.pipeline(transaction=False)
    for user_id in user_ids:
        pipe.hmget(Keys.user(user_id), ["email", "email_verified", "notify"])
    out = {}
    for user_id, (email, verified, prefs) in zip(user_ids, pipe.execute()):
        if email and verified == "1":
            out[user_id] = contacts._prefs(prefs)
    return out


def notify(changes: list, matches: dict) -> list:
    """Post the mails these projection changes call for: "your move" (immediate), invitations, dispute and rules
    votes, to players with a proven address who want them (checked again when each is sent); return the mail ids."""
    m = mailing()
    wanted = []
    for prev, row in changes:
        reasons = waits(row)
        for player, since in waits_started(prev, row).items():
            if reasons.get(player) in (TURN, INVITATION, DISPUTE_VOTE, RULES_VOTE):
                wanted.append((row, player, since, reasons[player]))
    if not wanted:
        return []
    readers = mail_readers(m.redis, m.mail.contacts, [player for _row, player, _since, _reason in wanted])
    posted = []
    for row, player, since, reason in wanted:
        prefs = readers.get(player)
        if prefs is None:
            continue
        base = {"user": player, "match": row["id"], "since": since}
        if reason == TURN and row.get("status") == "active" and prefs["your_move"] == IMMEDIATE:
            spec = {**base, "id": f"your_move:{player}:{row['id']}:{since}", "kind": "your_move"}
        elif reason == INVITATION and prefs["invitations"]:
            spec = {**base, "id": f"invitation:{player}:{row['id']}", "kind": "invitation"}
        elif reason == DISPUTE_VOTE and prefs["disputes"]:
            dispute = matches[row["id"]].open_dispute() or {}
            spec = {**base, "id": f"dispute:{player}:{row['id']}:{dispute.get('id')}", "kind": "dispute",
                    "by": dispute.get("by"), "reason": dispute.get("reason")}
        elif reason == RULES_VOTE and prefs["disputes"]:  # the same preference: a vote the others wait for
            proposal = matches[row["id"]].rules_proposal or {}
            spec = {**base, "id": f"rules_vote:{player}:{row['id']}:{proposal.get('id')}", "kind": "rules_vote",
                    "by": proposal.get("by"), "version": proposal.get("to"), "deadline": proposal.get("deadline")}
        else:
            continue
        if m.mail.post(spec):
            posted.append(spec["id"])
    ensure_digest_scheduled(m.redis, m.mail.queue_factory)
    return posted


def schedule_reminders(turns: list) -> list:
    """For each started turn [(match id, player, since, deadline)], schedule a reminder mail the player's chosen
    number of hours before the deadline (none when that moment has passed or they chose none); the ids."""
    m = mailing()
    readers = mail_readers(m.redis, m.mail.contacts, [player for _m, player, _s, _d in turns])
    posted = []
    now = datetime.now(timezone.utc)
    for match_id, player, since, deadline in turns:
        hours = (readers.get(player) or {}).get("deadline_reminder_hours")
        if not hours:
            continue
        at = deadline - timedelta(hours=hours)
        if at <= now or at <= parse_time(since):
            continue  # the turn is shorter than the reminder: the "your move" mail says it
        spec = {"id": f"reminder:{player}:{match_id}:{since}", "kind": "reminder", "user": player, "match": match_id,
                "since": since, "deadline": format_time(deadline), "hours": hours}
        if m.mail.post(spec, at=at):
            posted.append(spec["id"])
    return posted


# -- the daily digest --------------------------------------------------------------------------------------------
DIGEST_JOB = "workers.mail.daily_digest"
DIGEST_HOUR_UTC = 7
DIGEST_CHAIN_KEY = Keys.MAIL_DIGEST_CHAIN  # set while the next daily digest job is scheduled


def next_digest_time(now: datetime | None = None) -> datetime:
    """The next DIGEST_HOUR_UTC o'clock."""
    now = now or datetime.now(timezone.utc)
    at = now.replace(hour=DIGEST_HOUR_UTC, minute=0, second=0, microsecond=0)
    return at if at > now else at + timedelta(days=1)


def ensure_digest_scheduled(redis, queue_factory) -> bool:
    """Schedule the next daily digest unless it is (the job schedules the one after; this mends a broken chain)."""
    at = next_digest_time()
    if not redis.set(DIGEST_CHAIN_KEY, at.isoformat(), nx=True, ex=2 * 24 * 3600):
        return False
    _schedule_digest(queue_factory, at)
    return True


def _schedule_digest(queue_factory, at: datetime) -> None:
    try:
        queue_factory().enqueue_at(at, DIGEST_JOB, job_id=f"mail-digest-{at:%Y%m%d%H}", unique=True,
                                          result_ttl=24 * 3600, failure_ttl=7 * 24 * 3600)
    except DuplicateJobError:
        pass


def daily_digest(day: str | None = None) -> int:
    """Post one digest mail to every player in digest mode with a proven address and matches waiting for their
    move (the mail lists them all, read when it is sent); schedule tomorrow's run; return how many were posted."""
    m = mailing()
    day = day or datetime.now(timezone.utc).strftime("%Y-%m-%d")
    posted = 0
    for user_id in sorted(m.mail.contacts.digest_readers()):
        if not m.mail.contacts.verified_address(user_id):
            continue
        if not any(row.get("waiting_for") == TURN for row in m.read_models.inbox(user_id)):
            continue
        posted += m.mail.post({"id": f"digest:{user_id}:{day}", "kind": "digest", "user": user_id})
    at = next_digest_time(datetime.now(timezone.utc) + timedelta(minutes=1))
    m.redis.set(DIGEST_CHAIN_KEY, at.isoformat(), ex=2 * 24 * 3600)
    _schedule_digest(m.mail.queue_factory, at)
    return posted
