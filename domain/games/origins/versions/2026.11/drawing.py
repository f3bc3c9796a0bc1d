"""Origins: First Builders board as a list that reflows: status lines, a colour legend, the sites, dice rows,
market and tracks as titled parts, and each player's area with their city; small SVG pictures that wrap.
Its TABLE's `board` (table.py): render_board(view, viewer) and place_of(view, command), drawn with the table kit
(domain/table/); its glossary and words come from this package (text/glossary.json, WORDS)."""
from __future__ import annotations

from pathlib import Path

from domain.table import layout
from domain.table.glossary import Glossary
from domain.table.speech import gettext as _, lazy_gettext as _l
from domain.table.svgkit import block, e, ink, place, text
from domain.table.words import said, word as data_word

from . import command_text

GAME = "origins"
GLOSSARY = Path(__file__).resolve().parent / "text" / "glossary.json"  # its own folder (a frozen copy too)
TERMS = Glossary(GLOSSARY, f"/games/{GAME}/rules")
term, svg_term = TERMS.term, TERMS.svg_term
district_card_name, tile_name, words = (said(command_text.district_card_name), said(command_text.tile_name),
                                        said(command_text.words))
FILL = {"blue": "#3b6fd6", "orange": "#e8892b", "purple": "#8a4fc4", "red": "#d23c3c", "yellow": "#e6c229",
        "grey": "#9a9a9a", "farm": "#7fae55"}
# a colour's symbol besides the colour itself, the same in every language (the legend names them)
LETTER = {"blue": "✚", "orange": "✖", "purple": "✱", "red": "♥", "yellow": "★", "grey": "▬", "farm": "♣"}
PLAYER_MARK = ["#111111", "#f5f5f5", "#1f9e89", "#c2185b"]
SEAT_MARK = ["●", "■", "▲", "◆"]  # a seat's shape on its marker (its name is the marker's tooltip)
BONUS = {"bt_temple": "bonus: temple +1", "bt_build": "bonus: build", "bt_war": "bonus: war",
         "bt_orator": "bonus: orator die", "bt_resource": "bonus: resource"}
CELL = 56
STEP = 26  # a track cell's width
INK, MUTED = "#1a1a1a", "#4d4d4d"

WORDS = {  # words from the game's data the board shows in the page's language (others as they come)
    "yellow": _l("yellow"), "grey": _l("grey"), "red": _l("red"), "blue": _l("blue"), "orange": _l("orange"),
    "purple": _l("purple"), "farm": _l("farm"),
    "sea": _l("sea"), "forest": _l("forest"), "mountain": _l("mountain"),
    "bonus: temple +1": _l("bonus: temple +1"), "bonus: build": _l("bonus: build"), "bonus: war": _l("bonus: war"),
    "bonus: orator die": _l("bonus: orator die"), "bonus: resource": _l("bonus: resource"),
    "no bonus": _l("no bonus"),
}


def word(key) -> str:
    """A word from the game's data in the page's language (WORDS; anything else as it is)."""
    return data_word(WORDS, key)


def _rect(x, y, w, h, fill, stroke="#444", rx=3, extra=""):
    """A rectangle."""
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{e(fill)}" stroke="{stroke}" {extra}/>'


def _die(x, y, die, size=34, used=False):
    """A die: its colour, value and colour symbol (colour is never the only cue); None is an empty stand."""
    if not isinstance(die, dict):
        return _rect(x, y, size, size, "#ffffff", stroke="#888", extra='stroke-dasharray="3 2"')
    fill = FILL.get(die.get("colour"), "#cccccc")
    opacity = ' opacity="0.5"' if used else ""
    return (f'<g{opacity}>' + _rect(x, y, size, size, fill, stroke="#222", extra='data-mark=""') +
            text(x + size * 0.4, y + size * 0.62, die.get("value", "?"), 15, ink(fill), "middle", "bold") +
            text(x + size - 3, y + size - 3, LETTER.get(die.get("colour"), ""), 12, ink(fill), "end") + "</g>")


