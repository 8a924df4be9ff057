"""The documentation stays whole: the MkDocs site under ``docs/`` builds in strict mode (a
broken link or anchor, or a page missing from the navigation, fails), the README stays a
short front page whose two commands exist, the relative links of the Markdown files
outside the site name files that exist, and every path in the architecture page's code
map exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Markdown files outside ``docs/`` whose relative links are checked here (MkDocs checks
#: the site's own)
OUTSIDE = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "benchmarks/README.md")
README_MAX_BYTES = 8 * 1024
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_CODE_PATH = re.compile(
    r"`((?:api|cli|domain|service|workers|tests|benchmarks|scripts)/[\w/.<>-]*)`"
)
GAMES = ("ai_100_human", "aipokalypse", "dead_apocalypse")


def relative_links(text: str) -> list[str]:
    """The link targets of Markdown ``text`` that are relative paths (no scheme, no
    ``mailto:``, no bare ``#anchor``), without their ``#anchor`` part."""
    targets = []
    for target in _LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


# No ``--quiet``: MkDocs 1.6 then drops warnings before strict mode counts them, and a
# broken link builds with status 0.
def test_the_site_builds_in_strict_mode(tmp_path):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "site" / "walkthrough" / "index.html").is_file()


def test_a_strict_build_fails_on_a_broken_link(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the missing page](missing.md).\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:")[0]
        + "\nnav:\n  - Home: index.md\n"
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(config),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode != 0
    assert "missing.md" in run.stdout + run.stderr


def test_the_readme_is_short_and_its_two_commands_exist():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= README_MAX_BYTES
    block = re.search(r"## Two commands\n.*?^```console\n(.*?)^```$", text, flags=re.S | re.M)
    assert block is not None
    commands = [line.split()[0] for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["./scripts/serve", "./scripts/test"]
    for command in commands:
        script = ROOT / command
        assert script.is_file() and script.stat().st_mode & 0o111, command


@pytest.mark.parametrize("name", OUTSIDE)
def test_relative_links_outside_the_site_name_files_that_exist(name):
    page = ROOT / name
    targets = relative_links(page.read_text(encoding="utf-8"))
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert not missing, missing


def test_every_path_of_the_architecture_page_exists():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    paths = set(_CODE_PATH.findall(text))
    assert len(paths) >= 20
    missing = []
    for path in sorted(paths):
        for concrete in [path.replace("<game>", g) for g in GAMES] if "<game>" in path else [path]:
            if not (ROOT / concrete).exists():
                missing.append(concrete)
    assert not missing, missing


def test_the_web_client_page_shows_every_committed_screenshot():
    page = (ROOT / "docs" / "web-client.md").read_text(encoding="utf-8")
    shots = sorted(p.name for p in (ROOT / "docs" / "screenshots").glob("*.png"))
    assert shots
    assert [name for name in shots if f"](screenshots/{name})" not in page] == []


def test_relative_links_skip_urls_and_anchors():
    assert relative_links("[a](docs/x.md#y) [b](https://e.org/) [c](#z) [d](mailto:a@b)") == [
        "docs/x.md"
    ]
