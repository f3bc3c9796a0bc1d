"""How the table kit and the games' drawings speak the page's language without knowing the web: hooks that speak
English until the web app installs its own once at start (service/web/app.py `create_app` calls
service/web/boards/__init__.py `speak_page_language`).

say(value) -> str                     a game's `Text` (domain/engine/text.py) in the page's language
language() -> str                     the page's language code ("en" outside a page)
gettext(string) -> str                a board word in the page's language (the web's `messages` catalogue)
pgettext(context, string) -> str      the same, with a gettext context"""
from __future__ import annotations

from types import SimpleNamespace

ENGLISH = SimpleNamespace(say=str, language=lambda: "en", gettext=lambda string: string,
                          pgettext=lambda context, string: string)
_voice = SimpleNamespace(**vars(ENGLISH))


def install(say, language, gettext, pgettext) -> None:
    """Speak the page's language from now on (each argument as in the module docstring)."""
    _voice.say, _voice.language, _voice.gettext, _voice.pgettext = say, language, gettext, pgettext


def say(value) -> str:
    """A game's Text (or any value) in the page's language."""
    return _voice.say(value)


def language() -> str:
    """The page's language code."""
    return _voice.language()


def gettext(string: str, **variables) -> str:
    """A marked board word in the page's language, `%(name)s` filled from `variables`."""
    said = _voice.gettext(string)
    return said % variables if variables else said


def pgettext(context: str, string: str, **variables) -> str:
    """A marked board word in its gettext context, in the page's language, `%(name)s` filled from `variables`."""
    said = _voice.pgettext(context, string)
    return said % variables if variables else said


class LazyWord:
    """A marked word said in the page's language each time it is shown (for tables built at import)."""

    __slots__ = ("string",)

    def __init__(self, string: str):
        self.string = string

    def __str__(self) -> str:
        return gettext(self.string)

    def __repr__(self) -> str:
        return f"LazyWord({self.string!r})"


def lazy_gettext(string: str) -> LazyWord:
    """A marked word kept in a table and said when shown."""
    return LazyWord(string)