def _name_of(names, pid):
    """A player's display name (their id when unknown)."""
    return names.get(pid, pid) if isinstance(names, dict) else pid


def _sites(view) -> str:
    """The five sites, each a place of its own (a visit goes there)."""
    visit = view.get("visit") or {}
    out = []
    for sid, site in (view.get("sites") or {}).items():
        fill = FILL.get(site.get("colour"), "#cccccc")
        here = visit.get("site") == sid
        body = (_rect(2, 2, 146, 72, fill, stroke="#000" if here else "#444", extra='stroke-width="4"' if here else "")
                + text(10, 22, words(sid), 15, ink(fill), weight="bold")
                + text(10, 42, _("dial %(n)s", n=site.get("dial", "?")) + f" · {LETTER.get(site.get('colour'), '')}",
                       13, ink(fill))
                + svg_term("bonus", text(10, 62, word(BONUS.get(site.get("token"), "no bonus")), 13, ink(fill))))
        out.append(block(150, 76, words(sid), place(f"site:{sid}", words(sid), body)))
    return layout.section(term("sites") + " · " + term("dial"), layout.tiles(out))


def _die_slot(x, slot, caption: str, key: str, name: str) -> str:
    """One slot of a dice row (a place): the die and its caption."""
    slot = slot if isinstance(slot, dict) else {}
    body = (_rect(x + 1, 1, 46, 66, "#ffffff", stroke="#bbbbbb") + _die(x + 7, 6, slot.get("die"))
            + text(x + 24, 60, caption, 12, INK, "middle"))
    return place(key, name, body)


def _capital(words_: str) -> str:
    """Words with a capital first letter (a list item)."""
    return words_[:1].upper() + words_[1:]


def _rows(view) -> str:
    """The citizen row (with each slot's wisdom cost), the orator row and the district cards."""
    citizens = view.get("citizen_row") or []
    slots = [_die_slot(i * 50, slot, _("%(slot)s: %(cost)sw", slot=i + 1,
                                       cost=slot.get("cost", "?") if isinstance(slot, dict) else "?"),
                       f"citizen:{i + 1}", _("citizen slot %(n)s", n=i + 1)) for i, slot in enumerate(citizens)]
    orators = view.get("orator_row") or []
    oslots = [_die_slot(i * 50, slot, str(i + 1), f"orator:{i + 1}", _("orator slot %(n)s", n=i + 1))
              for i, slot in enumerate(orators)]
    cards = [e(_capital(district_card_name(c.get("id")))) + ": " + term("gold", _("%(n)s gold", n=c.get("gold", "?")))
             for c in view.get("district_cards") or []]
    body = (f'<div class="board-row"><span class="row-label">{term("citizen-row")}</span>'
            + (block(max(50 * len(slots), 50), 70, _("Citizen row"), "".join(slots)) if slots else "") + "</div>"
            + f'<div class="board-row"><span class="row-label">{term("orator-row")}</span>'
            + (block(max(50 * len(oslots), 50), 70, _("Orator row"), "".join(oslots)) if oslots else e(_("empty")))
            + "</div>" + f'<p class="row-label">{term("district-cards")}</p>'
            + "<ul>" + "".join(f"<li>{c}</li>" for c in cards) + "</ul>")
    return layout.section(e(_("Dice rows and district cards")), body)


