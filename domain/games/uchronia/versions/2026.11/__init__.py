"""Uchronia (Carl Chudyk, 2012) rules module: one card, three uses — order, resource, operation.

Interpretations where the spec is silent (beyond its §10):
- Colours and orders in payloads are validated by the rules, not the schema: an unknown order cites
  `orders.five-types`, an unknown colour `cards.by-colour` (or the step's own colour rule).
- `issue_order` with 0 cards cites `command.single`; with 3 or more cards `command.joker`.
- `supply_building` naming one of your completed buildings cites `buildings.no-overfill`.
- `plot {copy_from}` naming yourself or a non-player cites `plot.copy`; an empty Residence cites
  `plot.copy-needs-operation` (as the spec groups it).
- The end trigger by VP names the acting player if they qualify, else the first qualifying player in turn order.
- `end.draw-pile` fires after the `cards_drawn` event (which may draw 0 cards from an empty pile).
- The completed building keeps its resources under it; they never return to play.
- `result.scores` holds each player's VP; `result.details` the VP/buildings/operations used for tiebreaks.
- The spectator view and redaction hide hand colours and deck orders; `decks_shuffled` keeps only its sizes.
"""
from .game import GAME

__all__ = ["GAME"]
