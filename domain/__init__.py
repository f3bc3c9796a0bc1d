"""Pure domain: the game-agnostic match engine and the game rules modules (no I/O, no clock, no randomness)."""
