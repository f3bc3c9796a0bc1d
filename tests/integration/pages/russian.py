"""Reading a page as a Russian visitor does: the request headers that ask for Russian, and the English words
left on a page that should have none."""
from __future__ import annotations

import re
from html.parser import HTMLParser

RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.4"}
EN = {"Accept-Language": "en"}
CYRILLIC = re.compile(r"[а-яё]", re.I)

INLINE = {"a", "abbr", "b", "bdi", "code", "em", "i", "kbd", "label", "small", "span", "strong", "sub", "sup", "time"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SKIPPED = {"script", "style", "code", "pre", "template"}  # not words to read, or code and ids shown as written
SAID = ("title", "aria-label", "placeholder", "alt")  # attributes a person reads (or hears)
NOT_WORDS = re.compile(r"\S+@\S+|\S*/\S*")  # addresses and paths are written as they are
ALLOWED = {"turnstream", "API", "JSON", "UTC", "openskill"}  # names kept in Latin letters in Russian too


class Visible(HTMLParser):
    """The words a person reads on a page: its text and spoken attributes, outside scripts, code, the page's
    <head>, and elements in another language (lang="en") or not to be translated (translate="no")."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list = []  # (tag, skips) of the open elements
        self.words: list = []

    def skipping(self) -> bool:
        return any(skips for _tag, skips in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skips = tag in SKIPPED or tag == "head" or attrs.get("lang", "ru") != "ru" or attrs.get("translate") == "no"
        if not self.skipping() and not skips and not (tag == "input" and attrs.get("type") == "hidden"):
            self.words += [" " + attrs[name] + " " for name in SAID if attrs.get(name)]
            if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.words.append(" " + attrs["value"] + " ")
        if tag not in VOID:
            self.stack.append((tag, skips))
        if tag not in INLINE:
            self.words.append(" ")

    def handle_endtag(self, tag):
        while self.stack:  # close up to the matching element (a forgiving parser, as browsers are)
            if self.stack.pop()[0] == tag:
                break
        if tag not in INLINE:
            self.words.append(" ")

    def handle_data(self, data):
        if not self.skipping():
            self.words.append(data)


def english_words(html: str) -> list:
    """The Latin-letter words a person reads on a page, other than those kept in Latin letters in Russian."""
    reader = Visible()
    reader.feed(html)
    text = NOT_WORDS.sub(" ", "".join(reader.words))
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text) if w not in ALLOWED})
