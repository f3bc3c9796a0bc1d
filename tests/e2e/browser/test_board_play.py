"""Each game played in the browser by two players in two contexts: >= 20 moves each, clicking the board's
places where the game has them (buttons otherwise, or when a place opens a choice), keyboard activation of a
place, no internal id in any button; screenshots at 1280 and 390 px and the smallest text measured."""
from __future__ import annotations

import json
import random
import re
import time

import pytest

from tests.e2e.processes import Api
from tests.e2e.browser_kit import ARTIFACTS, browser  # noqa: F401 (the module-scoped chromium fixture)

pytestmark = [pytest.mark.browser, pytest.mark.site(env={"TURNSTREAM_PUBLIC_URL": "http://127.0.0.1"})]
MOVES_EACH = 20
INTERNAL = re.compile(r"\b\w+_\w+\b|\b(true|false|null)\b|[{}\[\]\"]", re.I)
SMALLEST_TEXT = """() => { let m = 1e9; for (const t of document.querySelectorAll('#board svg text')) {
  const r = t.getBoundingClientRect(); if (!r.width) continue;
  const s = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a; if (s < m) m = s; } return m; }"""
BUTTON_TEXTS = """() => Array.from(document.querySelectorAll('#section-actions button, #board [role=button]'))
  .map(b => (b.textContent || '') + ' | ' + (b.getAttribute('aria-label') || ''))"""


class Seat:
    """One player: an API identity and a browser context signed in with its token."""

    def __init__(self, browser, base, name):
        status, me = Api(base).post("/api/users", {"name": name})
        assert status == 201, me
        self.id, self.token, self.name = me["id"], me["token"], name
        self.api = Api(base, self.token)
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.set_default_timeout(10000)
        self.page = self.context.new_page()
        self.page.goto(base + "/")
        self.page.fill("#signin-form input[name=token]", self.token)
        self.page.click("#signin-form button[type=submit]")
        self.moves = self.board_moves = 0

    def version(self) -> int:
        """The match version the page shows."""
        return int(self.page.get_attribute("[data-match-version]", "data-match-version"))


def _start_match(base, game, seats) -> str:
    """Create the match seating both players (accepting the invitation where the service asks for it)."""
    status, match = seats[0].api.post("/api/matches", {"game": game, "players": [s.id for s in seats]})
    assert status == 201, match
    for seat in seats[1:]:
        if match.get("status") != "active":
            seat.api.post(f"/api/matches/{match['id']}/accept")
    return match["id"]


def _wait_moved(seat, before: int) -> bool:
    """Wait until the page shows a newer version (True) or an error message (False)."""
    seat.page.wait_for_function(
        "v => parseInt(document.querySelector('[data-match-version]').dataset.matchVersion, 10) > v || "
        "(document.querySelector('#message.error') && !document.querySelector('#message').hidden)", arg=before)
    return seat.version() > before


def _act(seat, chooser: random.Random, use_keyboard: bool) -> bool:
    """One move on this seat's page: a board place when there is one, else a button. True when it moved."""
    page = seat.page
    for text in page.evaluate(BUTTON_TEXTS):
        assert INTERNAL.search(text) is None, f"internal id in {text!r}"
    before = seat.version()
    page.evaluate("() => { const m = document.querySelector('#message'); if (m) { m.hidden = true; "
                  "m.className = 'flash'; } }")
    places = page.locator("#board [role=button]")
    if places.count():
        place = places.nth(chooser.randrange(places.count()))
        shared = place.get_attribute("data-choice") is not None
        if use_keyboard:
            place.focus()
            page.keyboard.press("Enter")
        else:
            place.click()
        if shared:
            page.wait_for_selector("[data-action-filter]:not([hidden])")
            options = page.locator("#section-actions button.action:visible")
            assert options.count() > 1, "a shared place offers its choices"
            options.nth(chooser.randrange(options.count())).click()
        seat.board_moves += 1
    else:
        buttons = page.locator("#section-actions button.action")
        button = buttons.nth(chooser.randrange(buttons.count()))
        if not button.is_visible():  # a long group starts folded: open it as a person would
            button.locator("xpath=ancestor::details[1]/summary").click()
        button.click()
    if page.is_visible("#confirm-step"):  # a move that gives something up asks first, in the page
        page.click("#confirm-step [data-confirm-yes]")
    moved = _wait_moved(seat, before)
    seat.moves += moved
    return moved


def _to_move(seats, match_id):
    """(the seats whose page should act now, the match version) from the API; None once it is over."""
    status, match = seats[0].api.get(f"/api/matches/{match_id}")
    assert status == 200
    if match["status"] != "active":
        return None
    return [s for s in seats if s.id in match["active_players"]], match["version"]


def _screenshots_and_sizes(seat, game) -> dict:
    """Full-page PNGs at 1280 and 390 px; the smallest board text in CSS px at each width."""
    ARTIFACTS.mkdir(exist_ok=True)
    sizes = {}
    for width in (1280, 390):
        seat.page.set_viewport_size({"width": width, "height": 900})
        seat.page.wait_for_timeout(150)
        sizes[width] = round(seat.page.evaluate(SMALLEST_TEXT), 2)
        seat.page.screenshot(path=str(ARTIFACTS / f"board-{game}-{width}.png"), full_page=True)
    seat.page.set_viewport_size({"width": 1280, "height": 900})
    return sizes


@pytest.mark.parametrize("game", ["uchronia", "merchant-of-venus", "ti4-exploration", "origins"])
def test_two_players_play_by_clicking_the_board(browser, base, game):
    """Both players make >= 20 moves each, on the board where it has places; text stays >= 12 px."""
    started = time.monotonic()
    seats = [Seat(browser, base, "Ann"), Seat(browser, base, "Bob")]
    match_id = _start_match(base, game, seats)
    for seat in seats:
        seat.page.goto(f"{base}/matches/{match_id}")
        seat.page.wait_for_selector("#live-indicator.on")
    chooser = random.Random(game)
    keyboard_used = False
    rounds = 0
    # 20 moves each, and on until 20 were made on the board (a match's random flow may offer the board less
    # often early on; 18 of the first 40 once), within 160 moves
    while min(s.moves for s in seats) < MOVES_EACH or (sum(s.board_moves for s in seats) < MOVES_EACH
                                                       and sum(s.moves for s in seats) < 8 * MOVES_EACH):
        rounds += 1
        assert rounds < 400, "the match made no progress"
        now = _to_move(seats, match_id)
        if now is None:
            break
        active, version = now
        for seat in active:
            seat.page.wait_for_function(
                "v => parseInt(document.querySelector('[data-match-version]').dataset.matchVersion, 10) >= v",
                arg=version)
            version = 0
            use_keyboard = not keyboard_used and seat.page.locator("#board [data-command]").count() > 0
            if _act(seat, chooser, use_keyboard) and use_keyboard:
                keyboard_used = True
    assert all(s.moves >= MOVES_EACH for s in seats), [s.moves for s in seats]
    assert sum(s.board_moves for s in seats) >= MOVES_EACH, "20 moves were made on the board"
    assert keyboard_used, "Enter on a focused board place acts"
    sizes = _screenshots_and_sizes(seats[0], game)
    with open(ARTIFACTS / "board-text-sizes.txt", "a") as out:
        out.write(json.dumps({"game": game, "smallest_text_px": sizes, "moves": [s.moves for s in seats],
                              "board_moves": [s.board_moves for s in seats],
                              "seconds": round(time.monotonic() - started, 1)}) + "\n")
    assert min(sizes.values()) >= 12 - 0.05, sizes
    for seat in seats:
        seat.context.close()
