"""Renders an Uchronia view as a list that reflows: status lines, a colour legend, the shared zones and every
player's area, each a titled part with its chip rows and building cards (small SVG pictures that wrap).
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
from .data import COLOR_INFO, COLORS, DESIGNS

GAME = "uchronia"
GLOSSARY = Path(__file__).resolve().parent / "text" / "glossary.json"  # its own folder (a frozen copy too)
TERMS = Glossary(GLOSSARY, f"/games/{GAME}/rules")
term = TERMS.term
building_name, step_words = said(command_text.building_name), said(command_text.step_words)
power = said(command_text.power)
FILL = {"yellow": "#e3b92f", "grey": "#9aa0a6", "red": "#c0392b", "blue": "#2e6fd1", "brown": "#8b5a2b"}
SYMBOL = {"yellow": "★", "grey": "▲", "red": "◆", "blue": "●", "brown": "■"}  # besides the colour, in any language
INK = "#1a1a1a"
MUTED = "#4d4d4d"
PANEL = "#f7f7f7"
CHIP_W, CHIP_H, GAP = 50, 44, 6  # a chip the viewer acts on is a 44 px tap target
_ORDER_NAMES = {info["order"]: info["order_name"] for info in COLOR_INFO.values()}
TILE_W, TILE_H = 168, 48

WORDS = {  # words from the game's data the board shows in the page's language (others as they come)
    "yellow": _l("yellow"), "grey": _l("grey"), "red": _l("red"), "blue": _l("blue"), "brown": _l("brown"),
    "Production": _l("Production"), "Expeditions": _l("Expeditions"), "Draconias": _l("Draconias"),
    "Trade": _l("Trade"), "Construction": _l("Construction"),
}


def word(key) -> str:
    """A word from the game's data in the page's language (WORDS; anything else as it is)."""
    return data_word(WORDS, key)


def _counts(d) -> dict:
    """A colour -> int map from a view field, tolerating missing or odd values."""
    if not isinstance(d, dict):
        return {}
    return {c: n for c, n in d.items() if isinstance(n, int) and not isinstance(n, bool) and n > 0}


def _chip(x, y, color, count) -> str:
    """One card-colour chip: the colour, its symbol and the count, ink chosen for contrast."""
    fill = FILL.get(color, "#cccccc")
    return (f'<rect data-mark="" x="{x}" y="{y}" width="{CHIP_W}" height="{CHIP_H}" rx="5" fill="{fill}" stroke="#333"/>'
            + text(x + CHIP_W / 2, y + CHIP_H / 2 + 5, f"{SYMBOL.get(color, '?')} {count}", 14, ink(fill), "middle",
                   "bold"))


def _chips(counts: dict, label: str, zone: str | None = None) -> str:
    """One chip per colour as a small picture; chips of a zone the viewer acts on are board places."""
    ordered = [c for c in COLORS if c in counts]
    if not ordered:
        return f'<span class="muted">{e(_("none"))}</span>'
    body = []
    for i, color in enumerate(ordered):
        chip = _chip(3 + i * (CHIP_W + GAP), 3, color, counts[color])
        words = f"{label}: {counts[color]} {word(color)}"
        body.append(place(f"{zone}:{color}", words, chip) if zone else f"<g><title>{e(words)}</title>{chip}</g>")
    return block(6 + len(ordered) * (CHIP_W + GAP) - GAP, CHIP_H + 6, label, "".join(body))


def _row(label_html: str, body: str) -> str:
    """A labelled row of a part: its name, then its chips or words (wrapping under on a phone)."""
    return f'<div class="board-row"><span class="row-label">{label_html}</span>{body}</div>'


def _names_state(view) -> dict:
    """The fields building_name reads, taken from the view."""
    players = view.get("players") if isinstance(view.get("players"), dict) else {}
    return {"great_works": view.get("great_works") or [],
            "under_construction": {p: (t or {}).get("under_construction") or {} for p, t in players.items()
                                   if isinstance(t, dict)}}


def _cost(bid):
    """A building's printed cost (= VP), or "?" for an unknown id."""
    return DESIGNS.get(str(bid).rsplit("_", 1)[0], {}).get("cost", "?")


