"""REDIS_SENTINELS, REDIS_SENTINEL_MASTER, TURNSTREAM_MIN_REPLICAS and TURNSTREAM_REPLICA_WAIT_MS: read once, a
setting that cannot work said at start-up in one line."""
from __future__ import annotations

import pytest

from service.config import ConfigError, from_env


def test_defaults_change_nothing():
    """No sentinels, no replicas waited for."""
    settings = from_env({})
    assert (settings.redis_sentinels, settings.min_replicas, settings.replica_wait_ms) == ((), 0, 500)
    assert settings.redis_sentinel_master == "turnstream"


def test_sentinels_and_replicas_are_read():
    """host:port pairs in order (an IPv6 host in brackets too), the master's name and the wait."""
    settings = from_env({"REDIS_SENTINELS": "10.0.0.1:26379, 10.0.0.2:26380,[::1]:26381",
                         "REDIS_SENTINEL_MASTER": "games", "TURNSTREAM_MIN_REPLICAS": "1",
                         "TURNSTREAM_REPLICA_WAIT_MS": "250"})
    assert settings.redis_sentinels == (("10.0.0.1", 26379), ("10.0.0.2", 26380), ("::1", 26381))
    assert (settings.redis_sentinel_master, settings.min_replicas, settings.replica_wait_ms) == ("games", 1, 250)


@pytest.mark.parametrize("env,said", [
    ({"REDIS_SENTINELS": "10.0.0.1"}, "is not host:port"),
    ({"REDIS_SENTINELS": "10.0.0.1:port"}, "is not host:port"),
    ({"REDIS_SENTINELS": "10.0.0.1:26379", "REDIS_CLUSTER": "1"}, "exclude each other"),
    ({"TURNSTREAM_MIN_REPLICAS": "one"}, "whole numbers"),
    ({"TURNSTREAM_MIN_REPLICAS": "-1"}, "0 or more"),
    ({"TURNSTREAM_REPLICA_WAIT_MS": "0"}, "more than 0"),
    ({"TURNSTREAM_MIN_REPLICAS": "1", "REDIS_CLUSTER": "1"}, "not on a Redis Cluster"),
])
def test_a_setting_that_cannot_work_is_refused(env, said):
    """Each refusal names the setting's problem."""
    with pytest.raises(ConfigError, match=said):
        from_env(env)
