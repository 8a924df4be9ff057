"""Issue 18 item 9: reproducible images. Majors of runtime dependencies bounded, one
constraints file (exact versions) used by the Dockerfile and scripts/test, a HEALTHCHECK
and a .dockerignore, and what only the CLI or the tests need kept out of the server image
(which must still run the API and `arena worker`). No Docker engine here: checked
statically, and the server's imports are run with the extras made unimportable."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
#: What the server image must not need.
CLI_ONLY = {"rich", "requests", "fakeredis", "yaml"}


def _pins() -> dict[str, Version]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not an exact pin"
            pins[canonicalize_name(name)] = Version(version)
    return pins


def test_runtime_dependencies_have_bounded_majors():
    for text in PROJECT["dependencies"]:
        requirement = Requirement(text)
        assert any(spec.operator in ("<", "==", "~=") for spec in requirement.specifier), text


def test_the_constraints_pin_every_dependency_within_its_bounds():
    pins = _pins()
    extras = PROJECT["optional-dependencies"]
    for text in [*PROJECT["dependencies"], *extras["cli"], *extras["test"]]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name}=={pins[name]} outside {requirement.specifier}"
        )


def test_the_cli_extra_holds_what_the_server_image_does_not_need():
    cli = {canonicalize_name(Requirement(t).name) for t in PROJECT["optional-dependencies"]["cli"]}
    runtime = {canonicalize_name(Requirement(t).name) for t in PROJECT["dependencies"]}
    assert {"rich", "requests", "fakeredis"} <= cli
    assert not (cli | {"pyyaml", "pytest"}) & runtime


def test_the_dockerfile_installs_the_constraints_and_has_a_liveness_healthcheck():
    dockerfile = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # joined lines
    assert re.search(r"^COPY [^\n]*constraints\.txt", dockerfile, re.M)
    install = re.search(r"^RUN pip install (.*)$", dockerfile, re.M).group(1)
    assert "-c constraints.txt" in install and "[" not in install.split("&&")[0]  # no extras
    healthcheck = re.search(r"^HEALTHCHECK (.*)$", dockerfile, re.M).group(1)
    assert "/livez" in healthcheck and "CMD" in healthcheck
    cmd = re.search(r"^CMD (.*)$", dockerfile, re.M).group(1)
    assert "python:api.gunicorn_config" in cmd and "--access-logfile" not in cmd
    compose = (ROOT / "compose.yaml").read_text()
    assert "python:api.gunicorn_config" in compose and "--access-logfile" not in compose


def test_the_dockerignore_keeps_the_build_context_small():
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".venv", "tests", "benchmarks", "**/__pycache__"} <= ignored
    copied = re.findall(r"^COPY (\S+)", (ROOT / "Dockerfile").read_text(), re.M)
    assert not set(copied) & ignored


def test_scripts_test_installs_the_constraints_and_every_extra_the_suite_needs():
    script = (ROOT / "scripts" / "test").read_text()
    assert "pip install -q -c constraints.txt -e '.[test,cli]'" in script


BLOCKER = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in CLI_ONLY:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
""".replace("CLI_ONLY", repr(CLI_ONLY))


def _without_extras(code: str, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env.update(PYTHONPATH=str(ROOT), REDIS_URL="redis://127.0.0.1:1/0")
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_server_and_the_worker_run_without_the_cli_extra():
    app = _without_extras(
        "from api.app import create_app; import api.gunicorn_config; print(create_app().name)"
    )
    assert app.returncode == 0, app.stderr
    for command in (["worker", "--help"], ["serve", "--help"]):
        done = _without_extras("from cli.main import main; main()", *command)
        assert done.returncode == 0, done.stderr
    play = _without_extras("from cli.main import main; main()", "play", "--help")
    assert play.returncode == 1 and "pip install 'apocalypse-arena[cli]'" in play.stderr
