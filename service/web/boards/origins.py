"""Origins: First Builders board: an inline SVG drawn from a player's (or spectator's) view dict, with a legend,
full building names and every place a command names labelled."""
from __future__ import annotations

from domain.games.origins.command_text import district_card_name, tile_name, words

from service.web.boards.svgkit import e, ink, place, seat_letter, svg_root, text

FILL = {"blue": "#3b6fd6", "orange": "#e8892b", "purple": "#8a4fc4", "red": "#d23c3c", "yellow": "#e6c229",
        "grey": "#9a9a9a", "farm": "#7fae55"}
LETTER = {"blue": "b", "orange": "o", "purple": "p", "red": "r", "yellow": "y", "grey": "g", "farm": "f"}
PLAYER_MARK = ["#111111", "#f5f5f5", "#1f9e89", "#c2185b"]
BONUS = {"bt_temple": "bonus: temple +1", "bt_build": "bonus: build", "bt_war": "bonus: war",
         "bt_orator": "bonus: orator die", "bt_resource": "bonus: resource"}
W = 800
CELL = 62
INK, MUTED = "#1a1a1a", "#4d4d4d"


def _rect(x, y, w, h, fill, stroke="#444", rx=3, extra=""):
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{e(fill)}" stroke="{stroke}" {extra}/>'


def _die(x, y, die, size=34, used=False):
    """A die: its colour, value and colour letter (colour is never the only cue); None is an empty stand."""
    if not isinstance(die, dict):
        return _rect(x, y, size, size, "#ffffff", stroke="#888", extra='stroke-dasharray="3 2"')
    fill = FILL.get(die.get("colour"), "#cccccc")
    opacity = ' opacity="0.5"' if used else ""
    return (f'<g{opacity}>' + _rect(x, y, size, size, fill, stroke="#222") +
            text(x + size / 2, y + size * 0.58, die.get("value", "?"), 15, ink(fill), "middle", "bold") +
            text(x + size - 3, y + size - 3, LETTER.get(die.get("colour"), ""), 12, ink(fill), "end") + "</g>")


def _name_of(names, pid):
    return names.get(pid, pid) if isinstance(names, dict) else pid


def _sites(view, y):
    out = [text(10, y - 8, "Sites: visit with a die (dial = its cost)", 14, INK, weight="bold")]
    visit = view.get("visit") or {}
    for i, (sid, site) in enumerate((view.get("sites") or {}).items()):
        x = 10 + i * 157
        fill = FILL.get(site.get("colour"), "#cccccc")
        here = visit.get("site") == sid
        body = (_rect(x, y, 150, 72, fill, stroke="#000" if here else "#444",
                      extra='stroke-width="4"' if here else "")
                + text(x + 8, y + 20, words(sid), 15, ink(fill), weight="bold")
                + text(x + 8, y + 40, f"dial {site.get('dial', '?')} · {LETTER.get(site.get('colour'), '')}", 13,
                       ink(fill))
                + text(x + 8, y + 60, BONUS.get(site.get("token"), "no bonus"), 13, ink(fill)))
        out.append(place(f"site:{sid}", f"the {words(sid)}", body))
    return out, y + 84


def _die_slot(x, y, slot, caption: str, key: str, name: str) -> str:
    """One slot of a dice row (a place): the die and its caption."""
    slot = slot if isinstance(slot, dict) else {}
    body = (_rect(x - 3, y + 17, 46, 66, "#ffffff", stroke="#bbbbbb") + _die(x + 3, y + 22, slot.get("die"))
            + text(x + 20, y + 76, caption, 12, INK, "middle"))
    return place(key, name, body)


def _rows(view, y):
    out = [text(10, y + 10, "Citizen row (slot, wisdom cost)", 14, INK, weight="bold")]
    for i, slot in enumerate(view.get("citizen_row") or []):
        cost = slot.get("cost", "?") if isinstance(slot, dict) else "?"
        out.append(_die_slot(10 + i * 50, y, slot, f"{i + 1}: {cost}w", f"citizen:{i + 1}", f"citizen slot {i + 1}"))
    out.append(text(290, y + 10, "Orator row", 14, INK, weight="bold"))
    for i, slot in enumerate(view.get("orator_row") or []):
        out.append(_die_slot(290 + i * 50, y, slot, f"slot {i + 1}", f"orator:{i + 1}", f"orator slot {i + 1}"))
    out.append(text(420, y + 10, "District cards", 14, INK, weight="bold"))
    for i, card in enumerate(view.get("district_cards") or []):
        name = district_card_name(card.get("id"))
        out.append(_rect(420, y + 18 + i * 22, 370, 20, "#f3ead2") +
                   text(428, y + 33 + i * 22, f"{name[4:].capitalize()}: {card.get('gold', '?')} gold", 13, INK))
    return out, y + 92


