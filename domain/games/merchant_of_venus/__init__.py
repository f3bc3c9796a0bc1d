"""Merchant of Venus (classic rules, small original map): the `merchant-of-venus` game module.

Command budget for random playouts: the spec states none as a hard cap; it reports 253 commands on average
(322 at most) for 2 players and about twice that for 4. We use 3000 (the platform budget), which random
playouts stay far below (see the tests). Choices where the spec is silent:
- `movement_ended.landed` is true on any landing square (including a merchant spaceport) after a step; the
  one-Buy/one-Sell limit applies only on a city or neutral port (transaction.port-exception).
- A purchase whose price is 0 without an IOU (a ship fully paid by its trade-in) still uses the Buy action;
  only purchases paid entirely by IOU are free (iou.not-buy-action).
- Selling a token you do not carry is rejected with `sell.action`; jettisoning one with `capacity.free-space`.
- hazard_fee_paid is emitted (paid may be c0 with enough shields) whenever a ship leaves a hazard it entered
  this move; the event precedes the `ship_moved` of the step.
- The `fixed_cultures` option is hidden from everyone but ALL in views and in the redacted match_started.
"""
from .game import GAME

__all__ = ["GAME"]
