"""The reference web client: its static files (``api/web/``, package data) served at ``/``.

``GET /`` is the client's page (lobby, play, spectate, replay — a hash router in
``web/js/app.js``); ``GET /web/<path>`` its ES modules, CSS and licence texts. The client
talks to the server only through the public ``/v1`` API, on the same origin. Files are
looked up by name inside ``api/web`` only (no path outside it is ever served) and sent with
their ETag and ``Cache-Control: no-cache`` (revalidated on every load, so a new release is
picked up at once).

Every file (and its 304) carries :data:`SECURITY_HEADERS`: the page keeps seat tokens in
``localStorage``, so an injected script could read every one. The Content-Security-Policy
allows scripts, styles, fetches and the event stream from this origin only, no inline
script or style (``api/web/*.html`` has none: no ``<script>`` without ``src``, no ``on*``
handler attribute, no ``javascript:`` URL, no ``<style>`` or ``style`` attribute; a test
checks), no plugins, no ``<base>`` rewriting, and no framing (``frame-ancestors 'none'``,
with ``X-Frame-Options: DENY`` for browsers before CSP level 2: no click-jacking of the
move buttons); ``X-Content-Type-Options: nosniff`` (a file is only ever run as the type it
is served as); ``Referrer-Policy: no-referrer`` (the page's URL, which names the match, is
never sent to another site).
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_file

from api.errors import Problem

bp = Blueprint("webclient", __name__)

#: the client's files in the source tree and in an installed package alike
WEB_DIR = Path(__file__).resolve().parent / "web"
#: served file types: suffix -> media type
MEDIA_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".txt": "text/plain",
}


def _file(relative: str) -> Path:
    """The file ``relative`` under :data:`WEB_DIR`; 404 ``not_found`` for anything else
    (a missing file, a directory, a path leaving the folder, an unserved suffix, and a name
    the file system cannot hold: a NUL byte, a name longer than the system allows)."""
    try:
        candidate = (WEB_DIR / relative).resolve()
        found = (
            WEB_DIR in candidate.parents and candidate.suffix in MEDIA_TYPES and candidate.is_file()
        )
    except (ValueError, OSError):  # "embedded null byte", ENAMETOOLONG, ...
        found = False
    if not found:
        raise Problem(404, "not_found", "There is no such file of the web client.")
    return candidate


#: The Content-Security-Policy of the client's files (CSP Level 3; ``data:`` images: the
#: page's empty ``<link rel="icon" href="data:,">``).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ]
)
#: Response headers of every file of the client (see the module docstring).
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def _send(path: Path):
    """The file at ``path`` (conditional: ETag, 304) with :data:`SECURITY_HEADERS`."""
    response = send_file(
        path, mimetype=MEDIA_TYPES[path.suffix], conditional=True, etag=True, max_age=None
    )
    response.headers["Cache-Control"] = "no-cache"
    response.headers.update(SECURITY_HEADERS)
    return response


@bp.get("/")
def index():
    """The web client's page (``web/index.html``)."""
    return _send(_file("index.html"))


@bp.get("/web/<path:path>")
def asset(path: str):
    """One file of the web client (``web/js/app.js``, ``web/css/app.css``, ...)."""
    return _send(_file(path))