def _building_tile(bid, caption, names_state) -> str:
    """A building card (a board place) as its own small picture: colour bar with its symbol, name, caption; its
    power said in its tooltip."""
    design = DESIGNS.get(str(bid).rsplit("_", 1)[0], {})
    color = design.get("color")
    fill = FILL.get(color, "#cccccc")
    name = building_name(names_state, bid)
    size = 13 if len(name) <= 17 else 12
    body = (f'<rect x="1" y="1" width="{TILE_W - 2}" height="{TILE_H - 2}" rx="5" fill="#fffdf5" stroke="#555"/>'
            f'<rect data-mark="" x="1" y="1" width="22" height="{TILE_H - 2}" fill="{fill}"/>'
            + text(12, 29, SYMBOL.get(color, "?"), 13, ink(fill), "middle", "bold")
            + text(28, 20, name[:21], size, INK, weight="bold") + text(28, 39, caption, 12, MUTED))
    return block(TILE_W, TILE_H, name, place(f"building:{bid}", f"{name}: {power(bid)}", body))


def _header(view, viewer) -> tuple[str, str]:
    """Status lines (turn, pending step, end state) and the one-line status for the text alternative."""
    pending = view.get("pending") or {}
    waiting = [str(p) for p in pending.get("players") or []]
    others = [p for p in waiting if p != viewer]
    step = step_words(pending.get("step", "finished"))
    rnd = _("Round %(round)s of %(rounds)s", round=view.get("round"), rounds=view.get("max_rounds")) \
        if view.get("round") else _("Before the first round")
    rows = [f"<strong>{e(rnd)}</strong> · " + term("vp-target", _("%(n)s VP wins", n=view.get("vp_target")))]
    result, ended = view.get("result"), view.get("end_triggered")
    both = " " + _("and") + " "
    if viewer in waiting:
        line = _("Your move: %(step)s", step=step) + (" · " + _("also waiting for %(players)s", players=both.join(
            others)) if others else "")
    elif waiting:
        line = _("Waiting for %(players)s to %(step)s", players=both.join(waiting), step=step)
    else:
        line = _("The match is over")
    if not isinstance(result, dict):
        rows.append(e(line))
    order = pending.get("order")
    if isinstance(order, dict):
        line2 = _("%(order)s by %(player)s: step %(used)s of %(total)s", order=word(_ORDER_NAMES.get(order.get("order"), "")),
                  player=order.get("player"), used=order.get("used"), total=order.get("repetitions"))
        if order.get("revealed"):
            line2 += ", " + _("revealed %(cards)s", cards=", ".join(word(c) for c in order["revealed"]))
        rows.append(e(line2))
    if isinstance(pending.get("bonus"), dict):
        rows.append(term("monopoly-bonus", _("%(colour)s Monopoly bonus", colour=word(pending["bonus"].get("color")))))
    if isinstance(result, dict):
        line = _("Finished: winner(s) %(names)s", names=", ".join(str(w) for w in result.get("winners") or []))
        rows.append(f'<strong class="board-end">{e(line)}</strong>')
    elif isinstance(ended, dict):
        ended_by = _("Last round: end triggered by %(player)s", player=ended.get("player"))
        rows.append(f'<strong class="board-end">{e(ended_by)}</strong>')
    return layout.lines(rows), line


def _legend() -> str:
    """What each card colour is: symbol, resource and order."""
    items = [layout.swatch(FILL[c], SYMBOL[c]) + f" {e(word(c))}: {term(COLOR_INFO[c]['resource'])} · "
             f"{term(COLOR_INFO[c]['order'])}" for c in COLORS]
    return layout.legend(_("Colours"), items)


def _shared(view, names_state) -> str:
    """Forum, discard, piles, Monopolies and Great Works, as one part."""
    monopolies = view.get("monopolies") if isinstance(view.get("monopolies"), dict) else {}
    holders = [layout.swatch(FILL[c], SYMBOL[c]) + " " + e(monopolies.get(c) or _("supply")) for c in COLORS]
    works = [_building_tile(bid, _("cost %(n)s", n=_cost(bid)), names_state) for bid in view.get("great_works") or []]
    body = (_row(term("forum"), _chips(_counts(view.get("forum")), _("Forum"), "forum"))
            + _row(term("discard"), _chips(_counts(view.get("discard")), _("Discard")))
            + _row(term("draw-pile"), e(_("%(n)s cards", n=view.get("draw_pile_size")))
                   + " · " + term("building-deck") + " " + e(view.get("building_deck_size")))
            + _row(term("monopoly"), '<span class="board-tiles">' + " ".join(
                f"<span>{h}</span>" for h in holders) + "</span>")
            + f'<p class="row-label">{term("great-works")}</p>' + layout.tiles(works))
    return layout.section(e(_("On the table")), body)


