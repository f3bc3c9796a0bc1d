"""Renders a Merchant of Venus view: header lines and a legend that wrap, the labelled map in a frame that pans
(opening on the viewer's ship), and a card per player. Labels are placed so that none covers another.
Its TABLE's `board` (table.py): render_board(view, viewer) and place_of(view, command), drawn with the table kit
(domain/table/); its glossary and words come from this package (text/glossary.json, WORDS)."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from domain.table import layout
from domain.table.glossary import Glossary, language
from domain.table.placer import Placer, text_box
from domain.table.speech import gettext as _, lazy_gettext as _l, pgettext
from domain.table.svgkit import e, hit_box, ink, mine_anchor, place, svg_root, text
from domain.table.words import said, say_name, word as data_word

from . import command_text, data

GAME = "merchant-of-venus"
GLOSSARY = Path(__file__).resolve().parent / "text" / "glossary.json"  # its own folder (a frozen copy too)
TERMS = Glossary(GLOSSARY, f"/games/{GAME}/rules")
term, svg_term = TERMS.term, TERMS.svg_term
culture_name, item_name, square_name = (said(command_text.culture_name), said(command_text.item_name),
                                        said(command_text.square_name))
SCALE, OX, OY = 39, 26, 44  # 39 px between neighbouring squares; every live square's target is 44 px
WIDTH, HEIGHT = int(OX + 18.8 * SCALE + 34), int(OY + 13.1 * SCALE + 40)
FILL = {"blue": "#4a78c2", "yellow": "#e8c531", "red": "#d9483b"}
PLAYER_COLORS = ["#ff9f43", "#4cd137", "#c56cf0", "#48dbfb", "#ff6b81", "#f5f6fa"]
BG, INK, MUTED, PANEL = "#0b1020", "#ffffff", "#c8cfdb", "#1d2433"
LABEL = "#e8ecf3"
KIND_FILL = {"base": "#dddddd", "city": "#8bd48b", "port": "#bbbbbb", "nav": "#333333", "telegate": "#6a1b9a"}
KIND_TERM = {"base": "galactic-base", "city": "city", "port": "spaceport", "nav": "navigation",
             "telegate": "telegate", "orbital": "orbital"}
# a square's mark besides its shape and colour: symbols, the same in every language (the legend names them)
_INNER = {"base": "★", "city": "⌂", "port": "⚓", "nav": "⊕"}
_COLOUR_MARK = {"yellow": "◆", "red": "▲"}
SHAPE_R = {"base": 15, "city": 13, "port": 11, "nav": 13, "telegate": 14, "orbital": 10, "space": 9}

WORDS = {  # words from the game's data the board shows in the page's language (others as they come)
    "yellow": _l("yellow"), "red": _l("red"), "blue": _l("blue"),
    "base": _l("Galactic Base"), "city": _l("city"), "port": _l("spaceport"), "nav": _l("navigation"),
    "telegate": _l("telegate"), "orbital": _l("orbital square"),
    "setup": _l("setup"), "declare": _l("declare"), "roll": _l("roll"), "move": _l("move"), "trade": _l("trade"),
    "ended": _l("ended"), "finished": _l("finished"),
}
SPACE = {"blue": _l("blue space"), "yellow": _l("yellow space"), "red": _l("red space")}  # a whole word each: its
# colour agrees with "space" (Russian "синяя клетка")


def word(key) -> str:
    """A word from the game's data in the page's language (WORDS; anything else as it is)."""
    return data_word(WORDS, key)


def credits(amount) -> str:
    """An amount of credits in the page's language ("c80"; Russian "80 кр")."""
    return _("c%(amount)s", amount=amount)


def hazard_mark(fee) -> str:
    """A hazard square's fee as drawn on the map ("!c20")."""
    return "!" + credits(fee)


def _xy(square: str) -> tuple[float, float]:
    """The map position of a square's centre."""
    sq = data.SQUARES.get(square)
    if not sq:
        return OX, OY
    return OX + (sq["x"] - 0.7) * SCALE, OY + (sq["y"] - 1.4) * SCALE


