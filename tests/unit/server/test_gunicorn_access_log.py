"""The Procfile server's gunicorn logger gathers no access-line atoms per request unless an access log is configured
(the service writes its own request line, service/logs.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CHECK = """
import runpy
from gunicorn.config import Config
conf = runpy.run_path("service/server/gunicorn_conf.py")
for accesslog in (None, "-"):
    cfg = Config()
    cfg.set("logconfig_dict", conf["logconfig_dict"])  # as the Procfile's server has it
    cfg.set("accesslog", accesslog)
    log = conf["logger_class"](cfg)
    gathered = []
    log.atoms = lambda *args: gathered.append(args) or {}
    log.access(None, None, {}, None)
    print(accesslog, len(gathered))
"""


def test_no_access_atoms_without_an_access_log(tmp_path):
    """Without `accesslog` a request's atoms are never gathered; with one, gunicorn's own line is written."""
    env = dict(os.environ, PROMETHEUS_MULTIPROC_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["None 0", "- 1"]
