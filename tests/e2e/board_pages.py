"""Boards of every game drawn from random playouts into a static page with the match page's CSS and board.js,
for the browser layout tests: no label covers another label, a square or a marker; no text leaves its picture;
nothing scrolls sideways."""
from __future__ import annotations

import random
from pathlib import Path

from flask import Flask
from flask_babel import Babel

from domain.games import load_games
from service.web.actions import actions
from service.web.boards import render_board, speak_page_language
from service.web.i18n import TRANSLATIONS
from tests.gamekit import apply_all, start

STATIC = Path(__file__).resolve().parents[2] / "service" / "web" / "static"
GAMES = load_games()
PLAYERS = ["u_4f1ab2", "u_9c0de7", "u_77aa01"]
NAMES = {"u_4f1ab2": "Ann", "u_9c0de7": "bob the Builder", "u_77aa01": "Ёжик"}

# Every visible text of every board picture against every other and against every marker ([data-mark]) not
# of its own group; every text inside its picture (not cut); the page no wider than the window.
PROBLEMS = """() => {
  const out = [];
  const box = el => el.getBoundingClientRect();
  const cover = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1.5 &&
                          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1.5;
  const shown = el => { const r = box(el); return r.width > 0 && r.height > 0 &&
                        getComputedStyle(el).visibility !== 'hidden' && el.textContent.trim() !== ''; };
  const what = el => (el.textContent || el.tagName).trim().slice(0, 30);
  for (const svg of document.querySelectorAll('#board svg.board-svg')) {
    const texts = [...svg.querySelectorAll('text')].filter(shown);
    const marks = [...svg.querySelectorAll('[data-mark]')];
    const frame = box(svg);
    for (let i = 0; i < texts.length; i++) {
      const a = box(texts[i]);
      if (a.left < frame.left - 1 || a.right > frame.right + 1 || a.top < frame.top - 1 || a.bottom > frame.bottom + 1)
        out.push(['cut', what(texts[i])]);
      for (let j = i + 1; j < texts.length; j++)
        if (cover(a, box(texts[j]))) out.push(['text on text', what(texts[i]), what(texts[j])]);
      for (const m of marks)
        if (m.parentNode !== texts[i].parentNode && cover(a, box(m))) out.push(['text on marker', what(texts[i]), m.tagName + ' ' + what(m.parentNode)]);
    }
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > window.innerWidth) out.push(['page wider than the window', wide]);
  return out;
}"""


def _app() -> Flask:
    """A bare Flask app with the service's catalogues, to draw boards in a chosen language."""
    app = Flask(__name__)
    app.config["BABEL_DEFAULT_LOCALE"] = "en"
    Babel(app, locale_selector=lambda: app.config["LANG"], default_translation_directories=str(TRANSLATIONS))
    speak_page_language()
    return app


APP = _app()


def boards(game_id: str, lang: str = "en", seed: int = 3, steps: int = 60, every: int = 20, players: int = 2):
    """(label, board HTML) for the player to act at the start and every `every` steps of a random playout."""
    game = GAMES[game_id]
    seats = PLAYERS[:max(players, game.min_players)]
    chooser = random.Random(seed)
    state, _events, rng, _options = start(game, seats, seed=f"layout{seed}".encode())
    APP.config["LANG"] = lang
    for step in range(steps + 1):
        if game.result(state) is not None:
            break
        player = chooser.choice(sorted(game.active_players(state)))
        legal = game.legal_commands(state, player)
        if step % every == 0:
            view = game.view(state, player)
            with APP.test_request_context(headers={"Accept-Language": lang}):
                acts = actions(game, state, view, legal, NAMES)
                yield f"{game_id}-{lang}-step{step}", str(render_board(game, view, player, NAMES, acts))
        state = apply_all(game, state, game.decide(state, player, chooser.choice(legal), rng))


def page(board_html: str, lang: str = "en") -> str:
    """A static match-like page around one board: the service's CSS, board.js and the board column."""
    css = (STATIC / "style.css").read_text() + (STATIC / "board.css").read_text()
    script = (STATIC / "board.js").read_text()
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{css}</style></head>'
            f'<body><main><div class="match-layout"><div class="main-col"><section class="card board-card">'
            f'<div id="board" class="board" tabindex="0" role="region" aria-label="Board">{board_html}</div>'
            f'</section><section class="card" id="section-actions"></section></div><aside class="side-col">'
            f'<section class="card">log</section></aside></div></main>'
            f'<script>window.t = function (s) {{ return s; }};</script><script>{script}</script></body></html>')