def _links() -> list[str]:
    """The links between squares (green ones cost 2 movement points)."""
    out = []
    for a, b, cost in data.RAW["links"]:
        (x1, y1), (x2, y2) = _xy(a), _xy(b)
        colour, width = ("#3ecf5a", 5) if cost == 2 else ("#7f8a99", 2)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                   f'stroke-width="{width}"/>')
    return out


def _shape(sid: str, sq: dict, x: float, y: float, spaceports: dict, colours: dict) -> str:
    """The square's own shape (the element a live place outlines is the hit ring before it)."""
    kind = sq["kind"]
    fill = FILL.get(sq["color"], "#4a78c2")
    mark = ' data-mark=""'
    if kind == "base":
        return f'<rect{mark} x="{x - 15:.1f}" y="{y - 15:.1f}" width="30" height="30" fill="#dddddd" stroke="#fff"/>'
    if kind == "city":
        return f'<circle{mark} cx="{x:.1f}" cy="{y:.1f}" r="13" fill="#8bd48b" stroke="#2e7d32" stroke-width="2"/>'
    if kind == "port":
        return f'<rect{mark} x="{x - 11:.1f}" y="{y - 11:.1f}" width="22" height="22" fill="#bbbbbb" stroke="#fff"/>'
    if kind == "nav":
        return f'<polygon{mark} points="{x},{y - 13} {x + 13},{y} {x},{y + 13} {x - 13},{y}" fill="#333" stroke="#fff"/>'
    if kind == "telegate":
        pts = " ".join(f"{x + dx},{y + dy}" for dx, dy in ((-8, -12), (8, -12), (14, 0), (8, 12), (-8, 12), (-14, 0)))
        return f'<polygon{mark} points="{pts}" fill="#6a1b9a" stroke="#fff"/>'
    if kind == "orbital":
        ring = colours.get(spaceports.get(sid), "#ffffff")
        width = 4 if sid in spaceports else 1.5
        return f'<circle{mark} cx="{x:.1f}" cy="{y:.1f}" r="10" fill="{fill}" stroke="{ring}" stroke-width="{width}"/>'
    return f'<circle{mark} cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{fill}" stroke="#223"/>'


def _candidates(x: float, y: float, r: float, label: str, size: float) -> list[tuple]:
    """Candidate baselines for a square's label: below, above, right, left, then the diagonals."""
    w = 0.62 * size * len(label)
    return [(x, y + r + size + 1, "middle"), (x, y - r - 4, "middle"), (x + r + 3 + w / 2, y + size / 3, "middle"),
            (x - r - 3 - w / 2, y + size / 3, "middle"), (x + r + w / 2, y + r + size, "middle"),
            (x - r - w / 2, y + r + size, "middle"), (x + r + w / 2, y - r - 2, "middle"),
            (x - r - w / 2, y - r - 2, "middle")]


def _put(placer: Placer, x: float, y: float, r: float, label: str, size: float = 12) -> tuple:
    """The baseline of a label next to its square, where it covers nothing else."""
    spots = _candidates(x, y, r, label, size)
    best = placer.choose([text_box(sx, sy, label, size, anchor) for sx, sy, anchor in spots])
    return spots[best]


def _along(x1: float, y1: float, x2: float, y2: float) -> list[tuple]:
    """Candidate centres for a link's label: along the link, then beside it."""
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    return [(x1 + (x2 - x1) * f + nx * d, y1 + (y2 - y1) * f + ny * d + 4)
            for d in (0, 12, -12, 22, -22) for f in (0.5, 0.4, 0.6, 0.3, 0.7, 0.25, 0.75)]