def _market(view) -> str:
    """The market's building tiles, each with its wisdom and stone cost."""
    out = []
    for i, tile in enumerate(view.get("market") or []):
        if not isinstance(tile, dict):
            out.append(block(190, 50, _("empty"), _rect(1, 1, 188, 48, "#ffffff", stroke="#bbbbbb",
                                                         extra='stroke-dasharray="3 2"')))
            continue
        fill = FILL.get(tile.get("colour"), "#cccccc")
        name = tile_name(tile.get("tile", "?"))
        cost = _("%(w)s wisdom / %(s)s stone", w=tile.get("wisdom", "?"), s=tile.get("stone", "?"))
        out.append(block(190, 50, name, f"<g><title>{e(name)}</title>" + _rect(1, 1, 188, 48, fill)
                         + text(8, 21, f"{i + 1}. {name}"[:24], 14, ink(fill), weight="bold")
                         + text(8, 41, f"{cost} · {LETTER.get(tile.get('colour'), '')}", 12, ink(fill)) + "</g>"))
    title = term("market") + " " + e(_("(%(n)s tiles in the stack)", n=view.get("stack_count", "?")))
    return layout.section(title, layout.tiles(out))


def _marker(x, y, k, pid, r=8):
    """A player's marker: seat colour and shape, their name as its tooltip."""
    col = PLAYER_MARK[k % len(PLAYER_MARK)]
    return (f'<g><title>{e(pid)}</title><circle data-mark="" cx="{x}" cy="{y}" r="{r}" fill="{col}" stroke="#333"/>'
            + text(x, y + 4.5, SEAT_MARK[k % len(SEAT_MARK)], 12, ink(col), "middle", "bold") + "</g>")


def _track(key: str, n: int, values: list, seats: list, hot=()) -> str:
    """One track: numbered cells, then one row per player with their marker under their cell."""
    width, height = 4 + n * STEP, 26 + 20 * len(seats)
    body = [_rect(1, 1, width - 2, height - 2, "#ffffff", stroke="#999")]
    for pos in range(n):
        body.append(_rect(2 + pos * STEP, 2, STEP - 2, 22, "#f0d0d0" if pos in hot else "#eef3fb")
                    + text(2 + pos * STEP + (STEP - 2) / 2, 18, pos, 12, INK, "middle"))
    for k, (pid, value) in enumerate(zip(seats, values)):
        value = min(max(value if isinstance(value, int) else 0, 0), n - 1)
        body.append(_marker(2 + value * STEP + (STEP - 2) / 2, 36 + 20 * k, k, pid))
    return "".join(body), width, height


def _tracks(view, seats) -> str:
    """The three temples (places: a temple advance acts there) and the war track."""
    players = view.get("players") or {}
    counts = view.get("zodiac_deck_counts") or {}
    rows = []
    for t in ("sea", "forest", "mountain"):
        body, w, h = _track(t, 9, [((players.get(p) or {}).get("temples") or {}).get(t, 0) for p in seats], seats)
        label = _("the %(temple)s temple", temple=word(t))
        rows.append(f'<div class="board-row"><span class="row-label">{term("temple-" + t)} '
                    f'<span class="muted">({e(_("%(n)s cards", n=counts.get(t, "?")))})</span></span>'
                    + block(w, h, label, place(f"temple:{t}", label, body)) + "</div>")
    body, w, h = _track("war", 11, [(players.get(p) or {}).get("war", 0) for p in seats], seats, hot=(3, 6, 9))
    rows.append(f'<div class="board-row"><span class="row-label">{term("war")}</span>'
                + block(w, h, _("War track"), body) + "</div>")
    return layout.section(e(_("Temples (0-8) and the War track (0-10)")), "".join(rows))


def _below_right(anchor: str) -> str:
    """The cell whose corner a closed district's die covers (its label gives way to the die)."""
    rows, cols = "ABCDE", "12345"
    if len(anchor) < 2 or anchor[0] not in rows[:-1] or anchor[1:] not in cols[:-1]:
        return ""
    return rows[rows.index(anchor[0]) + 1] + cols[cols.index(anchor[1:]) + 1]