def _player(view, pid, tableau, viewer, seat, names_state) -> str:
    """One player's area; the viewer's hand and stock chips, the Residence and all buildings are places."""
    tableau = tableau if isinstance(tableau, dict) else {}
    waiting = pid in ((view.get("pending") or {}).get("players") or []) and not isinstance(view.get("result"), dict)
    sites = tableau.get("under_construction") if isinstance(tableau.get("under_construction"), dict) else {}
    tiles = [_building_tile(bid, _("%(placed)s of %(cost)s placed", placed=placed, cost=_cost(bid)), names_state)
             for bid, placed in sites.items()]
    tiles += [_building_tile(bid, _("done · %(n)s VP", n=_cost(bid)), names_state) for bid in tableau.get("completed") or []]
    mine = pid == viewer
    vp = term("vp", _("%(n)s VP", n=tableau.get("vp", 0)))
    acting = _("to act")
    title = e(pid) + (e(" (" + _("you") + ")") if mine else "") + f" · {vp} · " \
        f"{term('operation-limit')} {e(tableau.get('operation_limit', '?'))}" + \
        (f' <span class="to-act-mark">▶ {e(acting)}</span>' if waiting else "")
    if tableau.get("monopolies"):
        title += " · " + term("monopoly") + ": " + e(", ".join(word(c) for c in tableau["monopolies"]))
    if tableau.get("hand") is not None:
        hand = _chips(_counts(tableau.get("hand")), _("Hand"), "hand" if mine else None)
    else:
        hand = e(_("%(n)s card(s)", n=tableau.get("hand_size", 0)))
    body = (_row(term("hand"), hand)
            + _row(term("stock"), _chips(_counts(tableau.get("stock")), _("Stock"), "stock" if mine else None))
            + _row(term("operations"), _chips(_counts(tableau.get("operations")), _("Operations")))
            + _row(term("residence"), _residence(pid, tableau, seat))
            + (layout.tiles(tiles) if tiles else '<p class="muted">' + e(_("No buildings yet")) + "</p>"))
    cls = "board-part" + (" to-act" if waiting else "")
    return layout.section(title, body, cls)


def _residence(pid, tableau, seat) -> str:
    """A player's Residence as one place (a Plot copies its order): its chips and the order played."""
    residence = tableau.get("residence") if isinstance(tableau.get("residence"), dict) else {}
    counts: dict = {}
    for c in residence.get("colors") or []:
        counts[c] = counts.get(c, 0) + 1
    ordered = [c for c in COLORS if c in counts]
    order = _ORDER_NAMES.get(residence.get("order"), str(residence.get("order") or ""))
    order = word(order) if order else ""
    width = 12 + len(ordered) * (CHIP_W + GAP) + (9 * len(order) + 8 if order else 0)
    width = max(width, 80)
    chips = "".join(_chip(6 + i * (CHIP_W + GAP), 5, c, counts[c]) for i, c in enumerate(ordered))
    shown = text(12 + len(ordered) * (CHIP_W + GAP), CHIP_H / 2 + 10, order, 14, INK, weight="bold") if order else \
        ("" if ordered else text(8, CHIP_H / 2 + 10, _("empty"), 14, MUTED))
    name = _("%(player)s's Residence", player=pid) + (f" ({order})" if order else "")
    body = (f'<rect x="1" y="1" width="{width - 2}" height="{CHIP_H + 8}" rx="6" fill="transparent" stroke="#bbb"/>'
            + chips + shown)
    return block(width, CHIP_H + 10, name, place(f"residence:{seat}", name, body))


def place_of(view: dict, command: dict):
    """(place key, None) of the chip, building or Residence a command acts on; None when it has no place."""
    t, p = command["type"], command.get("payload") or {}
    if t in ("discard_to_forum", "stock_from_hand", "give_card"):
        return f"hand:{p['color']}", None
    if t == "issue_order":
        return f"hand:{p['colors'][0]}", None
    if t == "take_from_forum":
        return f"forum:{p['color']}", None
    if t == "trade":
        return f"stock:{p['color']}", None
    if t in ("start_building", "supply_building", "raid"):
        return f"building:{p['building_id']}", None
    if t == "plot" and p.get("copy_from") is not None:
        return f"residence:{list(view.get('turn_order') or []).index(p['copy_from'])}", None
    return None


def render_board(view: dict, viewer) -> str:
    """The whole board as HTML that reflows; tolerant of any view the game produces."""
    view = view if isinstance(view, dict) else {}
    players = view.get("players") if isinstance(view.get("players"), dict) else {}
    order = [p for p in view.get("turn_order") or [] if p in players] + \
        [p for p in players if p not in (view.get("turn_order") or [])]
    names_state = _names_state(view)
    head, _status = _header(view, viewer)
    parts = [_player(view, pid, players[pid], viewer, seat, names_state) for seat, pid in enumerate(order)]
    return layout.board_set(GAME, "list", _("Uchronia board"),
                            [head, _legend(), _shared(view, names_state), '<div class="board-parts">' + "".join(parts)
                             + "</div>"])
