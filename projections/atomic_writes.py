"""Many writes in one atomic Lua call: the commands a MULTI would queue, recorded and run by one EVALSHA.

A projection batch writes rows, a checkpoint, indexes, inboxes and the change feed: about sixteen commands
for one match. In a MULTI the client packs each command and parses two replies for it (QUEUED, then its
EXEC result): most of a worker's CPU per batch. Here the same command methods (`set`, `zadd`, `zrem`,
`xadd`: redis-py's own, which only build the arguments) record each command, and `execute` sends them all
as the arguments of one script, which runs them in order, atomically, and answers one integer.
On a single Redis only: a cluster's script may touch only the keys of one slot.
"""
from __future__ import annotations

from redis.commands.core import CoreCommands

# ARGV: for each command, its argument count and then its arguments; every command is run as given
RUN_ALL = """
local i, n = 1, 0
while i <= #ARGV do
  local count = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + count))
  i = i + count + 1
  n = n + 1
end
return n
"""


class AtomicWrites(CoreCommands):
    """Queue write commands as a pipeline does (same methods, replies ignored), then run them in one script."""

    def __init__(self, redis_client):
        self.script = redis_client.register_script(RUN_ALL)
        self.args: list = []
        self.count = 0

    def execute_command(self, *args, **options):
        """Record one command (the command methods of redis-py call this with its arguments)."""
        self.args.append(len(args))
        self.args.extend(args)
        self.count += 1
        return self

    def execute(self) -> int:
        """Run every recorded command, in order, in one atomic call; return how many ran."""
        if not self.count:
            return 0
        args, self.args, self.count = self.args, [], 0
        return self.script(args=args)