def square_label(sid: str) -> str:
    """A square's short label on the map, in the page's language ("S1", "orbit 2", "city")."""
    kind = data.SQUARES[sid]["kind"]
    if kind == "orbital":
        return _("orbit %(n)s", n=sid.partition(".")[2].lstrip("o"))
    words = {"base": pgettext("map", "Base"), "city": pgettext("map", "city"), "port": pgettext("map", "port"),
             "nav": pgettext("map", "nav"), "telegate": pgettext("map", "gate")}
    return words.get(kind, sid.upper())


def system_name(sid: str) -> str:
    """A system's printed name in the page's language."""
    return say_name(data.SYSTEMS[sid]["name"])


@cache
def _layout(lang: str) -> dict:
    """Where every square's name, hazard fee, navigation numbers and system label go in `lang` (once each)."""
    placer = Placer((0, 0, WIDTH, HEIGHT))
    for sid in data.SQUARE_ORDER:
        x, y = _xy(sid)
        r = SHAPE_R.get(data.SQUARES[sid]["kind"], 9) + 1
        placer.take((x - r, y - r, x + r, y + r))
    spots: dict = {"name": {}, "hazard": {}, "nav": {}, "system": {}}
    for sid in data.SQUARE_ORDER:
        x, y = _xy(sid)
        r = SHAPE_R.get(data.SQUARES[sid]["kind"], 9)
        spots["name"][sid] = _put(placer, x, y, r, square_label(sid))
        if data.SQUARES[sid]["hazard"]:
            spots["hazard"][sid] = _put(placer, x, y, r, hazard_mark(data.SQUARES[sid]["hazard"]))
        if data.SQUARES[sid]["kind"] == "orbital":
            spots.setdefault("deed", {})[sid] = _put(placer, x, y, r, "$", 13)
    for nav, exits in data.NAV_EXITS.items():
        x1, y1 = _xy(nav)
        for to, nums in exits.items():
            x2, y2 = _xy(to)
            label = ",".join(map(str, nums))
            cands = _along(x1, y1, x2, y2)
            best = placer.choose([text_box(cx, cy, label, 12, pad=3) for cx, cy in cands])
            spots["nav"][(nav, to)] = cands[best]
    for sid, system in data.SYSTEMS.items():
        ax, ay = _xy(system["city"] or system["port"])
        label = f"{system_name(sid)}: " + max((culture_name(c) for c in data.CULTURES), key=len)
        cands = [(ax + dx, ay + dy) for dy in (-30, 36, -52, 58, -74, 80, 0) for dx in (0, -70, 70, -140, 140)]
        best = placer.choose([text_box(cx, cy, label, 13, pad=4) for cx, cy in cands])
        spots["system"][sid] = cands[best]
    spots["taken"] = list(placer.taken)
    return spots


def _spots() -> dict:
    """The map's label places for this page's language."""
    return _layout(language())


def _target(sid: str, x: float, y: float) -> str:
    """The square's tap target: 44 px around its shape, stretched over its labels (a tap on "S1" acts too)."""
    boxes = [(x - 22, y - 22, x + 22, y + 22)]
    for key, label, size in (("name", square_label(sid), 12), ("hazard", hazard_mark(data.SQUARES[sid]["hazard"]), 12),
                             ("deed", "$", 13)):
        if sid in _spots().get(key, {}):
            lx, ly, anchor = _spots()[key][sid]
            boxes.append(text_box(lx, ly, label, size, anchor))
    return hit_box(min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                   max(b[3] for b in boxes))


