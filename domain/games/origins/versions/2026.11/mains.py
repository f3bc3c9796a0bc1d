"""The main actions of the five sites: checks, candidate payloads and events."""
from __future__ import annotations

from domain.engine import event
from domain.engine.text import T, joined, name as printed

from .building import build_candidates, build_events, check_build
from .common import citizen_die, free_stands, is_int, require, roll_die
from .data import CITIZEN_COSTS, DATA, DICE, RESOURCES, TEMPLE_TOP, TEMPLES, WAR


# --- advance_temple -------------------------------------------------------------------------------

def check_advance_temple(state, player, visit, payload):
    """temple.top and temple.advance-two."""
    temple = payload.get("temple")
    require(temple in TEMPLES, "temple.advance-two", T("There is no such temple; the temples are those of {items}.",
                                                       items=joined(map(printed, TEMPLES))))
    require(player["temples"][temple] < TEMPLE_TOP, "temple.top",
            T("Your disc on the {temple} temple is already at the top.", temple=printed(temple)))
    require(player["resources"]["stone"] >= DATA["temple_advance"]["stone"], "temple.advance-two",
            T("Advancing on a temple costs 1 stone."))


def cand_advance_temple(state, player, visit):
    """One payload per temple."""
    return [{"temple": t} for t in TEMPLES]


def temple_card_events(state, pid, temple, rng) -> list:
    """zodiac_card_taken: a random card of the temple's deck, or none if it is empty (temple.take-zodiac)."""
    deck = state["zodiac_decks"][temple]
    card = rng.choice(deck) if deck else None
    return [event("zodiac_card_taken", player=pid, temple=temple, card=card)]


def do_advance_temple(state, pid, player, visit, payload, rng):
    """temple_advanced (+2, capped at the top, temple.single-disc) then zodiac_card_taken."""
    temple = payload["temple"]
    frm = player["temples"][temple]
    to = min(TEMPLE_TOP, frm + DATA["temple_advance"]["steps"])
    return [event("temple_advanced", player=pid, temple=temple, **{"from": frm}, to=to,
                  stone_paid=DATA["temple_advance"]["stone"], source="main")] + \
        temple_card_events(state, pid, temple, rng)


# --- take_citizen_die ------------------------------------------------------------------------------

def check_take_citizen_die(state, player, visit, payload):
    """citizen.choose-slot, citizen.needs-free-stand, citizen.pay-wisdom."""
    slot = payload.get("slot")
    require(is_int(slot) and 1 <= slot <= len(state["citizen_row"]), "citizen.choose-slot",
            T("Choose a citizen-row slot from 1 to {count}.", count=len(state['citizen_row'])))
    require(free_stands(player) > 0, "citizen.needs-free-stand", T("You have no free dice stand."))
    require(player["resources"]["wisdom"] >= CITIZEN_COSTS[slot - 1], "citizen.pay-wisdom",
            T("Slot {slot} costs {citizen_costs} wisdom.", slot=slot, citizen_costs=CITIZEN_COSTS[slot - 1]))


def cand_take_citizen_die(state, player, visit):
    """One payload per citizen-row slot."""
    return [{"slot": s} for s in range(1, len(state["citizen_row"]) + 1)]


def do_take_citizen_die(state, pid, player, visit, payload, rng):
    """citizen_die_taken: the row slides left and a same-colour die rolled with reroll 6 fills slot 5."""
    slot = payload["slot"]
    row = state["citizen_row"]
    taken = row[slot - 1]
    new = roll_die(rng, f"d{state['next_die']}", taken["colour"])
    ids = [d["id"] for i, d in enumerate(row) if i != slot - 1] + [new["id"]]
    return [event("citizen_die_taken", player=pid, slot=slot, die=taken["id"],
                  wisdom_paid=CITIZEN_COSTS[slot - 1], row=ids, new_die=new)]


# --- build -----------------------------------------------------------------------------------------

def check_main_build(state, player, visit, payload):
    """build.*, farm.*, placement.*."""
    check_build(state, player, payload)


def cand_build(state, player, visit):
    """Every tile x as_farm x legal cell."""
    return build_candidates(state, player)


def do_build(state, pid, player, visit, payload, rng):
    """The build events, paid from wisdom and stone only."""
    return build_events(state, pid, payload, rng, "main", 0)


# --- spend_food ------------------------------------------------------------------------------------

