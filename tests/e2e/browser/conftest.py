"""The browser tests' shared fixtures: one real service per module (`base`) and the people and matches a module plays
with (`site`). A module says what differs: its `site` marker names its people (default Ann and Bob) and the service's
extra environment, and its `furnish(site, redis_url)` returns what it adds to the site (its matches)."""
from __future__ import annotations

import pytest

from tests.e2e.processes import Api, service

PEOPLE = ("Ann", "Bob")


def pytest_configure(config):
    config.addinivalue_line("markers", "site(people=(...), env={...}): a browser module's people and the extra "
                                       "environment of its service")


def site_options(request) -> dict:
    """The keyword arguments of the module's `site` marker ({} without one)."""
    marker = request.node.get_closest_marker("site")
    return dict(marker.kwargs) if marker else {}


@pytest.fixture(scope="module")
def base(request, redis_url, tmp_path_factory):
    """A real web server and workers on an emptied test Redis for one module's tests (logs in a folder of the
    module's name); its base URL."""
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    logs = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    with service(redis_url, logs, extra_env=site_options(request).get("env")) as url:
        yield url


@pytest.fixture(scope="module")
def site(request, base, redis_url):
    """{"base", "users": {name: user made through the API}, "ann" and "bob": the first two people} and whatever the
    module's `furnish(site, redis_url)` returns."""
    users = {}
    for name in site_options(request).get("people", PEOPLE):
        status, user = Api(base).post("/api/users", {"name": name})
        assert status == 201, user
        users[name] = user
    made = {"base": base, "users": users, **dict(zip(("ann", "bob"), users.values()))}
    furnish = getattr(request.module, "furnish", None)
    if furnish is not None:
        made.update(furnish(made, redis_url))
    return made
