"""The reference web client: its static files (``api/web/``, package data) served at ``/``.

``GET /`` is the client's page (lobby, play, spectate, replay — a hash router in
``web/js/app.js``); ``GET /web/<path>`` its ES modules, CSS and licence texts. The client
talks to the server only through the public ``/v1`` API, on the same origin. Files are
looked up by name inside ``api/web`` only (no path outside it is ever served) and sent with
their ETag and ``Cache-Control: no-cache`` (revalidated on every load, so a new release is
picked up at once).
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_file

from api.errors import Problem

bp = Blueprint("webclient", __name__)

#: the client's files in the source tree and in an installed package alike
WEB_DIR = Path(__file__).resolve().parent / "web"
#: served file types: suffix -> media type
MEDIA_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
               ".svg": "image/svg+xml", ".txt": "text/plain"}


def _file(relative: str) -> Path:
    """The file ``relative`` under :data:`WEB_DIR`; 404 ``not_found`` for anything else
    (a missing file, a directory, a path leaving the folder, an unserved suffix, and a name
    the file system cannot hold: a NUL byte, a name longer than the system allows)."""
    try:
        candidate = (WEB_DIR / relative).resolve()
        found = (WEB_DIR in candidate.parents and candidate.suffix in MEDIA_TYPES
                 and candidate.is_file())
    except (ValueError, OSError):   # "embedded null byte", ENAMETOOLONG, ...
        found = False
    if not found:
        raise Problem(404, "not_found", "There is no such file of the web client.")
    return candidate


def _send(path: Path):
    response = send_file(path, mimetype=MEDIA_TYPES[path.suffix], conditional=True,
                         etag=True, max_age=None)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/")
def index():
    """The web client's page (``web/index.html``)."""
    return _send(_file("index.html"))


@bp.get("/web/<path:path>")
def asset(path: str):
    """One file of the web client (``web/js/app.js``, ``web/css/app.css``, ...)."""
    return _send(_file(path))
