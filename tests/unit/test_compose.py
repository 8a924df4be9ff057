"""compose.yaml: restart policies and health checks for every service, Redis with AOF on,
the worker's health check is `arena worker --check` (whose verdict is tested here too)."""

import json
import time
from pathlib import Path

import yaml
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_every_service_restarts_and_has_a_health_check():
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    assert set(services) == {"redis", "api", "worker", "proxy"}
    for name, service in services.items():
        assert service["restart"] == "unless-stopped", name
        assert service["healthcheck"]["test"][0] == "CMD", name
    redis_command = services["redis"]["command"]
    assert redis_command[redis_command.index("--appendonly") + 1] == "yes"
    assert services["worker"]["healthcheck"]["test"] == ["CMD", "arena", "worker", "--check"]
    assert "/healthz" in " ".join(services["api"]["healthcheck"]["test"])
    for name in ("api", "worker"):
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"


def test_clients_reach_the_api_through_the_nginx_proxy_only():
    """gunicorn's threads must only see whole requests (slow clients: README "Docker
    Compose"): the proxy publishes the port, runs the shipped template, and the API trusts
    the one X-Forwarded-For entry it appends."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    proxy, api = services["proxy"], services["api"]
    assert proxy["image"].startswith("nginx:") and "ports" not in api
    assert proxy["ports"] == ["127.0.0.1:8000:8000"]
    mount = "./deploy/nginx/arena.conf.template:/etc/nginx/templates/default.conf.template:ro"
    assert mount in proxy["volumes"] and (ROOT / "deploy/nginx/arena.conf.template").is_file()
    assert proxy["environment"]["ARENA_UPSTREAM"] == "api:8000"
    assert api["environment"]["ARENA_TRUSTED_PROXIES"] == "1"
    assert proxy["depends_on"]["api"]["condition"] == "service_healthy"


def _check(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        main,
        ["worker", "--check"],
        env={"ARENA_WORKER_HEARTBEAT_FILE": str(path), "ARENA_WORKER_LEASE_S": "3"},
    )
    return result.exit_code, result.output


def test_worker_check_passes_on_a_fresh_beat_that_reached_redis_only(tmp_path):
    beat = tmp_path / "beat"
    assert _check(beat)[0] == 1  # no worker ever beat here
    beat.write_text(json.dumps({"at": time.time(), "redis": "ok"}))
    assert _check(beat)[0] == 0
    beat.write_text(json.dumps({"at": time.time(), "redis": "down"}))
    code, output = _check(beat)
    assert code == 1 and "unreachable" in output
    beat.write_text(json.dumps({"at": time.time() - 60, "redis": "ok"}))  # the worker hung/died
    assert _check(beat)[0] == 1
