"""The HTML pages, beside the JSON API (service/web/api/): the lobby, signing in, the match page, the standings, the
rules pages and the account pages, a module per family, with the helpers only pages use. The lobby's, sign-in's,
match's and standings' routes are on one blueprint, `pages` (site.py): importing this package registers them all."""
from __future__ import annotations

from service.web.pages import account, lobby, match, rules, sign_in, site, standings

__all__ = ["account", "lobby", "match", "rules", "sign_in", "site", "standings"]
