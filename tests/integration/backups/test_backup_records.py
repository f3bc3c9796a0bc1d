"""The backup's port on Redis (service/store/backup_records.py), on a real Redis and on fakeredis: ids found by
SCAN, a user's record, the installation keys, the restore's checks and writes."""
from __future__ import annotations

import fakeredis
import pytest

from service.store.backup_records import RedisBackupRecords
from service.store.keys import Keys


@pytest.fixture(params=["redis", "fakeredis"])
def backups(request):
    """The port over 4 partitions."""
    client = request.getfixturevalue("redis_client") if request.param == "redis" else fakeredis.FakeRedis(
        decode_responses=True)
    return RedisBackupRecords(client, Keys(4))


def test_a_restored_user_is_read_back_and_found_here(backups):
    """restore_user writes what user() and already_here() then find; the ids are listed by SCAN."""
    assert backups.user_ids() == [] and backups.already_here([], [], [], []) == []
    backups.restore_user({"id": "u_2", "name": "Bo", "token_hash": "t2"}, "bo\0u_2", None, None, False)
    backups.restore_user({"id": "u_1", "name": "Ann", "token_hash": "t1", "email": "a@example.org"}, "ann\0u_1",
                         "t1", "a@example.org", True)
    assert backups.user_ids() == ["u_1", "u_2"]
    assert backups.user("u_1") == ({"id": "u_1", "name": "Ann", "token_hash": "t1", "email": "a@example.org"}, True)
    assert backups.user("u_2")[1] is False and backups.user("u_9") == ({}, False)
    assert backups.r.smembers(Keys.digest_readers()) == {"u_1"}
    assert backups.already_here(["u_1", "u_9"], ["t1", "t2"], ["A@example.org"], ["m1"]) == [
        True, False, True, False, True, False]


def test_match_ids_and_installation_keys(backups):
    """Every match with a meta hash is listed once; installation keys are read and written by name."""
    for match_id in ("m2", "m1"):
        backups.r.hset(backups.keys.meta(match_id), "version", "1")
    backups.r.hset(backups.keys.summary("m3"), "x", "1")  # a read model, not a match's meta
    assert backups.match_ids() == ["m1", "m2"] and backups.already_here([], [], [], ["m1"]) == [True]
    assert backups.installation(["webhook_secret"]) == {"webhook_secret": None}
    backups.set_installation({"webhook_secret": "w" * 20, "mail_signing_key": "k" * 20})
    assert backups.installation(["mail_signing_key", "webhook_secret"]) == {"mail_signing_key": "k" * 20,
                                                                           "webhook_secret": "w" * 20}
