"""No pill, token or label of the ti4-exploration map covers a system's name, in English or Russian: boxes estimated
from the drawn SVG (text widths as the table kit's placer estimates them), for the current version; the check finds
the ground-force pill the 2026.11 drawing put on «Сейбл» (Sable) under Ysolde I."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from contextlib import contextmanager

import pytest
from flask import Flask
from flask_babel import Babel

from domain.games.ti4_exploration import GAME
from domain.table import speech
from domain.table.placer import text_box
from service.web.boards import speak_page_language
from service.web.i18n import TRANSLATIONS
from tests.unit.ti4_exploration.ti4_kit import P1, P2, P3, control, fresh, place

SVG = "{http://www.w3.org/2000/svg}"
TOUCH = 1.5  # px two boxes may share each way and still read apart (as the browser layout check allows)
OLD = "2026.11"


@pytest.fixture(scope="module")
def app():
    """A bare Flask app with the service's catalogues; the table kit speaks English again afterwards."""
    flask_app = Flask(__name__)
    Babel(flask_app, locale_selector=lambda: flask_app.config["LANG"],
          default_translation_directories=str(TRANSLATIONS))
    speak_page_language()
    yield flask_app
    speech.install(**vars(speech.ENGLISH))


@contextmanager
def spoken(app, lang: str):
    """A request in `lang`, so boards and game words speak it."""
    app.config["LANG"] = lang
    with app.test_request_context(headers={"Accept-Language": lang}):
        yield


def _ysolde_held_by_seat_three() -> dict:
    """The reported match: the third seat's (▲) ground forces on Ysolde I, just above Sable."""
    return control(fresh(3), P3, "ysolde-i", forces=3)


def _every_planet_held() -> dict:
    """Every planet held by one of three players with ground forces, a fleet in every system."""
    st = fresh(3)
    for i, planet in enumerate(sorted(st["planets"])):
        control(st, (P1, P2, P3)[i % 3], planet, forces=1 + i % 12)
    for i, system in enumerate(sorted(st["systems"])):
        place(st, (P1, P2, P3)[i % 3], system, ships=2, forces=i % 5)
    return st


def _invasions() -> dict:
    """Two players' ground forces on each planet of the three-planet systems (mid-invasion)."""
    st = _every_planet_held()
    for planet in ("ysolde-i", "ysolde-ii", "ysolde-iii", "brannoc-i", "brannoc-ii", "brannoc-iii"):
        st["planets"][planet]["ground_forces"] = {P1: 2, P3: 11}
    return st


def _box(el) -> tuple | None:
    """The box of a drawn text or marker shape (None for anything else)."""
    tag = el.tag.removeprefix(SVG)
    if tag == "text":
        x, y, size = float(el.get("x")), float(el.get("y")), float(el.get("font-size"))
        return text_box(x, y, el.text or "", size, el.get("text-anchor"), pad=0)
    if tag == "rect" and el.get("data-mark") is not None:
        x, y = float(el.get("x")), float(el.get("y"))
        return x, y, x + float(el.get("width")), y + float(el.get("height"))
    if tag == "circle" and el.get("data-mark") is not None:
        cx, cy, r = float(el.get("cx")), float(el.get("cy")), float(el.get("r"))
        return cx - r, cy - r, cx + r, cy + r
    return None


def _covers(a: tuple, b: tuple) -> bool:
    """Whether two boxes share more than TOUCH px both ways."""
    return min(a[2], b[2]) - max(a[0], b[0]) > TOUCH and min(a[3], b[3]) - max(a[1], b[1]) > TOUCH


def name_overlaps(board_html: str) -> list:
    """(system name, what covers it) for every text or marker outside a system's own group that covers its name."""
    svg = ET.fromstring(board_html).find(f".//{SVG}svg")
    shown = [(g, el, _box(el)) for g in svg.iter(f"{SVG}g") for el in g if _box(el)]
    found = []
    for system in (g for g in svg.iter(f"{SVG}g") if (g.get("data-place") or "").startswith("system:")):
        name = system.find(f"{SVG}text")
        found += [(name.text, el.text or g.findtext(f"{SVG}title")) for g, el, box in shown
                  if g is not system and _covers(_box(name), box)]
    return found

def _drawn(app, version: str, lang: str, state: dict) -> str:
    """The board of `state` drawn by `version`'s own drawing, in `lang`, as the third seat sees it."""
    game = GAME.at(version)
    with spoken(app, lang):
        return game.table.board.render_board(game.view(state, P3), P3)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("state", [_ysolde_held_by_seat_three, _every_planet_held, _invasions])
def test_no_marker_or_label_covers_a_system_name(app, lang, state):
    assert name_overlaps(_drawn(app, GAME.rules_versions[-1], lang, state())) == []


@pytest.mark.parametrize("lang, name", [("en", "Sable"), ("ru", "Сейбл")])
def test_the_check_finds_the_pill_the_old_drawing_put_on_sable(app, lang, name):
    """The frozen 2026.11 drawing drew Ysolde I's ground forces (▲3) over the name of Sable, the system below."""
    assert (name, "▲3") in name_overlaps(_drawn(app, OLD, lang, _ysolde_held_by_seat_three()))
