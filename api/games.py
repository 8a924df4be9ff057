"""``/v1/games``: the game catalogue (option schemas, command schemas, bot levels)."""

from __future__ import annotations

from flask import Blueprint, jsonify

from api import schemas
from api.errors import Problem
from api.runtime import runtime, service

bp = Blueprint("games", __name__, url_prefix="/v1/games")


@bp.get("")
def list_games():
    """Every installed game: ``{"games": [MatchService.games() entries]}``."""
    return jsonify({"games": list(runtime().catalogue().values())})


@bp.get("/<game_id>")
def get_game(game_id: str):
    """One game's catalogue entry; 404 ``unknown_game``."""
    game = runtime().game(game_id)
    if game is None:
        raise Problem(404, "unknown_game", f"There is no game {game_id!r}.")
    return jsonify(game)


@bp.get("/<game_id>/cards")
def get_cards(game_id: str):
    """The game's public card data (``MatchService.cards``): names, colours, numbers,
    connectors and effect text; 404 ``unknown_game``. The same for everyone and immutable
    for the life of the process, so it may be cached."""
    if runtime().game(game_id) is None:
        raise Problem(404, "unknown_game", f"There is no game {game_id!r}.")
    response = jsonify(service().cards(game_id))
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.get("/<game_id>/leaderboard")
def leaderboard(game_id: str):
    """The rated leaderboard of one game and mode family (issue 22): top ``limit`` by the
    conservative ordinal from ``offset``, bots included and marked (``kind``); 404
    ``unknown_game`` / ``unknown_mode``. The ETag changes with every rating update."""
    if runtime().game(game_id) is None:
        raise Problem(404, "unknown_game", f"There is no game {game_id!r}.")
    q = schemas.query(schemas.LeaderboardQuerySchema)
    return jsonify(service().leaderboard(game_id, q["mode"], q["offset"], q["limit"]))
