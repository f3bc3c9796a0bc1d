"""What each kind of action does, in a line: the match header's "what to do now" and the explanation beside each
group of buttons. The phrase is the game's own (its package's words.py, STEPS, said through the `games` catalogue);
the explanation is the rule's own text on the game's rules page, so both languages say what the rules page says."""
from __future__ import annotations

import json

from flask_babel import gettext as _

from domain.engine.text import T
from service.web.game_words import render, say
from service.web.pages.page_words import table
from service.web.rules_texts import texts_of


def step_of(game, kind: str) -> tuple | None:
    """The game's (phrase, rule id or None) of a command type, or None for a type its words do not list."""
    return table(game, "STEPS", {}).get(kind)


def phrase(game, kind: str) -> str:
    """What a command of `kind` does, as a phrase ("play cards to issue an order"); else the type made readable."""
    step = step_of(game, kind)
    return say(T(step[0])) if step else kind.replace("_", " ")


def gives_up(game, kind: str) -> bool:
    """Whether a move gives up the rest of something (a turn, a round, an order): never the primary button."""
    return kind in table(game, "GIVING_UP", frozenset())


def asks_first(game, kind: str) -> bool:
    """Whether a move gives up the turn (or round), so the page asks first; whether Undo can take it back is the
    take-back policy's, said in the question (match_sections.asked_truly)."""
    return kind in table(game, "ASK_FIRST", frozenset())


def either(phrases: list) -> str:
    """"a", "a or b", "a, b or c" in the page's language."""
    if len(phrases) <= 1:
        return "".join(phrases)
    return _("%(some)s or %(last)s", some=", ".join(phrases[:-1]), last=phrases[-1])


def kinds_of(game, commands: list) -> list:
    """The command types in the order the game lists them, the moves that give something up last."""
    kinds = list(dict.fromkeys(c["type"] for c in commands))
    return [k for k in kinds if not gives_up(game, k)] + [k for k in kinds if gives_up(game, k)]


def todo(game, commands: list) -> str:
    """What the player may do now, as one phrase: "play cards to issue an order or plot (…)"."""
    return either([phrase(game, k) for k in kinds_of(game, commands)][:4])


def explanation(game, kind: str, lang: str) -> str | None:
    """The rule text that explains a command type, from the rules page of `game` (the match's rules version) in
    `lang`; a move without a rule of its own says the game's own words for it (OWN_WORDS), if any."""
    step = step_of(game, kind)
    if step and step[1] is None:
        own = table(game, "OWN_WORDS", {}).get(kind)
        return render(T(own), lang) if own else None
    text = texts_of(game, lang) if step else None
    for group in (text or {}).get("rules", []):
        for rule_id, _title, words in group["entries"]:
            if rule_id == step[1]:
                return words
    return None


def rule_anchor(game, kind: str) -> str | None:
    """The rules page's anchor of the rule that explains a command type."""
    step = step_of(game, kind)
    return f"rule-{step[1]}" if step and step[1] else None


def group_kind(group: dict) -> str:
    """The command type of a group of buttons (every button of a group has the same)."""
    return json.loads(group["actions"][0]["json"])["type"]