def _square(sid: str, spaceports: dict, deeds: list, colours: dict) -> str:
    """A square as a board place: its tap target, shape, symbol, name and any hazard fee or deed mark."""
    sq = data.SQUARES[sid]
    x, y = _xy(sid)
    kind = sq["kind"]
    body = _target(sid, x, y) + _shape(sid, sq, x, y, spaceports, colours)
    inner = _INNER.get(kind) or _COLOUR_MARK.get(sq["color"], "")
    if kind == "telegate":
        inner = ",".join(map(str, data.TELEGATES.get(sid, [])))
    if inner:
        body += text(x, y + 4.5, inner, 12, ink(KIND_FILL.get(kind, FILL.get(sq["color"], "#4a78c2"))),
                     "middle", "bold")
    nx, ny, anchor = _spots()["name"][sid]
    body += text(nx, ny, square_label(sid), 12, LABEL, anchor)
    if sid in deeds and sid in _spots().get("deed", {}):
        dx, dy, anchor = _spots()["deed"][sid]
        body += svg_term("deed", text(dx, dy, "$", 13, "#ffd54f", anchor, "bold"))
    if sq["hazard"]:
        hx, hy, anchor = _spots()["hazard"][sid]
        body += svg_term("hazard", text(hx, hy, hazard_mark(sq["hazard"]), 12, "#ff8a80", anchor, "bold"))
    kind_name = str(SPACE.get(sq["color"], SPACE["blue"])) if kind == "space" else word(kind)
    hazard = _(", hazard %(fee)s", fee=credits(sq["hazard"])) if sq["hazard"] else ""
    return place(f"square:{sid}", f"{square_name(sid)} ({kind_name}{hazard})", body)


def r_of(kind: str) -> float:
    """A square shape's radius."""
    return SHAPE_R.get(kind, 9)


def _nav_labels() -> list[str]:
    """The die values of each navigation exit, on its link where they cover nothing."""
    out = []
    for nav, exits in data.NAV_EXITS.items():
        for to, nums in exits.items():
            mx, my = _spots()["nav"][(nav, to)]
            label = ",".join(map(str, nums))
            w = 0.62 * 12 * len(label) + 6
            out.append(svg_term("nav-values", f'<rect x="{mx - w / 2:.1f}" y="{my - 13:.1f}" width="{w:.1f}" '
                                f'height="17" rx="3" fill="#000"/>' + text(mx, my, label, 12, "#ffe066", "middle", "bold")))
    return out


def _systems(view: dict) -> list[str]:
    """Each system's label: its name and its culture once known (or what the viewer saw)."""
    out = []
    systems = view.get("systems") or {}
    observed = view.get("observed") or {}
    for sid, system in data.SYSTEMS.items():
        x, y = _spots()["system"][sid]
        info = systems.get(sid) or {}
        culture = info.get("culture")
        seen = observed.get(sid)
        line = f"{system_name(sid)}: {culture_name(culture) if culture in data.CULTURES else '?'}"
        if isinstance(seen, str) and not culture:
            line = system_name(sid) + ": " + _("you saw %(culture)s", culture=culture_name(seen))
        w = 0.62 * 13 * len(line) + 8
        out.append(f'<g class="system-label"><rect x="{x - w / 2:.1f}" y="{y - 15:.1f}" width="{w:.0f}" height="20" '
                   f'rx="4" fill="#000" opacity="0.85" class="label-ground"/>'
                   + text(x, y, line, 13, INK if not seen or culture else "#ffd54f", "middle", "bold") + "</g>")
    return out


def _tether(x: float, y: float, sx: float, sy: float, r: float, colour: str) -> str:
    """A line from a square's edge to the ship beside it (never across the square's letter)."""
    d = max(((sx - x) ** 2 + (sy - y) ** 2) ** 0.5, 1)
    x0, y0 = x + (sx - x) * (r + 2) / d, y + (sy - y) * (r + 2) / d
    return f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{sx:.1f}" y2="{sy:.1f}" stroke="{colour}" stroke-width="2"/>'


