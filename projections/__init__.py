"""Read models: pure fold functions from a match to its read-model rows, and their Redis writers/readers."""
