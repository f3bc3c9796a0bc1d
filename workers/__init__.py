"""RQ job functions and the worker process: projections, the reconciler, deadlines, notifications."""