def _city(p, mine) -> str:
    """A player's 5×5 city: each cell a place of the owner's (building there), districts outlined."""
    out = []
    rows, cols = "ABCDE", "12345"
    x, y = 18, 18
    city = p.get("city") or {}
    under_die = {_below_right(str(d.get("anchor", ""))) for d in p.get("districts") or [] if isinstance(d, dict)}
    for r, row in enumerate(rows):
        out.append(text(x - 9, y + r * CELL + 33, row, 13, INK, "middle", "bold"))
        for c, col in enumerate(cols):
            cell = f"{row}{col}"
            entry = city.get(cell)
            cx, cy = x + c * CELL, y + r * CELL
            if not isinstance(entry, dict):
                body = _rect(cx, cy, CELL - 3, CELL - 3, "#fbfbf7", stroke="#cccccc", rx=2) + \
                    text(cx + 4, cy + 15, cell, 12, "#595959")
                name = _("%(cell)s (empty)", cell=cell)
            else:
                fill = FILL.get(entry.get("kind"), "#cccccc")
                label = _("Farm") if entry.get("kind") == "farm" else tile_name(entry.get("building", "?"))
                body = _rect(cx, cy, CELL - 3, CELL - 3, fill, rx=2) + \
                    ("" if cell in under_die else text(cx + 4, cy + 15, cell, 12, ink(fill)))
                for k, word in enumerate(label.split(" ")[:2]):
                    body += text(cx + CELL / 2 - 1.5, cy + 32 + 14 * k, word[:7], 12, ink(fill), "middle", "bold")
                name = f"{cell}: {label}"
            out.append(place(f"cell:{cell}", name, body) if mine else f"<g><title>{e(name)}</title>{body}</g>")
    for c, col in enumerate(cols):
        out.append(text(x + c * CELL + CELL / 2, y - 5, col, 13, INK, "middle", "bold"))
    for district in p.get("districts") or []:
        anchor = str(district.get("anchor", ""))
        if len(anchor) < 2 or anchor[0] not in rows or anchor[1:] not in cols:
            continue
        dx, dy = x + cols.index(anchor[1:]) * CELL, y + rows.index(anchor[0]) * CELL
        out.append(f'<rect x="{dx - 2}" y="{dy - 2}" width="{2 * CELL + 1}" height="{2 * CELL + 1}" fill="none" '
                   f'stroke="#000" stroke-width="4"/>')
        out.append(_die(dx + CELL - 15, dy + CELL - 15, district.get("die"), 28))
    return block(x + 5 * CELL + 2, y + 5 * CELL + 2, _("City"), "".join(out))


def _dice(dice: list, free: int, used=True) -> str:
    """A player's dice on their stands (used ones faded) and the free stands."""
    n = len(dice) + free
    body = [_die(2 + i * 40, 2, d, 34, used=bool(d.get("used")) if isinstance(d, dict) and used else False)
            for i, d in enumerate(dice)]
    body += [_die(2 + (len(dice) + i) * 40, 2, None, 34) for i in range(free)]
    return block(max(4 + 40 * n, 40), 38, _("dice"), "".join(body)) if n else f'<span class="muted">{e(_("none"))}</span>'