def _ships(view: dict, colours: dict, seats: dict, viewer=None) -> list[str]:
    """Each ship beside its square (never on the square's letter or name), the viewer's marked as theirs."""
    out = []
    states = view.get("player_states") or {}
    placer = Placer((0, 0, WIDTH, HEIGHT))
    placer.taken = list(_spots()["taken"])  # squares and every label: a ship covers none of them
    for i, (pid, ps) in enumerate(states.items()):
        x, y = _xy((ps or {}).get("square", ""))
        r = r_of(data.SQUARES.get((ps or {}).get("square"), {}).get("kind", "space")) + 4
        cands = [(x + dx * r * k, y + dy * r * k) for k in (1, 1.6, 2.2)
                 for dx, dy in ((1, -1), (-1, -1), (1, 1), (-1, 1), (1.4, 0), (-1.4, 0), (0, -1.4), (0, 1.4))]
        best = placer.choose([(cx - 10, cy - 10, cx + 10, cy + 10) for cx, cy in cands])
        sx, sy = cands[best]
        col = colours.get(pid, "#ffffff")
        name = _("%(player)s's ship", player=pid)
        out.append(f'<g class="ship"><title>{e(name)}</title>'
                   + _tether(x, y, sx, sy, r - 4, col)
                   + f'<circle data-mark="" cx="{sx:.1f}" cy="{sy:.1f}" r="10" fill="{col}" stroke="#000" stroke-width="2"/>'
                   + text(sx, sy + 4.5, seats.get(pid, "?"), 12, ink(col), "middle", "bold") + "</g>")
        if viewer is not None and pid == viewer:
            out.append(mine_anchor(sx, sy))
    return out


def _cargo(item) -> str:
    """A carried item's short name: a good by its name alone, anything else in full."""
    words = command_text.item_name(item)
    good = (getattr(words, "params", None) or {}).get("good")
    return say_name(good) if good is not None else item_name(item)


def _panel(pid: str, ps: dict, view: dict, colour: str, letter: str, viewer) -> str:
    """A player's card: cash and net worth, ship and square, holds and equipment, cargo, IOUs, deeds."""
    active = view.get("active") == pid and not view.get("result")
    race = culture_name(ps.get("race"))
    title = e(f"{pid} ({race})") + (f' <span class="to-act-mark">◀ {e(_("to act"))}</span>' if active else "")
    cargo = ", ".join(_cargo(c) for c in ps.get("cargo") or []) or _("empty")
    equipment = [_("%(n)s shield(s)", n=ps.get("shields", 0))] + [item_name(d) for d in ps.get("drives") or []]
    deeds = [_("%(culture)s factory", culture=culture_name(c)) for c in ps.get("factories") or []] + \
        [_("spaceport on %(square)s", square=square_name(s)) for s in ps.get("spaceports") or []]
    observed = ", ".join(system_name(s) if s in data.SYSTEMS else str(s) for s in ps.get("observed_systems") or [])
    ious = [culture_name(c) for c in ps.get("ious") or []]
    rows = [f"{term('credits', credits(ps.get('cash')))} · {term('net-worth')} {e(credits(ps.get('net_worth')))}",
            term("ship", say_name(str(ps.get("ship")))) + " " + e(_("on")) + " " + e(square_name(ps.get("square"))),
            f"{term('holds')} {e(ps.get('holds_used'))}/{e(ps.get('holds'))} · "
            f"{term('equipment', ', '.join(equipment))}",
            f"{term('cargo')}: {e(cargo)}",
            f"{term('ious')}: {e(', '.join(ious) or _('none'))}",
            f"{term('deeds')}: {e(', '.join(deeds) or _('none'))}",
            f"{term('observed')}: {e(observed or _('none'))}"]
    return layout.seat_card(colour, letter, title, rows, active, pid == viewer)


def _legend(players: list, colours: dict, seats: dict) -> str:
    """The legend: square kinds, links, marks and each player's ship, every term explained."""
    items = [layout.swatch(fill, mark) + " " + term(key) for fill, mark, key in (
        ("#dddddd", _INNER["base"], "galactic-base"), ("#8bd48b", _INNER["city"], "city"),
        ("#bbbbbb", _INNER["port"], "spaceport"), ("#333333", _INNER["nav"], "navigation"),
        ("#6a1b9a", "1,2", "telegate"), ("#e8c531", _COLOUR_MARK["yellow"], "yellow-space"),
        ("#d9483b", _COLOUR_MARK["red"], "red-space"), ("#4a78c2", "", "orbital"))]
    items += [f'<span class="swatch line" style="background:#3ecf5a" aria-hidden="true"></span> {term("green-link")}',
              f'<strong class="hazard-mark">{e(hazard_mark(20))}</strong> {term("hazard")}',
              f'<strong>$</strong> {term("deed")}',
              f'<strong>1,2</strong> {term("nav-values")}']
    items += [layout.swatch(colours[p], seats[p], True) + " " + e(_("%(player)s's ship", player=p)) for p in players]
    return layout.legend(_("Legend"), items)


