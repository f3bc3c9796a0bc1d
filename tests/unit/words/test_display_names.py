"""Display names: trimmed, 1 to 40 characters, no control or invisible characters; emoji and joiners kept."""
from __future__ import annotations

import pytest

from service.app.display_names import display_name


@pytest.mark.parametrize("raw, stored", [("  bob  ", "bob"), ("Ann", "Ann"), ("👩\u200d💻 dev", "👩\u200d💻 dev"),
                                         ("زه\u200cرا", "زه\u200cرا"), ("x" * 40, "x" * 40), ("Zoë Ørsted", "Zoë Ørsted")])
def test_names_kept(raw, stored):
    assert display_name(raw) == stored


@pytest.mark.parametrize("raw, says", [("", "1 to 40"), ("   ", "1 to 40"), ("\t\n", "1 to 40"), ("x" * 41, "1 to 40"),
                                       ("a\x00b", "U+0000"), ("a\x1bb", "U+001B"), ("a\u202egnp.exe", "U+202E"),
                                       ("x\u200by", "U+200B"), ("a\u2028b", "U+2028"), ("a\x85b", "U+0085")])
def test_names_refused_say_why(raw, says):
    with pytest.raises(ValueError, match=says.replace("+", r"\+")):
        display_name(raw)
