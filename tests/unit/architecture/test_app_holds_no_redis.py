"""The use cases speak to ports, the store speaks Redis: no service/app module names a Redis module, a key or
the connections, nor calls a Redis command on a client or a pipeline."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
APP = ROOT / "service" / "app"  # every module of the use cases (their stores: service/store/*.py)
COMMANDS = {"pipeline", "execute", "get", "set", "delete", "exists", "expire", "pexpire", "hget", "hset",
            "hgetall", "hmget", "hsetnx", "hdel", "hincrby", "zadd", "zrem", "zrange", "zrangebylex",
            "zrangebyscore", "zrevrangebyscore", "zscore", "zcard", "sadd", "srem", "smembers", "xadd", "xread",
            "xrange", "xrevrange", "scan_iter", "eval", "evalsha", "register_script", "publish", "incr", "setnx"}
REDIS_MODULES = ("redis", "fakeredis")  # with their submodules
STORE_INSIDES = ("service.store.keys", "service.store.connections")  # key names and connections: the store's


def redis_uses(source: str) -> list:
    """What in a module's source speaks Redis: imports of a Redis module or the key names, and calls of a Redis
    command on an attribute (`self.r.hget(...)`; `self.records.get(...)` of a port is fine: not on `.r`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"import {n}" for n in names if n.split(".")[0] in REDIS_MODULES or n in STORE_INSIDES]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in COMMANDS:
            target = node.func.value
            if isinstance(target, ast.Attribute) and target.attr in ("r", "redis") or \
                    isinstance(target, ast.Name) and target.id in ("r", "redis", "pipe", "redis_client"):
                found.append(f"{ast.unparse(node.func)}() line {node.lineno}")
    return found


def test_the_use_cases_hold_no_redis():
    """Each module of service/app is free of Redis."""
    found = {str(path.relative_to(ROOT)): redis_uses(path.read_text()) for path in sorted(APP.rglob("*.py"))}
    assert len(found) > 20 and {path: uses for path, uses in found.items() if uses} == {}


def test_the_checker_finds_redis():
    """An import of redis or of the key names, and a command on a client or a pipeline, are found."""
    source = ("import redis\nfrom service.store.keys import Keys\n"
              "def f(self, pipe):\n    self.r.hget('k', 'f')\n    pipe.zadd('k', {})\n    self.records.get('u')\n")
    assert redis_uses(source) == ["import redis", "import service.store.keys", "self.r.hget() line 4",
                                  "pipe.zadd() line 5"]
