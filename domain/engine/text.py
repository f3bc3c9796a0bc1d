"""Words the games show people (buttons, move log, refusals): an English `str` that also keeps the gettext
template and the params it was made of, so a page can say it in its reader's language (service/web/game_words.py)
while every caller, the stored answers and the English API see the same English string as before.

Markers (extracted by pybabel, docs/translations.md): `T(template, **params)`, `NT(singular, plural, n, **params)`
(a count: English picks by n == 1), `N_(template)` and `NP_(singular, plural)` (kept in a table, said later with
`T` / `NT`), `NC_(context, template)` (kept in a table, said later with `TC`: the context keeps the same English
apart).
`name(s)` is a printed name from a game's data (a card, a building), translated from the names JSON, not gettext;
`joined(items, sep)` is a list in words. Player names stay plain `str`: they are never translated."""
from __future__ import annotations

import string

NAME = "name"  # the context of a printed name from the game's data


class _Lenient(dict):
    """A format mapping that shows a missing field as '?'."""

    def __missing__(self, key):
        return "?"


def fill(template: str, params: dict) -> str:
    """`template` with its `{fields}` filled from `params` (a missing field shows '?')."""
    return string.Formatter().vformat(template, (), _Lenient(params))


class Text(str):
    """An English text and what made it: `template` and `params` (with `plural` and `n` for a count, or the gettext
    `context` of the template), or `parts` joined by `sep`, or a data name (`context` NAME)."""

    def __new__(cls, english: str, template=None, params=None, plural=None, n=None, context=None, parts=None,
                sep=None):
        obj = super().__new__(cls, english)
        obj.template, obj.params, obj.plural, obj.n = template, params or {}, plural, n
        obj.context, obj.parts, obj.sep = context, parts, sep
        return obj

    def __reduce__(self):
        return _restore, (str(self), self.template, self.params, self.plural, self.n, self.context, self.parts,
                          self.sep)


def _restore(*args) -> Text:
    return Text(*args)


def N_(template: str) -> str:
    """Marks a template kept in a table for extraction; it is formatted later with `T`."""
    return template


def NP_(singular: str, plural: str) -> tuple:
    """Marks a (singular, plural) pair kept in a table for extraction; it is said later with `NT`."""
    return singular, plural


def NC_(context: str, template: str) -> tuple:
    """Marks a (context, template) pair kept in a table for extraction; it is said later with `TC`."""
    return context, template


def T(template: str, **params) -> Text:
    """The English `template` filled with `params`, translatable (params that are Text are translated too)."""
    return Text(fill(template, params), template, params)


def TC(context: str, template: str, **params) -> Text:
    """Like `T`, translated in `context` (the same English word may read differently elsewhere)."""
    return Text(fill(template, params), template, params, context=context)


def NT(singular: str, plural: str, n, **params) -> Text:
    """A sentence with a count `n` (also a param): the singular template when n == 1, else the plural."""
    params = {"n": n, **params}
    chosen = singular if n == 1 and not isinstance(n, bool) else plural
    return Text(fill(chosen, params), singular, params, plural, n)


def name(printed, kind: str | None = None) -> Text:
    """A printed name from the game's data (a card, a building, an order), translated from the names JSON under
    `printed`, or under `kind:printed` when the same English word needs another form there (a drive's colour)."""
    return Text(str(printed), template=kind, context=NAME)


def name_key(text: Text) -> str:
    """The names JSON key of a printed name (`red`, `drive:red`)."""
    return f"{text.template}:{text}" if text.template else str(text)


def joined(items, sep=", ", empty=None) -> Text:
    """Items in words joined by `sep` (a Text like T(" and ") is translated); `empty` when there is none."""
    items = list(items)
    if not items and empty is not None:
        return empty if isinstance(empty, Text) else Text(str(empty))
    return Text(str(sep).join(str(i) for i in items), parts=items, sep=sep)


def in_order(mapping, first=()) -> list:
    """`mapping`'s (key, value) pairs in a fixed order: the keys of `first` as listed, then the others sorted.
    Never the dict's own order: a state folded live and one read back from storage build their dicts in
    different orders, and the same event must read the same in any process."""
    mapping = mapping or {}
    listed = [k for k in first if k in mapping]
    rest = sorted((k for k in mapping if k not in listed), key=str)
    return [(k, mapping[k]) for k in listed + rest]
