"""Identity endpoints: create users, find them by name, who am I, tokens and sign-out, webhook, inbox."""
from __future__ import annotations

from flask import Blueprint

from service.app.opponents import suggestions
from service.web import ratings_views, schemas
from service.web.http import body, current_user, query, wiring
from service.web.openapi import documented

bp = Blueprint("users", __name__)


@bp.post("/api/users")
@documented("create a player; the answer carries its secret token", ok=201, body=schemas.CreateUser)
def create_user():
    """Create a player and return its secret token."""
    data = body(schemas.CreateUser)
    return wiring().users.create(data["name"]), 201


@bp.get("/api/users")
@documented("players whose display name starts with ?name= (each with its id); with a token, the caller's recent "
            "opponents first", query=schemas.UserSearch, auth="optional")
def search_users():
    """Players whose display name starts with ?name= (names need not be unique: each comes with its id); the
    caller's recent opponents first (`"recent": true`)."""
    q = query(schemas.UserSearch)
    user = current_user(optional=True)
    w = wiring()
    return {"users": suggestions(w.users, w.read_models, user["id"] if user else None, q["name"], q["limit"])}


@bp.get("/api/users/me")
@documented("who the token belongs to, with their e-mail address and whether it is proven", auth="required")
def me():
    """The caller's id and name."""
    user = current_user()
    contact = wiring().mail.contacts.get(user["id"])
    return {"id": user["id"], "name": user["name"], "email": contact["email"],
            "email_verified": contact["email_verified"]}


@bp.post("/api/users/me/token")
@documented("a new token; the one sent stops working at once", auth="required")
def rotate_token():
    """A new token for the caller; the one sent stops working at once, in every process."""
    user = current_user()
    return {"token": wiring().users.rotate(user["id"])}


@bp.delete("/api/users/me/token")
@documented("sign out everywhere: no token of the caller works any more", ok=204, auth="required")
def revoke_token():
    """Sign out everywhere: no token of the caller works any more."""
    user = current_user()
    wiring().users.revoke(user["id"])
    return "", 204


@bp.put("/api/users/me/webhook")
@documented("register where notifications are POSTed", body=schemas.Webhook, auth="required")
def put_webhook():
    """Register where notifications are POSTed."""
    user = current_user()
    data = body(schemas.Webhook)
    w = wiring()
    secret = w.users.set_webhook(user["id"], data["url"], w.settings.webhook_allow, data.get("secret"))
    return {"url": data["url"], "secret": secret}


@bp.delete("/api/users/me/webhook")
@documented("remove the webhook", auth="required")
def delete_webhook():
    """Stop notifications."""
    user = current_user()
    wiring().users.set_webhook(user["id"], None)
    return {"url": None}


@bp.get("/api/users/<user_id>")
@documented("a player's name, ratings per game and finished matches with rating changes")
def get_user(user_id):
    """A player's name, ratings per game and finished matches with result and rating change."""
    return ratings_views.player_record(wiring(), user_id)


@bp.get("/api/users/me/inbox")
@documented("matches waiting for the caller, longest-waiting first", auth="required")
def inbox():
    """Matches in which the caller must act now, longest-waiting first."""
    user = current_user()
    return {"matches": wiring().read_models.inbox(user["id"])}
