"""``/v1/players`` (issue 22): create a player, rotate its key, its profile and match history.

The player key appears only in the answers of ``POST /v1/players`` and
``POST /v1/players/{id}/key`` (``Cache-Control: private, no-store`` like every POST) and
is never logged (:mod:`api.request_id` records the path and query only). Profiles and
histories hold only public facts: names, ids, results, ratings; never a seat token, key or
hidden card.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, url_for

from api import schemas
from api.auth import bearer_token
from api.errors import Problem
from api.runtime import service
from service.match_service import is_player_key

bp = Blueprint("players", __name__, url_prefix="/v1/players")

_CHALLENGE = 'Bearer realm="apocalypse-arena"'


@bp.post("")
def create_player():
    """A new player: 201 ``{"player_id", "name", "created_at", "key"}`` (the key shown
    once; send it as ``Authorization: Bearer`` on create and join)."""
    body = schemas.load(schemas.CreatePlayerSchema, schemas.json_body())
    player = service().create_player(body["name"])
    response = jsonify(player)
    response.status_code = 201
    response.headers["Location"] = url_for("players.get_player", player_id=player["player_id"])
    return response


@bp.post("/<player_id>/key")
def rotate_key(player_id: str):
    """A new key for the player (authenticated by its current key, which stops working):
    ``{"player_id", "key"}``. The body is empty or ``{}``, read as every POST's: 415
    ``unsupported_media_type``, 400 ``malformed_json`` / ``validation_error``, and the key
    stays (a probe's junk bodies rotated it)."""
    schemas.check_player_id(player_id)
    token = bearer_token()
    if token is None:
        raise Problem(
            401,
            "missing_token",
            "Send the player's current key as a bearer token.",
            headers={"WWW-Authenticate": _CHALLENGE},
        )
    schemas.load(schemas.EmptyBodySchema, schemas.json_body(optional=True))
    return jsonify(service().rotate_player_key(player_id, token))


@bp.get("/<player_id>")
def get_player(player_id: str):
    """The player's public profile: matches played and won per game and mode, ratings
    with their curves."""
    return jsonify(service().player_profile(schemas.check_player_id(player_id)))


@bp.get("/<player_id>/matches")
def player_matches(player_id: str):
    """One page of the player's matches, newest first (``next_cursor``), filtered. With the
    player's own key as bearer token its unlisted matches are listed too (another player's
    key or a seat token: the public page; a player key that is no player's current key: 401
    ``invalid_player_key``)."""
    schemas.check_player_id(player_id)
    q = schemas.query(schemas.PlayerMatchesQuerySchema)
    token = bearer_token()  # a seat token is no player's: the public page
    own = is_player_key(token) and service().player_of_key(str(token)) == player_id
    return jsonify(
        service().player_matches(
            player_id,
            own=own,
            game=q["game"],
            mode=q["mode"],
            status=q["status"],
            rated=q["rated"],
            cursor=q["cursor"],
            limit=q["limit"],
        )
    )
