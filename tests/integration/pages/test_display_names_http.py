"""A display name with control or invisible characters, or only spaces, is refused by the API (400 naming the
field) and by the lobby's sign-up form alike; nothing is created. Spaces around a name are dropped."""
from __future__ import annotations

from service.store.keys import Keys
from tests.integration.pages.forms import csrf_of


def test_the_api_trims_names_and_refuses_blank_or_invisible_ones(client, redis_client):
    made = client.post("/api/users", json={"name": "  Bob  "})
    assert made.status_code == 201 and made.get_json()["name"] == "Bob"
    users_before = (set(redis_client.scan_iter("ts:user:*")), redis_client.zcard(Keys.user_names()))
    for name in ("   ", "a\u0000b", "evil\u202etxt.exe", "zero\u200bwidth"):
        answer = client.post("/api/users", json={"name": name})
        assert answer.status_code == 400, name
        error = answer.get_json()["error"]
        assert error["code"] == "invalid_body" and "name" in error["fields"], error
    users_after = (set(redis_client.scan_iter("ts:user:*")), redis_client.zcard(Keys.user_names()))
    assert users_after == users_before and users_before[1] == 1, "a refused name created nothing"


def test_the_lobby_form_refuses_the_same_names_and_says_why(client):
    lobby = client.get("/").get_data(as_text=True)
    answer = client.post("/signup", data={"name": "a\u202eb", "csrf": csrf_of(lobby)})
    assert answer.status_code == 400
    assert "may not hold control or invisible characters" in answer.get_data(as_text=True)
    lobby = client.get("/").get_data(as_text=True)
    answer = client.post("/signup", data={"name": "  Cy  ", "csrf": csrf_of(lobby)})
    assert answer.status_code == 303
    assert "Cy" in client.get("/welcome").get_data(as_text=True)