def _market(view, y):
    out = [text(10, y - 8, f"Market ({view.get('stack_count', '?')} tiles in the stack): cost wisdom / stone",
                14, INK, weight="bold")]
    for i, tile in enumerate(view.get("market") or []):
        x = 10 + i * 197
        if not isinstance(tile, dict):
            out.append(_rect(x, y, 190, 48, "#ffffff", stroke="#bbbbbb", extra='stroke-dasharray="3 2"'))
            continue
        fill = FILL.get(tile.get("colour"), "#cccccc")
        out.append(f'<g><title>{e(tile_name(tile.get("tile", "?")))}</title>' + _rect(x, y, 190, 48, fill)
                   + text(x + 8, y + 20, f"{i + 1}. {tile_name(tile.get('tile', '?'))}", 15, ink(fill), weight="bold")
                   + text(x + 8, y + 40, f"{tile.get('wisdom', '?')} wisdom / {tile.get('stone', '?')} stone · "
                                         f"{LETTER.get(tile.get('colour'), '')}", 13, ink(fill)) + "</g>")
    return out, y + 60


def _marker(x, y, k, pid, r=9):
    col = PLAYER_MARK[k % len(PLAYER_MARK)]
    return (f'<g><title>{e(pid)}</title><circle cx="{x}" cy="{y}" r="{r}" fill="{col}" stroke="#333"/>'
            + text(x, y + 4.5, seat_letter(k), 12, ink(col), "middle", "bold") + "</g>")


