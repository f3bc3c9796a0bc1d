"""The process's open-file limit: every open live stream is a socket."""
from __future__ import annotations

import resource


def raise_open_files(wanted: int) -> int:
    """Raise this process's open-file limit to at least `wanted` where allowed (a privileged process may raise
    its hard limit up to the kernel's fs.nr_open), and its soft limit to its hard one; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if wanted > hard:
        try:
            with open("/proc/sys/fs/nr_open") as f:
                ceiling = int(f.read())
        except (OSError, ValueError):
            ceiling = hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, ceiling), min(wanted, ceiling)))
        except (ValueError, OSError):
            pass  # not privileged: the hard limit is as far as this process may go
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def open_files() -> int:
    """This process's soft open-file limit."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


FILES_KEPT_FREE = 1024  # open files a web process keeps for Redis, commands and pages beside its live streams


def stream_cap(streams_per_process: int) -> int:
    """The live streams one web process may hold: the setting, within its open-file limit (a stream is a socket)."""
    return min(streams_per_process, max(64, open_files() - FILES_KEPT_FREE))
