"""`turnstream bench`: the benchmark machinery, kept apart from the HTTP edge (one module per figure family).

command.py holds the options and runs the chosen benchmark; common.py what the benchmarks share (progress,
percentiles, the games, the worker process that worker.py runs); nothing shared imports a benchmark."""
