"""The web client is served by the API at ``/`` (its files ship inside the ``api``
package), and ``GET …/state?seat=`` gives a finished match's seat views to anyone."""
from __future__ import annotations

import random
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from api.webclient import WEB_DIR
from tests.e2e.http_helpers import create, play_until_finished, tokens_of

ROOT = Path(__file__).resolve().parents[2]


def test_the_lobby_page_and_its_modules_are_served(http):
    status, headers, page = http.get("/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert '<script type="module" src="/web/js/app.js">' in page
    for path, media in (("/web/js/app.js", "text/javascript"), ("/web/css/app.css", "text/css"),
                        ("/web/js/boards/aipokalypse.js", "text/javascript")):
        status, headers, body = http.get(path)
        assert status == 200 and headers["Content-Type"].startswith(media), path
        assert headers["Cache-Control"] == "no-cache" and headers["ETag"]


def test_no_file_outside_the_client_is_served(http):
    for path in ("/web/../app.py", "/web/%2e%2e/app.py", "/web/js", "/web/nope.js",
                 "/web/../../pyproject.toml", "/web/js/../../webclient.py",
                 # names the file system cannot hold (were 500: "embedded null byte",
                 # ENAMETOOLONG) — a 255-character name is a plain miss
                 "/web/index.html%00.js", "/web/%00", "/web/js/%00x", "/web/" + "a" * 300,
                 "/web/js/" + "b" * 255 + ".js"):
        status, headers, body = http.get(path)
        assert status == 404, path
        assert headers["Content-Type"].startswith("application/problem+json"), path


def test_every_client_file_is_package_data():
    """``pip install .`` ships the client: each file matches a package-data glob of ``api``."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["api"]
    files = [p.relative_to(WEB_DIR.parent).as_posix() for p in WEB_DIR.rglob("*") if p.is_file()]
    assert files
    for name in files:
        assert any(fnmatch(name, g) and name.count("/") == g.count("/") for g in globs), name


def test_the_client_uses_only_the_public_api():
    """No private endpoints: every path the modules call is an ``/v1`` path of openapi.yaml."""
    text = "\n".join(p.read_text() for p in WEB_DIR.rglob("*.js"))
    assert "/internal" not in text and "/admin" not in text
    assert "http://" not in text and "https://" not in text     # no CDN, same origin only


def test_a_finished_matchs_seat_views_are_open_to_anyone(http):
    created = create(http, [{"kind": "human"}, {"kind": "human"}], "ai-100-human",
                     options={"objectives": "starter"})
    match_id, tokens = created["match_id"], tokens_of(created)
    # while running: only the seat itself
    status, _, body = http.get(f"/v1/matches/{match_id}/state?version=3&seat=1")
    assert status == 403 and body["code"] == "forbidden"
    status, _, own = http.get(f"/v1/matches/{match_id}/state?version=3&seat=1", tokens[1])
    assert status == 200 and own["view"]["you"]["seat"] == 1
    status, _, body = http.get(f"/v1/matches/{match_id}/state?version=3&seat=0", tokens[1])
    assert status == 403
    final = play_until_finished(http, match_id, tokens, random.Random(3))
    version = final["version"] - 5
    status, _, anyone = http.get(f"/v1/matches/{match_id}/state?version={version}&seat=1")
    status2, _, seat = http.get(f"/v1/matches/{match_id}/state?version={version}", tokens[1])
    assert status == status2 == 200 and anyone["view"] == seat["view"]
    status, _, body = http.get(f"/v1/matches/{match_id}/state?version={version}&seat=7")
    assert status == 404
    status, _, body = http.get(f"/v1/matches/{match_id}/state?version={version}&seat=-1")
    assert status == 400
