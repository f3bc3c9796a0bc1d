"""A game's glossary (text/glossary.json in its package): every term its board shows, its words and a one-line
explanation in English and Russian (the rulebooks' own terms), and the rule it belongs to on the rules page."""
from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

from domain.table import speech
from domain.table.svgkit import e

LANGS = ("en", "ru")


def language() -> str:
    """The page's language among the glossaries' languages (English otherwise)."""
    lang = speech.language()
    return lang if lang in LANGS else "en"


class Glossary:
    """One game's terms, read once from `path`, each linking to its rule on the page at `rules_url`."""

    def __init__(self, path: Path, rules_url: str):
        self.path, self.rules_url = Path(path), rules_url

    @cached_property
    def terms(self) -> dict:
        """The terms by id ({} when the game has no glossary file)."""
        return json.loads(self.path.read_text(encoding="utf-8"))["terms"] if self.path.exists() else {}

    def words(self, term_id: str) -> tuple[str, str, str]:
        """(term, explanation, rule link or "") of a term in the page's language."""
        entry = self.terms[term_id]
        own = entry[language()]
        rule = entry.get("rule")
        return own["term"], own["text"], f"{self.rules_url}#rule-{rule}" if rule else ""

    def tip(self, term_id: str) -> str:
        """The tooltip text of a term: its words and explanation."""
        term, text, _rule = self.words(term_id)
        return f"{term}: {text}"

    def _data(self, term_id: str) -> str:
        """The attributes board.js reads to show a term's tooltip on focus and tap."""
        _term, _text, rule = self.words(term_id)
        return (f'data-term="{e(term_id)}" data-tip="{e(self.tip(term_id))}"'
                + (f' data-rule="{e(rule)}"' if rule else ""))

    def term(self, term_id: str, shown=None, focus: bool = True) -> str:
        """An HTML term: its words (or `shown`), explained on hover (title), focus and tap (board.js)."""
        label = self.words(term_id)[0] if shown is None else shown
        tab = ' tabindex="0"' if focus else ""
        return (f'<abbr class="term"{tab} {self._data(term_id)} title="{e(self.tip(term_id))}">'
                f'{e(label)}</abbr>')

    def svg_term(self, term_id: str, body: str, focus: bool = False) -> str:
        """An SVG term: `body` in a group with the explanation as its <title>, shown on tap (and focus) too."""
        tab = ' tabindex="0"' if focus else ""
        return (f'<g class="term"{tab} {self._data(term_id)}><title>{e(self.tip(term_id))}</title>'
                f'{body}</g>')
