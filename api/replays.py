"""``POST /v1/replays``: import an exported log and verify it (hash chain, seed
commitment, every command re-decided from the revealed seed, same result)."""
from __future__ import annotations

from flask import Blueprint, jsonify

from api import schemas
from api.runtime import service

bp = Blueprint("replays", __name__, url_prefix="/v1/replays")


@bp.post("")
def verify_log():
    """``{"valid", "version", "result", "errors"}``; a log that fails verification is a
    200 with ``valid: false`` (a malformed one is a 400/422 problem)."""
    return jsonify(service().verify(schemas.match_log()))
