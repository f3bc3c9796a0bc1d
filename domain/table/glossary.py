"""Each game's glossary (boards/glossary/<game id>.json): every term a board shows, its words and a one-line
explanation in English and Russian (the rulebooks' own terms), and the rule it belongs to on the rules page."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from service.web.boards.svgkit import e

HERE = Path(__file__).resolve().parent / "glossary"
LANGS = ("en", "ru")


@cache
def glossary(game_id: str) -> dict:
    """The game's terms by id ({} when it has no glossary file)."""
    path = HERE / f"{game_id}.json"
    return json.loads(path.read_text(encoding="utf-8"))["terms"] if path.exists() else {}


def language() -> str:
    """The page's language (English outside a request)."""
    try:
        from flask_babel import get_locale
        locale = get_locale()
    except (ImportError, RuntimeError):
        locale = None
    return locale.language if locale is not None and locale.language in LANGS else "en"


def words(game_id: str, term_id: str) -> tuple[str, str, str]:
    """(term, explanation, rule link or "") of a glossary term in the page's language."""
    entry = glossary(game_id)[term_id]
    own = entry[language()]
    rule = entry.get("rule")
    return own["term"], own["text"], f"/games/{game_id}/rules#rule-{rule}" if rule else ""


def tip(game_id: str, term_id: str) -> str:
    """The tooltip text of a term: its words and explanation."""
    term, text, _rule = words(game_id, term_id)
    return f"{term}: {text}"


def _data(game_id: str, term_id: str) -> str:
    """The attributes board.js reads to show a term's tooltip on focus and tap."""
    _term, _text, rule = words(game_id, term_id)
    return f'data-term="{e(term_id)}" data-tip="{e(tip(game_id, term_id))}"' + (f' data-rule="{e(rule)}"' if rule else "")


def term(game_id: str, term_id: str, shown=None, focus: bool = True) -> str:
    """An HTML term: its words (or `shown`), explained on hover (title), focus and tap (board.js)."""
    label = words(game_id, term_id)[0] if shown is None else shown
    tab = ' tabindex="0"' if focus else ""
    return (f'<abbr class="term"{tab} {_data(game_id, term_id)} title="{e(tip(game_id, term_id))}">'
            f'{e(label)}</abbr>')


def svg_term(game_id: str, term_id: str, body: str, focus: bool = False) -> str:
    """An SVG term: `body` in a group with the explanation as its <title>, shown on tap (and focus) too."""
    tab = ' tabindex="0"' if focus else ""
    return f'<g class="term"{tab} {_data(game_id, term_id)}><title>{e(tip(game_id, term_id))}</title>{body}</g>'
