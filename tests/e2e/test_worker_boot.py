"""A game package that does not load stops gunicorn at boot, with the error, instead of
serving 500s: ``api.gunicorn_config.post_worker_init`` loads the catalogue
(``api.runtime.warm``) before a worker accepts, so the failure is gunicorn's "Worker failed
to boot" (the master exits with status 3) and the worker's traceback names the cause."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: gunicorn's exit status when a worker fails before it booted (``Arbiter.WORKER_BOOT_ERROR``)
WORKER_BOOT_ERROR = 3
#: seconds the master gets to give up (it needs about 5; never reached when it works)
EXIT_WITHIN_S = 180


def test_a_game_package_that_does_not_load_stops_gunicorn_at_boot(tmp_path):
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text(
        'raise RuntimeError("brokengame: its card data does not load")\n'
    )
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env.update(
        ARENA_GAME_PACKAGES="brokengame",  # it exists, so the master's settings check passes
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:api.gunicorn_config",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "1",
            "api.app:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        _, stderr = process.communicate(timeout=EXIT_WITHIN_S)
    except subprocess.TimeoutExpired:
        process.kill()
        _, stderr = process.communicate()
        raise AssertionError(
            "gunicorn kept serving with a game package that does not load:\n"
            + stderr.decode(errors="replace")[-2000:]
        ) from None
    log = stderr.decode(errors="replace")
    assert process.returncode == WORKER_BOOT_ERROR, log[-2000:]
    assert "Worker failed to boot" in log
    assert "brokengame: its card data does not load" in log
    assert "post_worker_init" in log  # failed in the warm-up, before accepting any request
