"""The web client is served by the API at ``/`` (its files ship inside the ``api``
package), and ``GET …/state?seat=`` gives a finished match's seat views to anyone."""

from __future__ import annotations

import random
import tomllib
from fnmatch import fnmatch
from html.parser import HTMLParser
from pathlib import Path

from api.webclient import WEB_DIR
from tests.e2e.http_helpers import create, play_until_finished, tokens_of

ROOT = Path(__file__).resolve().parents[2]


def test_the_lobby_page_and_its_modules_are_served(http):
    status, headers, page = http.get("/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert '<script type="module" src="/web/js/app.js">' in page
    for path, media in (
        ("/web/js/app.js", "text/javascript"),
        ("/web/css/app.css", "text/css"),
        ("/web/js/boards/aipokalypse.js", "text/javascript"),
    ):
        status, headers, body = http.get(path)
        assert status == 200 and headers["Content-Type"].startswith(media), path
        assert headers["Cache-Control"] == "no-cache" and headers["ETag"]


def test_no_file_outside_the_client_is_served(http):
    for path in (
        "/web/../app.py",
        "/web/%2e%2e/app.py",
        "/web/js",
        "/web/nope.js",
        "/web/../../pyproject.toml",
        "/web/js/../../webclient.py",
        # names the file system cannot hold (were 500: "embedded null byte",
        # ENAMETOOLONG) — a 255-character name is a plain miss
        "/web/index.html%00.js",
        "/web/%00",
        "/web/js/%00x",
        "/web/" + "a" * 300,
        "/web/js/" + "b" * 255 + ".js",
    ):
        status, headers, body = http.get(path)
        assert status == 404, path
        assert headers["Content-Type"].startswith("application/problem+json"), path


def test_every_client_file_is_package_data():
    """``pip install .`` ships the client: each file matches a package-data glob of ``api``."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["api"]
    files = [p.relative_to(WEB_DIR.parent).as_posix() for p in WEB_DIR.rglob("*") if p.is_file()]
    assert files
    for name in files:
        assert any(fnmatch(name, g) and name.count("/") == g.count("/") for g in globs), name


def test_the_client_uses_only_the_public_api():
    """No private endpoints: every path the modules call is an ``/v1`` path of openapi.yaml."""
    text = "\n".join(p.read_text() for p in WEB_DIR.rglob("*.js"))
    assert "/internal" not in text and "/admin" not in text
    # no CDN, same origin only (an XML namespace name is an identifier, not a request)
    text = text.replace('"http://www.w3.org/2000/svg"', "")
    assert "http://" not in text and "https://" not in text


def test_a_finished_matchs_seat_views_are_open_to_anyone(http):
    created = create(
        http,
        [{"kind": "human"}, {"kind": "human"}],
        "ai-100-human",
        options={"objectives": "starter"},
    )
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


def test_the_clients_files_carry_security_headers(http):
    """Seat tokens live in the page's localStorage: a CSP without inline script, no
    framing, nosniff and no referrer on the page, its modules, its CSS and their 304s."""
    for path in ("/", "/web/js/app.js", "/web/css/app.css", "/web/js/boards/aipokalypse.js"):
        status, headers, _ = http.get(path)
        assert status == 200, path
        for answer in (headers, http.get(path, headers={"If-None-Match": headers["ETag"]})[1]):
            policy = {
                d.split()[0]: d.split()[1:]
                for d in answer["Content-Security-Policy"].split(";")
                if d.strip()
            }
            assert policy["default-src"] == ["'none'"] and policy["script-src"] == ["'self'"]
            assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
            assert not any("unsafe" in v for values in policy.values() for v in values)
            assert answer["X-Content-Type-Options"] == "nosniff"
            assert answer["Referrer-Policy"] == "no-referrer"
            assert answer["X-Frame-Options"] == "DENY"


class _InlineFinder(HTMLParser):
    """Collects what a strict CSP would refuse in an HTML file: inline ``<script>``,
    ``on*`` handler attributes, ``javascript:`` URLs, ``<style>`` elements and ``style``
    attributes."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script" and not names.get("src"):
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"handler attribute {name}")
            if name == "style":
                self.found.append("style attribute")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: URL in {name}")


def test_the_html_files_have_no_inline_script_or_style():
    pages = sorted(WEB_DIR.glob("*.html"))
    assert pages
    for page in pages:
        finder = _InlineFinder()
        finder.feed(page.read_text())
        assert finder.found == [], (page.name, finder.found)