def _panel(view, pid, k, names, viewer) -> str:
    """One player's area: resources, score lines, dice, orators and their city."""
    p = (view.get("players") or {}).get(pid) or {}
    current = view.get("current") == pid and view.get("status") != "finished"
    passed = pid in (view.get("passed") or [])
    status = f' <span class="to-act-mark">▶ {e(_("to act"))}</span>' if current else \
        (f' <span class="muted">· {e(_("passed"))}</span>' if passed else "")
    res = p.get("resources") or {}
    zc = p.get("zodiac_count") or {}
    zodiac = p.get("zodiac")
    ztext = ", ".join(words(z.get("card")) for z in zodiac if isinstance(z, dict)) if isinstance(zodiac, list) else \
        " ".join(f"{word(t)} {n}" for t, n in zc.items())
    free = p.get("free_stands", 0) if isinstance(p.get("free_stands"), int) else 0
    rows = [f"{term('stone')} {e(res.get('stone', 0))} · {term('food')} {e(res.get('food', 0))} · "
            f"{term('wisdom')} {e(res.get('wisdom', 0))}",
            f"{term('vp')} {e(p.get('vp', 0))} · {term('gold')} {e(p.get('gold', 0))} · "
            f"{term('war')} {e(p.get('war', 0))} · {term('archon')} "
            + e(_("used") if p.get("archon_used") else _("ready")) + (" · " + e(_("attacked")) if p.get("attacked") else ""),
            f"{term('zodiac')}: {e(ztext or _('none'))}"]
    body = ("<ul>" + "".join(f"<li>{r}</li>" for r in rows) + "</ul>"
            + f'<div class="board-row"><span class="row-label">{term("stands")}</span>'
            + _dice(p.get("dice") or [], free) + "</div>"
            + f'<div class="board-row"><span class="row-label">{term("orators")}</span>'
            + _dice((p.get("orator_dice") or [])[:3], 0, used=False) + "</div>"
            + _city(p, mine=pid == viewer))
    title = _marker_swatch(k) + " " + e(_name_of(names, pid)) + status
    return layout.section(title, body, "board-part" + (" to-act" if current else ""))


def _marker_swatch(k: int) -> str:
    """A player's marker colour and seat shape, as in the tracks."""
    return layout.swatch(PLAYER_MARK[k % len(PLAYER_MARK)], SEAT_MARK[k % len(SEAT_MARK)], True)


def _legend() -> str:
    """The legend of the colours and their symbols."""
    items = [layout.swatch(FILL[c], letter) + " " + e(word(c)) for c, letter in LETTER.items()]
    return layout.legend(_("Colours"), items)


def place_of(view: dict, command: dict):
    """(place key, payload field) of the site, cell, dice slot or temple a command names."""
    t, p = command["type"], command.get("payload") or {}
    if t == "visit":
        return f"site:{p['site']}", "site"
    if t in ("build", "bonus_build"):
        return f"cell:{p['cell']}", "cell"
    if t == "close_district":
        return f"cell:{p['anchor']}", "anchor"
    if t == "take_citizen_die":
        return f"citizen:{p['slot']}", "slot"
    if t == "bonus_orator":
        return f"orator:{p['slot']}", "slot"
    if t in ("advance_temple", "bonus_temple"):
        return f"temple:{p['temple']}", "temple"
    return None


def _render(view, viewer, names):
    """The board of a view as HTML parts."""
    seats = list(view.get("seats") or (view.get("players") or {}).keys())
    current = view.get("current")
    head = _("Round %(round)s of %(rounds)s", round=view.get("round", "?"), rounds=view.get("max_rounds", "?"))
    lines = [f"<strong>{e(head)}</strong>"]
    if view.get("status") == "finished":
        winners = ", ".join(_name_of(names, w) for w in ((view.get("result") or {}).get("winners") or []))
        lines.append('<strong class="board-end">' + e(_("Finished, winner: %(names)s", names=winners)) + "</strong>")
    elif current:
        lines.append(e(_("%(player)s to act", player=_name_of(names, current))))
    panels = [_panel(view, pid, k, names, viewer) for k, pid in enumerate(seats)]
    return layout.board_set(GAME, "list", _("Origins board"),
                            [layout.lines(lines), _legend(), _sites(view), _rows(view), _market(view),
                             _tracks(view, seats), '<div class="board-parts">' + "".join(panels) + "</div>"])


def render_board(view: dict, viewer) -> str:
    """The board as HTML that reflows (sites, dice rows, market, temples, war track, every city) from a view."""
    try:
        return _render(view if isinstance(view, dict) else {}, viewer, {})
    except Exception:  # the board must never break a page; fall back to a plain notice
        return layout.board_set(GAME, "list", _("Origins board"),
                                [layout.lines([e(_("Origins board unavailable for this view."))])])