def visit_die(player, visit):
    """The citizen die that made this visit, or None after an Archon or orator visit (food.target-die)."""
    return citizen_die(player, visit["worker"]) if visit["kind"] == "citizen" else None


def check_spend_food(state, player, visit, payload):
    """food.amount, food.target-die, dice.max-six, food.no-waste."""
    to_die, to_war = payload.get("to_die"), payload.get("to_war")
    lo, hi = DATA["food_spend"]["min"], DATA["food_spend"]["max"]
    require(is_int(to_die) and is_int(to_war) and to_die >= 0 and to_war >= 0
            and lo <= to_die + to_war <= hi and to_die + to_war <= player["resources"]["food"],
            "food.amount", T("Spend {lo} to {hi} food, and no more than you have.", lo=lo, hi=hi))
    die = visit_die(player, visit)
    require(to_die == 0 or die is not None, "food.target-die",
            T("Only the citizen die that made this visit can take food; this visit can only buy war."))
    require(to_die == 0 or die["value"] + to_die <= DICE["max_value"], "dice.max-six",
            T("A die can never go above {max_value}.", max_value=DICE['max_value']))
    require(player["war"] + to_war <= WAR["max"], "food.no-waste",
            T("The war disc cannot pass {max}; every food must take effect.", max=WAR['max']))


def cand_spend_food(state, player, visit):
    """Every split of 1-3 food between the die and war."""
    lo, hi = DATA["food_spend"]["min"], DATA["food_spend"]["max"]
    return [{"to_die": d, "to_war": n - d} for n in range(lo, hi + 1) for d in range(n + 1)]


def do_spend_food(state, pid, player, visit, payload, rng):
    """food_spent."""
    die = visit_die(player, visit)
    to_die, to_war = payload["to_die"], payload["to_war"]
    return [event("food_spent", player=pid, food=to_die + to_war, to_die=to_die, to_war=to_war,
                  die=die["id"] if die else None, die_value_to=die["value"] + to_die if die else None,
                  war_to=player["war"] + to_war)]


# --- attack ----------------------------------------------------------------------------------------

def check_attack(state, player, visit, payload):
    """attack.once-per-round."""
    require(not player["attacked"], "attack.once-per-round", T("You have already attacked this round."))


def attack_event(state, pid, wisdom_paid: int, source: str) -> dict:
    """attack_made: band reward, +1 VP per weaker player and per threshold reached (attack.reward)."""
    war = state["players"][pid]["war"]
    band = next(b for b in WAR["bands"] if b["from"] <= war <= b["to"])
    weaker = sum(1 for other, p in state["players"].items() if other != pid and p["war"] < war)
    thresholds = sum(1 for t in WAR["thresholds"] if war >= t)
    return event("attack_made", player=pid, war=war, reward=dict(band["reward"]), vp=weaker + thresholds,
                 wisdom_paid=wisdom_paid, source=source)


def cand_attack(state, player, visit):
    """The single attack payload."""
    return [{}]


def do_attack(state, pid, player, visit, payload, rng):
    """attack_made from the main action."""
    return [attack_event(state, pid, 0, "main")]


# --- gather ----------------------------------------------------------------------------------------

def check_gather(state, player, visit, payload):
    """gather.two."""
    amounts = [payload.get(r) for r in RESOURCES]
    require(all(is_int(a) and a >= 0 for a in amounts) and sum(amounts) == DATA["gather_amount"],
            "gather.two", T("Gather exactly {gather_amount} basic resources in any mix.",
                            gather_amount=DATA['gather_amount']))


def cand_gather(state, player, visit):
    """Every mix of stone, food and wisdom summing to the gather amount."""
    n = DATA["gather_amount"]
    return [{"stone": s, "food": f, "wisdom": n - s - f} for s in range(n + 1) for f in range(n + 1 - s)]


def do_gather(state, pid, player, visit, payload, rng):
    """resources_gained from the fields."""
    return [event("resources_gained", player=pid, gains={r: payload[r] for r in RESOURCES}, source="gather")]


MAIN_ACTIONS = {
    "advance_temple": (check_advance_temple, cand_advance_temple, do_advance_temple),
    "take_citizen_die": (check_take_citizen_die, cand_take_citizen_die, do_take_citizen_die),
    "build": (check_main_build, cand_build, do_build),
    "spend_food": (check_spend_food, cand_spend_food, do_spend_food),
    "attack": (check_attack, cand_attack, do_attack),
    "gather": (check_gather, cand_gather, do_gather),
}
