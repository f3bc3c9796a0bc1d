"""`turnstream import` trusts nothing in a backup: a seed that is not the committed one, a chain downgraded to the
unsalted format, a status its events do not reach, ids and names the API would refuse, a token for a bot and a
webhook to a private address are each refused with their reason, one line each, and nothing at all is written."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets

from domain.engine.hashing import event_hash
from service.app.backup import export_all, import_files
from service.bootstrap import build
from tests.integration.backups.populating import main_with, populate

EVIL_NAME = "\u202e" + "evil" * 79 + "ab"  # 319 characters, a right-to-left override first


def backup(client, wiring, make_user, tmp_path) -> tuple[dict, list]:
    """An operator backup of three users and three matches (a running Uchronia match, a finished dice race, an
    open match) in tmp_path/backup; (tokens, match ids)."""
    tokens, ids = populate(client, make_user)
    export_all(wiring, tmp_path / "backup", say=lambda _m: None)
    return tokens, ids


def edit(path, change) -> None:
    """Rewrite a JSON file through `change(doc)`."""
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def unsalted(doc: dict) -> None:
    """Recompute every hash of an export as the unsalted format-1 chain (what a downgrade has to do)."""
    prev = "0" * 64
    for env in doc["events"]:
        env["prev"] = prev
        env["hash"] = prev = event_hash(prev, env)
    doc["head"] = prev


def nothing_written(w) -> bool:
    """True when the Redis holds no key at all."""
    return w.redis.dbsize() == 0


def import_quietly(w, paths) -> dict:
    """import_files without its progress lines."""
    return import_files(w, paths, say=lambda _m: None)


def test_each_forgery_is_refused_with_its_reason_and_nothing_is_written(client, wiring, make_user, fresh_wiring,
                                                                       tmp_path):
    _tokens, (running, race, opened) = backup(client, wiring, make_user, tmp_path)
    matches = tmp_path / "backup" / "matches"
    # a seed that is not the one match_created committed to (future dice chosen by whoever edits the file)
    edit(matches / f"{running}.json", lambda d: d.update(secret_seed=secrets.token_hex(32)))

    # the finished race downgraded to the unsalted chain: match_created's chain field dropped, every hash redone
    def downgrade(doc):
        del doc["events"][0]["data"]["chain"]
        unsalted(doc)
    edit(matches / f"{race}.json", downgrade)

    # the open match says it finished; a copy of it names a match id that is a Redis key suffix
    edit(matches / f"{opened}.json", lambda d: d.update(status="finished"))
    keyish = json.loads((matches / f"{opened}.json").read_text())
    keyish.update(match="m_x:meta", status="open")
    (matches / "keyish.json").write_text(json.dumps(keyish))
    script = dict(keyish, match="../../x y<script>")
    (tmp_path / "script.json").write_text(json.dumps(script))

    def users(doc):
        doc["users"][0]["webhook"] = "http://127.0.0.1:6379/"
        doc["users"][1]["name"] = EVIL_NAME
        doc["users"].append({"id": "bot:mcts:1", "name": "MCTS bot",
                             "token_hash": hashlib.sha256(b"bot:mcts:1.chosen").hexdigest()})
        doc["users"].append({"id": "../../x y<script>", "name": "x"})
    edit(tmp_path / "backup" / "users.json", users)

    counts = import_quietly(fresh_wiring, [tmp_path / "backup", tmp_path / "script.json"])
    refused = counts["refused"]
    assert (counts["matches"], counts["users"], counts["events"]) == (0, 0, 0)
    assert nothing_written(fresh_wiring), "nothing half-written: not even the users that were fine"
    assert all("\n" not in line for line in refused)

    def about(fragment: str) -> list:
        return [line for line in refused if fragment in line]

    assert about(f"{running}.json: the secret seed does not match the commitment")
    assert about(f"{race}.json: match_created declares no chain format") and about("downgraded chain")
    assert about(f"{opened}.json: the file says status 'finished', its events say 'open'")
    assert about("keyish.json: the match id is refused: 'm_x:meta'")
    assert about("script.json: the match id is refused: '../../x y<script>'")
    assert about("webhook 'http://127.0.0.1:6379/' is refused") and about("not a public address")
    assert about("(319 characters) is refused") and about("U+202E")
    assert about("user 'bot:mcts:1': a bot has no token")
    assert about("the user id is refused: '../../x y<script>'")
    assert len(refused) == 9, refused


def test_a_format_one_declaration_and_an_unknown_format_are_refused(client, wiring, make_user, fresh_wiring,
                                                                   tmp_path):
    _tokens, (running, race, _opened) = backup(client, wiring, make_user, tmp_path)
    path = tmp_path / "backup" / "matches" / f"{race}.json"

    def declare(fmt):
        def change(doc):
            doc["events"][0]["data"]["chain"] = fmt
            unsalted(doc)
        return change
    edit(path, declare(1))
    (refused,) = import_quietly(fresh_wiring, [path])["refused"]
    assert "declares the unsalted chain format 1" in refused
    edit(path, declare(3))
    (refused,) = import_quietly(fresh_wiring, [path])["refused"]
    assert "unknown chain format 3" in refused
    assert nothing_written(fresh_wiring)


def test_an_allowlisted_webhook_restores_and_the_cli_prints_one_line_per_problem(client, wiring, make_user,
                                                                                 tmp_path, games, capfd):
    """With TURNSTREAM_WEBHOOK_ALLOW naming the address the import takes the webhook; the CLI exits 1 with one
    `refused` line per problem and writes nothing."""
    backup(client, wiring, make_user, tmp_path)
    edit(tmp_path / "backup" / "users.json", lambda d: d["users"][0].update(webhook="http://127.0.0.1:6379/"))
    hooked = json.loads((tmp_path / "backup" / "users.json").read_text())["users"][0]["id"]
    from service.server.embedded_redis import EmbeddedRedis
    target = EmbeddedRedis(tmp_path / "target", appendfsync="no").start()
    try:
        refusing = build(dataclasses.replace(wiring.settings, redis_url=target.url), games=games)
        capfd.readouterr()
        assert main_with(refusing, ["import", str(tmp_path / "backup")]) == 1
        err = capfd.readouterr().err
        lines = [line for line in err.splitlines() if line.startswith("turnstream import: refused")]
        assert len(lines) == 2, err  # the CLI hosts the real games only: the dice race is refused too
        assert f"users.json: user '{hooked}'" in lines[0] and "webhook 'http://127.0.0.1:6379/' is refused" in lines[0]
        assert "game 'dice-race' is not hosted here" in lines[1]
        assert "nothing restored" in err and refusing.redis.dbsize() == 0
        allowing = build(dataclasses.replace(wiring.settings, redis_url=target.url, webhook_allow="127.0.0.1"),
                         games=games)
        counts = import_quietly(allowing, [tmp_path / "backup"])
        assert counts["refused"] == [] and counts["users"] == 3 and counts["matches"] == 3
        assert allowing.users.get(hooked)["webhook"] == "http://127.0.0.1:6379/"
    finally:
        target.stop()
