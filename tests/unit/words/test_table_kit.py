"""The table kit (domain/table/): pure (no web import), English until the web installs the page's language, and a
glossary read from the file its game names."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from domain.engine.text import T, name
from domain.table import speech
from domain.table.glossary import Glossary
from domain.table.words import said, say_name, word

ROOT = Path(__file__).resolve().parents[3]
WEB = ("flask", "flask_babel", "werkzeug", "redis", "service", "workers", "projections")


def imports_of(path: Path) -> set:
    """The top-level names a source file imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_the_kit_imports_nothing_of_the_web():
    files = sorted((ROOT / "domain" / "table").glob("*.py"))
    assert len(files) >= 6
    for path in files:
        assert not imports_of(path) & set(WEB), path


@pytest.fixture
def voice():
    """Whatever a test installs is undone afterwards."""
    before = vars(speech._voice).copy()
    yield
    speech.install(**before)


def test_the_kit_speaks_english_until_a_page_language_is_installed(voice):
    speech.install(**vars(speech.ENGLISH))
    assert speech.gettext("Round %(round)s", round=2) == "Round 2"
    assert speech.pgettext("map", "gate") == "gate" and speech.language() == "en"
    assert say_name("Barracks") == "Barracks" and said(lambda n: T("{n} farms", n=n))(3) == "3 farms"
    table = {"base": speech.lazy_gettext("Galactic Base")}
    assert word(table, "base") == "Galactic Base" and word(table, "telegate") == "telegate"


def test_an_installed_language_says_every_word_when_shown(voice):
    lang = {"now": "en"}
    ru = {"Galactic Base": "Галактическая база", "Round %(round)s": "Раунд %(round)s"}
    speech.install(say=lambda value: f"<{value}>", language=lambda: lang["now"],
                   gettext=lambda s: ru.get(s, s) if lang["now"] == "ru" else s,
                   pgettext=lambda context, s: f"{context}:{s}")
    table = {"base": speech.lazy_gettext("Galactic Base")}  # built before the language is known
    assert word(table, "base") == "Galactic Base"
    lang["now"] = "ru"
    assert word(table, "base") == "Галактическая база" and speech.gettext("Round %(round)s", round=3) == "Раунд 3"
    assert speech.pgettext("map", "gate") == "map:gate" and speech.language() == "ru"
    assert say_name("Barracks") == "<Barracks>" and say_name(name("Barracks")) == "<Barracks>"


def test_a_glossary_reads_its_own_file_in_the_page_language(tmp_path, voice):
    path = tmp_path / "glossary.json"
    path.write_text(json.dumps({"terms": {"city": {"rule": "trade", "en": {"term": "city", "text": "A market."},
                                                   "ru": {"term": "город", "text": "Рынок."}}}}), encoding="utf-8")
    terms = Glossary(path, "/games/g/rules")
    assert terms.words("city") == ("city", "A market.", "/games/g/rules#rule-trade")
    assert 'data-term="city"' in terms.term("city") and ">city</abbr>" in terms.term("city")
    speech.install(**{**vars(speech.ENGLISH), "language": lambda: "ru"})
    assert terms.tip("city") == "город: Рынок." and "<title>город: Рынок.</title>" in terms.svg_term("city", "")
    speech.install(**{**vars(speech.ENGLISH), "language": lambda: "de"})
    assert terms.words("city")[0] == "city", "a language without a glossary entry reads English"
    assert Glossary(tmp_path / "none.json", "/games/g/rules").terms == {}
