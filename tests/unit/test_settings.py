"""Issue 18 item 5: every environment variable is parsed when a process starts; a bad value
stops it before it serves, with one line naming the variable, the value and what is
accepted; the docs table is generated from the parsers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from api.app import create_app
from api.config_table import DOC, render
from api.settings import SETTINGS as API_SETTINGS
from service.bootstrap import build_service
from service.config import Config
from service.settings import SERVICE, ConfigError

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("api", "service", "workers", "cli", "domain")
#: Names matching the variable pattern that are not environment variables.
NOT_VARIABLES = {"REDIS_CLUSTER_HASH_SLOTS"}
#: read by the ``arena`` client commands (not the service), documented in docs/cli.md
CLIENT_VARIABLES = {"ARENA_URL", "ARENA_PLAYER_KEY", "ARENA_CLI_TIMEOUT_S"}


def _one_line(text: str, name: str, value: str) -> None:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert name in lines[0] and repr(value) in lines[0] and "accepted" in lines[0], text


@pytest.mark.parametrize(
    "name, value",
    [
        ("ARENA_SNAPSHOT_EVERY", "abc"),
        ("ARENA_SNAPSHOT_EVERY", "0"),
        ("ARENA_RECONCILE_S", "nan"),
        ("ARENA_COMPACTION", "maybe"),
        ("ARENA_REDIS_CLUSTER", "maybe"),
        ("REDIS_URL", "localhost:6379"),
        ("ARENA_KEY_PREFIX", "a{b}"),
        ("ARENA_ARCHIVE_URL", "mysql://x"),
        ("ARENA_LOG_FORMAT", "xml"),
        ("ARENA_ENGINES", "not a path"),
    ],
)
def test_a_bad_service_value_is_one_config_error_naming_it(name, value):
    with pytest.raises(ConfigError) as caught:
        Config.from_env({name: value})
    _one_line(str(caught.value), name, value)


def test_zero_replicas_to_wait_for_is_accepted_as_the_default_is():
    assert Config.from_env({"ARENA_REDIS_WAIT_REPLICAS": "0"}).wait_replicas == 0


@pytest.mark.parametrize(
    "name, value",
    [
        ("ARENA_RATE_LIMITS", "lots"),
        ("ARENA_CREATE_RATE_LIMITS", "often"),
        ("ARENA_TRUSTED_PROXIES", "x"),
        ("ARENA_TRUSTED_PROXIES", "-1"),
        ("ARENA_RATE_LIMIT_STRATEGY", "leaky"),
        ("ARENA_RATE_LIMIT_STORAGE", "nowhere"),
        ("ARENA_RATE_LIMITS_ENABLED", "sometimes"),
        # a file, and a path no directory can be made at (a traceback from gunicorn's
        # on_starting before; probe finding)
        ("PROMETHEUS_MULTIPROC_DIR", str(ROOT / "pyproject.toml")),
        ("PROMETHEUS_MULTIPROC_DIR", "/proc/arena-no-such-dir"),
    ],
)
def test_the_app_refuses_a_bad_api_value_when_it_is_created(monkeypatch, name, value):
    """Today ARENA_RATE_LIMITS=lots builds an app that answers 500 to every /v1 request
    and ARENA_TRUSTED_PROXIES=x raises a bare ValueError."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        create_app(build_service(Config(key_prefix="cfgcheck")))
    _one_line(str(caught.value), name, value)


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not (k.startswith("ARENA_") or k in ("REDIS_URL", "RQ_REDIS_URL"))
    }
    clean.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run(args, cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "args, name, value",
    [
        (["serve", "--port", "0"], "ARENA_RATE_LIMITS", "lots"),
        (["serve", "--port", "0"], "ARENA_SNAPSHOT_EVERY", "abc"),
        (["serve", "--port", "0"], "ARENA_TRUSTED_PROXIES", "x"),
        (["worker", "--burst"], "ARENA_SNAPSHOT_EVERY", "abc"),
        (["worker", "--check"], "ARENA_WORKER_LEASE_S", "soon"),
        (["serve", "--port", "0"], "ARENA_GAME_PACKAGES", "no_such_games"),
        (["worker", "--burst"], "ARENA_GAME_PACKAGES", "examples.nothing"),
        (["play", "--game", "ai-100-human"], "ARENA_SNAPSHOT_EVERY", "abc"),
    ],
)
def test_arena_commands_exit_non_zero_with_one_line_before_serving(args, name, value):
    done = _run(
        [sys.executable, "-c", "from cli.main import main; main()", *args],
        REDIS_URL="redis://127.0.0.1:1/0",
        **{name: value},
    )
    assert done.returncode != 0
    _one_line(done.stderr, name, value)


def test_gunicorn_with_the_shipped_config_exits_non_zero_with_one_line():
    done = _run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:api.gunicorn_config",
            "--bind",
            "127.0.0.1:0",
            "api.app:create_app()",
        ],
        REDIS_URL="redis://127.0.0.1:1/0",
        ARENA_RATE_LIMITS="lots",
    )
    assert done.returncode != 0
    _one_line(done.stderr, "ARENA_RATE_LIMITS", "lots")


def test_every_variable_the_code_reads_is_in_the_table():
    table = {setting.name for setting in (*SERVICE, *API_SETTINGS)}
    found = set()
    for package in SOURCES:
        for path in (ROOT / package).rglob("*.py"):
            found |= set(
                re.findall(
                    r"\b(?:ARENA|REDIS|RQ|PROMETHEUS)_[A-Z_]+\b", path.read_text(encoding="utf-8")
                )
            )
    assert found - NOT_VARIABLES - CLIENT_VARIABLES - table == set()
    cli_doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert all(name in cli_doc for name in CLIENT_VARIABLES)
    assert len(table) == len(SERVICE) + len(API_SETTINGS)  # no name twice


def test_the_docs_table_is_generated_from_the_parsers():
    current = DOC.read_text(encoding="utf-8")
    assert render(current) == current, "docs/configuration.md is stale: python -m api.config_table"
    for setting in (*SERVICE, *API_SETTINGS):
        assert f"| `{setting.name}` |" in current
