"""TURNSTREAM_LOG_FORMAT=json: every line the web server and the workers write is one JSON object with the
request's id, user, match, command type, outcome and ms (a job's id in workers); no token, cookie or secret
appears in any line."""
from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.parse
import urllib.request

from tests.e2e.processes import Api, service, start_invited
from tests.waiting import wait_for

WEBHOOK_SECRET = "whsec-do-not-log-7f3a9c"
METRICS_TOKEN = "metrics-do-not-log-51d2e8"


def browser_session(base: str) -> tuple[urllib.request.OpenerDirector, str]:
    """A cookie-keeping client signed up through the lobby form; (opener, session cookie value)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    html = opener.open(base + "/").read().decode()
    csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    opener.open(base + "/signup", urllib.parse.urlencode({"name": "carol", "csrf": csrf}).encode())
    session = [c.value for c in jar if c.value and c.value != csrf]
    assert session, [c.name for c in jar]
    return opener, session[0]


def request_with_id(base: str, path: str, token: str, body: dict, request_id: str | None):
    """POST a JSON body with an optional X-Request-ID; (status, answer headers)."""
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}",
                                          **({"X-Request-ID": request_id} if request_id else {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers


def test_json_log_lines_carry_context_and_no_secret(redis_url, tmp_path):
    """A short e2e run (API, page session, stream, webhook, token rotation, metrics) under JSON logs."""
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    env = {"TURNSTREAM_LOG_FORMAT": "json", "TURNSTREAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
           "TURNSTREAM_METRICS_TOKEN": METRICS_TOKEN, "TURNSTREAM_WEBHOOK_ALLOW": "127.0.0.1"}
    secrets = [WEBHOOK_SECRET, METRICS_TOKEN]
    with service(redis_url, tmp_path, extra_env=env) as base:
        ann = Api(base).post("/api/users", {"name": "ann"})[1]
        bob = Api(base).post("/api/users", {"name": "bob"})[1]
        secrets += [ann["token"], bob["token"]]
        a, b = Api(base, ann["token"]), Api(base, bob["token"])
        assert a.call("PUT", "/api/users/me/webhook", {"url": "http://127.0.0.1:9/hook?key=abc"})[0] == 200
        match = start_invited(a, {"game": "uchronia", "players": [ann["id"], bob["id"]]}, {bob["id"]: bob["token"]})[1]
        for i in range(4):
            actor = a if Api(base).get(f"/api/matches/{match['id']}")[1]["active_players"][0] == ann["id"] else b
            cmd = actor.get(f"/api/matches/{match['id']}/legal")[1]["commands"][0]
            status, headers = request_with_id(base, f"/api/matches/{match['id']}/commands", actor.token, cmd,
                                              f"e2e-cmd-{i}")
            assert status == 201 and headers["X-Request-ID"] == f"e2e-cmd-{i}"
            # each move projected before the next: moves folded into one batch could hand the turn back and
            # forth to where it was, and then no "your turn" webhook (the job line waited for below) is due
            version = Api(base).get(f"/api/matches/{match['id']}")[1]["version"]
            wait_for(lambda: any(m["id"] == match["id"] and m["version"] == version
                                 for m in Api(base).get(f"/api/matches?player={ann['id']}")[1]["matches"]),
                     20, "the move projected")
        status, headers = request_with_id(base, f"/api/matches/{match['id']}/commands", ann["token"],
                                          {"type": "no_such_command"}, "bad id with spaces")
        assert status == 400 and re.fullmatch(r"[0-9a-f]{16}", headers["X-Request-ID"])
        opener, cookie = browser_session(base)
        secrets.append(cookie)
        opener.open(f"{base}/matches/{match['id']}").read()
        stream = urllib.request.Request(f"{base}/api/matches/{match['id']}/stream",
                                        headers={"Authorization": f"Bearer {ann['token']}"})
        with urllib.request.urlopen(stream, timeout=5) as s:
            s.read(20)
        try:  # a token in a URL is refused, and must not reach a log line either
            urllib.request.urlopen(f"{base}/api/matches/{match['id']}/stream?token={ann['token']}", timeout=5)
        except urllib.error.HTTPError as exc:
            assert exc.code == 400
        rotated = a.post("/api/users/me/token")[1]["token"]
        secrets.append(rotated)
        urllib.request.urlopen(urllib.request.Request(base + "/metrics",
                                                      headers={"Authorization": f"Bearer {METRICS_TOKEN}"})).read()

        def job_lines_written():  # the worker projects and the deliveries worker tries the webhook
            return any('"job_id"' in (tmp_path / n).read_text() for n in ("worker.log", "deliveries.log")
                       if (tmp_path / n).exists())

        wait_for(job_lines_written, 60, "a worker line naming its RQ job", interval=0.2)
    lines = []
    for name in ("web.log", "worker.log", "deliveries.log"):
        for raw in (tmp_path / name).read_text().splitlines():
            if raw.strip():
                lines.append((name, raw))
    assert {name for name, _ in lines} == {"web.log", "worker.log", "deliveries.log"}
    records = []
    for name, raw in lines:
        record = json.loads(raw)  # every line is one JSON object
        assert {"time", "level", "event"} <= record.keys(), raw
        records.append(record)
        for secret in secrets:
            assert secret not in raw, f"a secret in {name}: {raw}"
    commands = [r for r in records if r.get("request_id", "").startswith("e2e-cmd-")]
    assert len(commands) == 4
    assert all(r["command_type"] and r["match_id"] == match["id"] and r["user_id"] in (ann["id"], bob["id"])
               and r["outcome"] == "ok" and r["ms"] >= 0 and r["status"] == 201 for r in commands), commands
    assert any(r.get("path", "").endswith("/stream") for r in records)
    assert any(r.get("job_id") and r.get("job") for r in records), "worker lines name their RQ job"
