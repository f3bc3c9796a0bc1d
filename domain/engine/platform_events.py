"""The platform's own event and command type names (scope "platform"); game events have scope "game"."""

MATCH_CREATED = "match_created"
PLAYER_JOINED = "player_joined"
MATCH_STARTED = "match_started"
MOVES_REVERTED = "moves_reverted"
DISPUTE_OPENED = "dispute_opened"
DISPUTE_VOTED = "dispute_voted"
DISPUTE_RESOLVED = "dispute_resolved"
TURN_TIMED_OUT = "turn_timed_out"
MATCH_FINISHED = "match_finished"
SEED_REVEALED = "seed_revealed"
INVITATION_ACCEPTED = "invitation_accepted"
INVITATION_DECLINED = "invitation_declined"
MATCH_CANCELLED = "match_cancelled"
CHAT_POSTED = "chat_posted"
REMATCH_CREATED = "rematch_created"
RULES_UPGRADED = "rules_upgraded"  # {"from", "to"}: the match is judged by the new rules version from here on
RULES_UPGRADE_PROPOSED = "rules_upgrade_proposed"  # {"proposal", "from", "to", "by", "deadline"}: the others vote
RULES_UPGRADE_VOTED = "rules_upgrade_voted"  # {"proposal", "player", "accept"}
RULES_UPGRADE_REJECTED = "rules_upgrade_rejected"  # {"proposal", "cause", "reason"?}: the match keeps its rules
RULES_UPGRADE_EXPIRED = "rules_upgrade_expired"  # {"proposal"}: its deadline passed before every vote; rules kept
PLAYER_CONCEDED = "player_conceded"  # {"player"}: they give the match up (concede.py)

# platform events that are talk or bookkeeping, not a player's move: they never count as acting
# (take-back, turn deadlines, the inbox's "waiting since")
NOT_ACTIONS = frozenset({CHAT_POSTED, REMATCH_CREATED, RULES_UPGRADE_PROPOSED, RULES_UPGRADE_VOTED,
                         RULES_UPGRADE_REJECTED, RULES_UPGRADE_EXPIRED, RULES_UPGRADED})

PLATFORM = "platform"
GAME = "game"

STAND_IN_STARTED = "stand_in_started"
STAND_IN_ENDED = "stand_in_ended"
