"""`turnstream bench`: the benchmark machinery, kept apart from the HTTP edge (one module per figure family)."""
