"""`turnstream bench --archive` on the test Redis: every game's live and archived bytes (every key of a match),
the ratio, matches per GiB and cold open times are reported; archived is a few percent of live."""
from __future__ import annotations

import argparse

from service.cli.bench.archive import GAMES, report_archive, run_archive_bench


def test_the_archive_bench_measures_every_game(redis_url, redis_client):
    figures = run_archive_bench(argparse.Namespace(archive_matches=1, quick=True), redis_url, "the test Redis")
    assert set(figures["games"]) == set(GAMES)
    for game in figures["games"].values():
        assert set(game["keys_live"]) >= {"stream", "meta", "secret", "summary"}
        assert set(game["keys_archived"]) == {"archive", "meta", "summary"}
        assert game["ratio"]["max"] < 0.08 and game["archived_bytes_per_event"]["max"] < 33
        assert game["matches_per_gib"]["archived"] > 10 * game["matches_per_gib"]["live"]
        assert game["cold_archived"]["replay"]["samples"] == 20
    text = report_archive(figures)
    assert "uchronia:" in text and "per GiB" in text and text.splitlines()[-1].startswith("targets")