def _tracks(view, seats, y):
    players = view.get("players") or {}
    counts = view.get("zodiac_deck_counts") or {}
    out = [text(10, y - 8, "Temples (0-8) and the War track (0-10)", 14, INK, weight="bold")]
    rows = [(f"{t} ({counts.get(t, '?')} cards)", 9, lambda p, t=t: ((p.get("temples") or {}).get(t, 0)), t)
            for t in ("sea", "forest", "mountain")]
    rows.append(("War track", 11, lambda p: p.get("war", 0), "war"))
    for r_i, (label, n, value_of, key) in enumerate(rows):
        ty = y + r_i * 40
        caption = _rect(6, ty - 2, 140, 30, "#ffffff", stroke="#dddddd") + text(10, ty + 18, label, 13, INK)
        out.append(caption if key == "war" else place(f"temple:{key}", f"the {key} temple", caption))
        for pos in range(n):
            hot = key == "war" and pos in (3, 6, 9)
            out.append(_rect(150 + pos * 54, ty, 52, 26, "#f0d0d0" if hot else "#eef3fb")
                       + text(150 + pos * 54 + 8, ty + 18, pos, 12, INK))
        for k, pid in enumerate(seats):
            value = value_of(players.get(pid) or {})
            value = value if isinstance(value, int) else 0
            # right of the cell's number, two per row (one row for two players): none covers a number or another
            x0 = 150 + value * 54
            if len(seats) <= 2:
                out.append(_marker(x0 + 25 + k * 18, ty + 13, k, pid, r=8))
            else:
                out.append(_marker(x0 + 23 + (k % 2) * 16, ty + 7 + (k // 2) * 12, k, pid, r=7))
    return out, y + 40 * len(rows) + 8


def _city(p, x, y, mine):
    out = []
    rows, cols = "ABCDE", "12345"
    city = p.get("city") or {}
    for r, row in enumerate(rows):
        out.append(text(x - 12, y + r * CELL + 36, row, 13, INK, "middle", "bold"))
        for c, col in enumerate(cols):
            cell = f"{row}{col}"
            entry = city.get(cell)
            cx, cy = x + c * CELL, y + r * CELL
            if not isinstance(entry, dict):
                body = _rect(cx, cy, CELL - 3, CELL - 3, "#fbfbf7", stroke="#cccccc", rx=2) + \
                    text(cx + 4, cy + 15, cell, 12, "#595959")
                name = f"{cell} (empty)"
            else:
                fill = FILL.get(entry.get("kind"), "#cccccc")
                label = "Farm" if entry.get("kind") == "farm" else tile_name(entry.get("building", "?"))
                body = _rect(cx, cy, CELL - 3, CELL - 3, fill, rx=2) + text(cx + 4, cy + 15, cell, 12, ink(fill))
                for k, word in enumerate(label.split(" ")[:2]):
                    body += text(cx + CELL / 2 - 1.5, cy + 34 + 14 * k, word, 12, ink(fill), "middle", "bold")
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
        out.append(_die(dx + CELL - 16, dy + CELL - 16, district.get("die"), 30))
    return out


def _panel(view, pid, k, names, x, y, viewer):
    p = (view.get("players") or {}).get(pid) or {}
    current = view.get("current") == pid
    passed = pid in (view.get("passed") or [])
    out = [_rect(x, y, 386, 500, "#fff7d6" if current else "#fafafa", stroke="#000" if current else "#999",
                 extra='stroke-width="3"' if current else "")]
    out.append(_marker(x + 16, y + 18, k, pid))
    status = " - to act" if current else (" - passed" if passed else "")
    out.append(text(x + 32, y + 24, f"{_name_of(names, pid)}{status}", 16, INK, weight="bold"))
    res = p.get("resources") or {}
    out.append(text(x + 10, y + 46, f"stone {res.get('stone', 0)} · food {res.get('food', 0)} · "
                                    f"wisdom {res.get('wisdom', 0)}", 14, INK))
    out.append(text(x + 10, y + 66, f"VP {p.get('vp', 0)} · gold {p.get('gold', 0)} · war {p.get('war', 0)} · "
                                    f"Archon {'used' if p.get('archon_used') else 'ready'}"
                                    f"{' · attacked' if p.get('attacked') else ''}", 14, INK))
    zc = p.get("zodiac_count") or {}
    zodiac = p.get("zodiac")
    ztext = ", ".join(str(z.get("card")) for z in zodiac if isinstance(z, dict)) if isinstance(zodiac, list) else \
        " ".join(f"{t} {n}" for t, n in zc.items())
    out.append(text(x + 10, y + 86, f"zodiac: {ztext or 'none'}"[:48], 13, INK))
    out.append(text(x + 10, y + 114, "stands", 13, INK))
    dice = p.get("dice") or []
    for i, d in enumerate(dice):
        out.append(_die(x + 60 + i * 40, y + 94, d, 34, used=bool(d.get("used")) if isinstance(d, dict) else False))
    for i in range(p.get("free_stands", 0) if isinstance(p.get("free_stands"), int) else 0):
        out.append(_die(x + 60 + (len(dice) + i) * 40, y + 94, None, 34))
    out.append(text(x + 232, y + 114, "orators", 13, INK))
    for i, d in enumerate((p.get("orator_dice") or [])[:3]):
        out.append(_die(x + 290 + i * 32, y + 96, d, 30))
    out.extend(_city(p, x + 34, y + 150, mine=pid == viewer))
    return out


def _legend(y):
    out = [text(10, y, "Colours:", 13, INK, weight="bold")]
    x = 80
    for colour, letter in LETTER.items():
        fill = FILL[colour]
        out.append(_rect(x, y - 14, 20, 20, fill) + text(x + 10, y + 1, letter, 12, ink(fill), "middle", "bold")
                   + text(x + 24, y, colour, 13, INK))
        x += 34 + 8 * len(colour)
    return out


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
    seats = list(view.get("seats") or (view.get("players") or {}).keys())
    current = view.get("current")
    head = f"Origins - round {view.get('round', '?')} of {view.get('max_rounds', '?')}"
    if view.get("status") == "finished":
        winners = ", ".join(_name_of(names, w) for w in ((view.get("result") or {}).get("winners") or []))
        head += f" - finished, winner: {winners}"
    elif current:
        head += f" - {_name_of(names, current)} to act"
    out = [text(10, 24, head, 17, INK, weight="bold"),
           text(W - 10, 24, f"viewing as {viewer if viewer else 'spectator'}", 13, INK, "end")]
    out += _legend(50)
    part, y = _sites(view, 84)
    out += part
    part, y = _rows(view, y)
    out += part
    part, y = _market(view, y + 16)
    out += part
    part, y = _tracks(view, seats, y + 20)
    out += part
    for k, pid in enumerate(seats):
        out += _panel(view, pid, k, names, 10 + (k % 2) * 394, y + (k // 2) * 508, viewer)
    height = y + 508 * ((len(seats) + 1) // 2) + 4
    players = view.get("players") or {}
    scores = ", ".join(f"{_name_of(names, p)} {(players.get(p) or {}).get('vp', 0)} VP" for p in seats)
    summary = f"{head}. Scores: {scores or 'none'}."
    return svg_root(W, height, "Origins board", summary, False,
                    _rect(0, 0, W, height, "#ffffff", stroke="none", rx=0) + "".join(out))


def render_board(view: dict, viewer) -> str:
    """An inline SVG of the board (sites, dice rows, market, temples, war track, every city) from a view."""
    try:
        return _render(view if isinstance(view, dict) else {}, viewer, {})
    except Exception:  # the board must never break a page; fall back to a plain notice
        return svg_root(400, 40, "Origins board", "Origins board unavailable for this view.", False,
                        text(10, 24, "Origins board unavailable for this view.", 13))
