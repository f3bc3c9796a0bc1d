"""Archived records that are damaged or forged cost little and stop nothing: a small record claiming a large
document is refused before it is decompressed, a record is decoded once per process however many replays read
it, `export --all` reports a damaged match and saves the others (exit 1), and `import` refuses a deeply nested
file with one line."""
from __future__ import annotations

import json
import resource
import time

import zstandard

from service.app.archive import ARCHIVED, archive_match
from service.app.backup import MAX_DEPTH, export_all, import_files
from service.cli import main as cli_main
from service.store.archive_codec import ArchiveError, decode
from tests.integration.history.archives import client_of, cold, finished_match


def bomb() -> bytes:
    """A 4 kB record (format 2, with its checksum) whose document decompresses to 64 MiB."""
    cctx = zstandard.ZstdCompressor(level=19, write_checksum=True, write_content_size=True)
    return b"\x02" + cctx.compress(b'{"match":"' + b"x" * (64 * 1024 * 1024 - 16) + b'"}')


def test_a_small_record_claiming_a_large_document_is_refused_before_decompressing():
    record = bomb()
    assert len(record) < 16 * 1024
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    try:
        decode(record)
        raise AssertionError("the forged record was read")
    except ArchiveError as exc:
        assert "times its size" in str(exc)
    assert time.monotonic() - started < 0.5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 32 * 1024  # kB: nothing decompressed


def test_replays_of_an_archived_match_decode_its_record_once(w, people, monkeypatch):
    ids, _headers = people
    mid = finished_match(w, "uchronia", ids, "decode-once")
    assert archive_match(w.store, mid, 0)["status"] == ARCHIVED
    process = cold(w, snapshots=False)
    import service.store.archive_codec as codec
    decoded, document = [], codec._document
    monkeypatch.setattr(codec, "_document", lambda record: decoded.append(1) or document(record))
    client = client_of(process)
    for version in (1, 5, 9, 12):
        assert client.get(f"/api/matches/{mid}/replay?version={version}").status_code == 200
    assert len(decoded) == 1


def test_export_all_reports_a_damaged_match_and_saves_the_others(w, people, tmp_path, monkeypatch, capsys):
    ids, _headers = people
    good = finished_match(w, "uchronia", ids, "export-good")
    bad = finished_match(w, "uchronia", ids, "export-bad")
    for mid in (good, bad):
        assert archive_match(w.store, mid, 0)["status"] == ARCHIVED
    w.redis.set(w.store.keys.archive(bad), bomb())
    lines = []
    manifest = export_all(cold(w), tmp_path / "backup", say=lines.append)
    assert manifest["damaged"] == [bad] and (tmp_path / "backup" / "matches" / f"{good}.json").exists()
    assert any(bad in line and "NOT in the backup" in line for line in lines)
    monkeypatch.setenv("REDIS_URL", w.settings.redis_url)
    assert cli_main(["export", "--all", "-o", str(tmp_path / "again")]) == 1
    err = capsys.readouterr().err
    assert f"NOT in the backup: {bad}" in err and "Traceback" not in err


def test_import_refuses_a_deeply_nested_file_with_one_line(w, tmp_path, monkeypatch, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps({"events": [{"data": json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))}]}))
    counts = import_files(w, [deep, nested], say=lambda _m: None)
    assert len(counts["refused"]) == 2 and all("levels deep" in p for p in counts["refused"])
    monkeypatch.setenv("REDIS_URL", w.settings.redis_url)
    assert cli_main(["import", str(deep)]) == 1
    err = capsys.readouterr().err
    assert "levels deep" in err and "Traceback" not in err and "RecursionError" not in err
