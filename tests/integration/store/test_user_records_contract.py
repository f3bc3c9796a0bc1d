"""The user records contract (service/store/user_records.py), run on a real Redis, fakeredis and in memory; and
the use cases (service/app/users.py, service/app/mail/contacts.py) on the in-memory twin."""
from __future__ import annotations

import fakeredis
import pytest

from service.app.users import Users, name_entry
from service.store.user_records import InMemoryUserRecords, RedisUserRecords


@pytest.fixture(params=["redis", "fakeredis", "memory"])
def records(request):
    """The same port on each backend."""
    if request.param == "memory":
        return InMemoryUserRecords()
    client = request.getfixturevalue("redis_client") if request.param == "redis" else fakeredis.FakeRedis(
        decode_responses=True)
    return RedisUserRecords(client)


def test_a_record_is_created_read_and_its_fields_kept_by_ensure(records):
    """create stores the fields and the name entry; ensure adds missing fields and overwrites none."""
    records.create("u_1", {"id": "u_1", "name": "Ann", "token_hash": "h1"}, name_entry("Ann", "u_1"))
    assert records.record("u_1") == {"id": "u_1", "name": "Ann", "token_hash": "h1"}
    assert records.record("u_2") == {}
    records.ensure([{"id": "u_1", "name": "Other", "bot": "greedy"}, {"id": "bot:random:1", "name": "Random bot"}])
    assert records.record("u_1") == {"id": "u_1", "name": "Ann", "token_hash": "h1", "bot": "greedy"}
    assert records.field(["u_1", "bot:random:1", "u_9"], "name") == ["Ann", "Random bot", None]
    assert records.field([], "name") == [] and records.exist([]) == []
    assert records.exist(["u_9", "u_1"]) == [False, True]


def test_a_token_hash_is_replaced_and_no_legacy_token_is_known(records):
    """replace_token sets the hash (empty: signed out everywhere); a token without a legacy key has no owner."""
    records.create("u_1", {"id": "u_1", "name": "Ann", "token_hash": "h1"}, name_entry("Ann", "u_1"))
    records.replace_token("u_1", "h2")
    assert records.record("u_1")["token_hash"] == "h2"
    records.replace_token("u_1", "")
    assert records.record("u_1")["token_hash"] == ""
    assert records.legacy_owner("h1") is None


def test_name_entries_by_prefix_in_byte_order(records):
    """Entries starting with a prefix, in byte order (as a lexical range), at most `limit`."""
    for user_id, name in [("u_3", "anna"), ("u_1", "Ann"), ("u_2", "Annabel"), ("u_4", "Bob"), ("u_5", "ánn")]:
        records.create(user_id, {"id": user_id, "name": name}, name_entry(name, user_id))
    assert records.name_entries("ann") == ["ann\0u_1", "anna\0u_3", "annabel\0u_2"]
    assert records.name_entries("ann", 2) == ["ann\0u_1", "anna\0u_3"]
    assert records.name_entries("ann\0") == ["ann\0u_1"]
    assert records.name_entries("á") == ["ánn\0u_5"] and records.name_entries("z") == []


def test_a_webhook_keeps_its_secret_until_removed(records):
    """The first URL gets the fresh secret, a later one keeps it, a given secret replaces it; removal forgets both."""
    records.create("u_1", {"id": "u_1", "name": "Ann"}, name_entry("Ann", "u_1"))
    assert records.webhook_target("u_1") == (None, None)
    assert records.set_webhook("u_1", "https://a.example/h", None, "s1") == "s1"
    assert records.set_webhook("u_1", "https://b.example/h", None, "s2") == "s1"
    assert records.webhook_target("u_1") == ("https://b.example/h", "s1")
    assert records.set_webhook("u_1", "https://b.example/h", "given", "") == "given"
    records.remove_webhook("u_1")
    assert records.webhook_target("u_1") == (None, None) and records.record("u_1") == {"id": "u_1", "name": "Ann"}


def test_contact_fields_preferences_and_digest_readers(records):
    """fields in order, set_fields, and save_preferences moving a user in and out of the digest readers."""
    records.create("u_1", {"id": "u_1", "name": "Ann"}, name_entry("Ann", "u_1"))
    records.set_fields("u_1", {"lang": "ru"})
    assert records.fields("u_1", ["lang", "notify", "name"]) == ["ru", None, "Ann"]
    records.save_preferences("u_1", '{"your_move": "digest"}', True)
    records.save_preferences("u_2", '{"your_move": "off"}', False)
    assert records.digest_readers() == {"u_1"} and records.fields("u_1", ["notify"]) == ['{"your_move": "digest"}']
    records.save_preferences("u_1", '{"your_move": "immediate"}', False)
    assert records.digest_readers() == set()


def test_an_address_is_proven_by_one_user_at_a_time(records):
    """change_address sets it unproven and frees a released one; prove names the user (any case) and takes the
    address from its former prover."""
    records.change_address("u_1", "Ann@Example.org", None)
    assert records.fields("u_1", ["email", "email_verified"]) == ["Ann@Example.org", ""]
    records.prove("u_1", "Ann@Example.org", None)
    assert records.address_owner("ann@example.org") == "u_1"
    assert records.fields("u_1", ["email_verified"]) == ["1"]
    records.change_address("u_2", "ann@example.org", None)
    records.prove("u_2", "ann@example.org", "u_1")
    assert records.address_owner("ANN@example.org") == "u_2"
    assert records.fields("u_1", ["email", "email_verified"]) == ["", ""]
    records.change_address("u_2", "new@example.org", "ann@example.org")
    assert records.address_owner("ann@example.org") is None
    records.change_address("u_2", None, None)
    assert records.fields("u_2", ["email"]) == ["new@example.org"]


def test_the_use_cases_run_on_the_in_memory_records():
    """Users on the in-memory twin: a token authenticates, a rotation refuses the old one, search and names."""
    from service.app.errors import Unauthorized
    users = Users(InMemoryUserRecords())
    made = users.create("Ann")
    assert users.authenticate(made["token"]) == {"id": made["id"], "name": "Ann"}
    fresh = users.rotate(made["id"])
    with pytest.raises(Unauthorized):
        users.authenticate(made["token"])
    assert users.authenticate(fresh)["id"] == made["id"]
    users.ensure_bots(["bot:greedy:1"], {"greedy": "Greedy bot"})
    assert users.names([made["id"], "bot:greedy:1", "u_x"]) == {made["id"]: "Ann", "bot:greedy:1": "Greedy bot",
                                                                 "u_x": "u_x"}
    assert [u["id"] for u in users.search("an")] == [made["id"]] and users.with_name("ANN") == [made["id"]]
    assert users.missing([made["id"], "u_x"]) == ["u_x"]
    assert users.set_webhook(made["id"], "https://hooks.example/x", secret="k") == "k"
    assert users.with_webhook([made["id"], "bot:greedy:1"]) == {made["id"]}
    from service.app.mail.contacts import Contacts
    contacts = Contacts(users.records)
    contacts.set_pending(made["id"], "ann@example.org")
    assert contacts.verify(made["id"], "ANN@example.org") and contacts.owner("ann@example.org") == made["id"]
    assert contacts.set_preferences(made["id"], {"your_move": "digest"})["your_move"] == "digest"
    assert contacts.digest_readers() == {made["id"]} and contacts.get(made["id"])["email_verified"]