def _header(view: dict, names_line: str) -> tuple[str, str]:
    """The status lines (wrapping) and the one-line status for the text alternative."""
    turn = view.get("turn") or {}
    result = view.get("result")
    if result:
        line = _("Finished: winner %(names)s", names=", ".join(map(str, result.get("winners") or [])))
    else:
        phase = word(view.get("phase")) + (", " + _("free space") if view.get("free_space") else "")
        line = _("Round %(round)s of %(rounds)s · %(player)s to act (%(phase)s)", round=view.get("round"),
                 rounds=view.get("max_rounds"), player=view.get("active"), phase=phase)
    rows = [f"<strong>{e(line)}</strong>",
            f"{term('target')} {e(credits(view.get('target_net_worth')))} · {term('net-worth')}: {e(names_line)}"]
    if not result and turn.get("dice"):
        nav = turn.get("nav_value")
        rows.append(f"{term('dice')} {e(', '.join(map(str, turn.get('dice'))))} · {term('navigation')} "
                    f"{'-' if nav is None else e(nav)} · " + term("mp", _("%(n)s MP left", n=turn.get("mp"))))
    if not result and turn.get("destination"):
        rows.append(f"{term('destination')}: {e(square_name(turn.get('destination')))}")
    return layout.lines(rows), line


def place_of(view: dict, command: dict):
    """(place key, payload field) of the square a command names: a move's step, a declared destination."""
    t, p = command["type"], command.get("payload") or {}
    if t == "move":
        return f"square:{p['to']}", "to"
    if t == "declare_direction":
        return f"square:{p['destination']}", "destination"
    return None


def render_board(view: dict, viewer) -> str:
    """The board as HTML: status lines, the map (an SVG in a panning frame), the legend, a card per player."""
    view = view if isinstance(view, dict) else {}
    players = [p for p in view.get("players") or [] if isinstance(p, str)]
    colours = {p: PLAYER_COLORS[i % len(PLAYER_COLORS)] for i, p in enumerate(players)}
    seats = {p: str(i + 1) for i, p in enumerate(players)}  # a seat's number marks its ship (no letter to read)
    spaceports = view.get("spaceports") or {}
    deeds = view.get("spaceport_deeds") or []
    states = view.get("player_states") or {}
    worth = " · ".join(f"{p} {credits((states.get(p) or {}).get('net_worth', '?'))}" for p in players)
    header, status = _header(view, worth)
    parts = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{BG}"/>'] + _links()
    parts += [_square(s, spaceports, deeds, colours) for s in data.SQUARE_ORDER]
    parts += _nav_labels() + _systems(view) + _ships(view, colours, seats, viewer)
    summary = _("Merchant of Venus map.") + f" {status}. " + " ".join(
        _("%(player)s's ship is on %(square)s.", player=p, square=square_name((states.get(p) or {}).get("square")))
        for p in players)
    svg = svg_root(WIDTH, HEIGHT, _("Merchant of Venus map"), summary, True, "".join(parts), "board-map")
    cards = [_panel(pid, ps if isinstance(ps, dict) else {}, view, colours.get(pid, "#fff"), seats.get(pid, "?"), viewer)
             for pid, ps in states.items()]
    return layout.board_set(GAME, "map", _("Merchant of Venus board"),
                            [header, layout.map_frame(svg, _("Map (drag or scroll to pan)")),
                             _legend(players, colours, seats), layout.seat_cards(cards)])
