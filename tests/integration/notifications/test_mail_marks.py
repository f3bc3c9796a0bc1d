"""The mail marks contract (service/store/mail_marks.py) on a real Redis, fakeredis and in memory."""
from __future__ import annotations

import fakeredis
import pytest

from service.store.mail_marks import InMemoryMailMarks, RedisMailMarks


@pytest.fixture(params=["redis", "fakeredis", "memory"])
def marks(request):
    """The same port on each backend."""
    if request.param == "memory":
        return InMemoryMailMarks()
    client = request.getfixturevalue("redis_client") if request.param == "redis" else fakeredis.FakeRedis(
        decode_responses=True)
    return RedisMailMarks(client)


def test_the_signing_key_is_made_once(marks):
    """The first maker's key stays: a second process asking later gets the same one."""
    assert marks.signing_key(lambda: "k" * 48) == "k" * 48
    assert marks.signing_key(lambda: "other") == "k" * 48


def test_a_link_opens_once_and_a_mail_is_queued_and_sent_once(marks):
    """use_link and queue_once: one winner each; unqueue lets a later post queue it; sent after mark_sent."""
    assert not marks.link_used("n1") and marks.use_link("n1", 60)
    assert marks.link_used("n1") and not marks.use_link("n1", 60) and not marks.link_used("n2")
    assert marks.queue_once("m1", 60) and not marks.queue_once("m1", 60)
    marks.unqueue("m1")
    assert marks.queue_once("m1", 60)
    assert not marks.sent("m1")
    marks.mark_sent("m1", 60)
    assert marks.sent("m1") and not marks.sent("m2")


def test_marks_lapse_in_memory():
    """The twin's marks lapse after their seconds, as Redis's keys expire."""
    now = [0.0]
    marks = InMemoryMailMarks(clock=lambda: now[0])
    marks.use_link("n1", 10)
    marks.mark_sent("m1", 5)
    now[0] = 6.0
    assert marks.link_used("n1") and not marks.sent("m1")
    now[0] = 11.0
    assert not marks.link_used("n1") and marks.use_link("n1", 10)
