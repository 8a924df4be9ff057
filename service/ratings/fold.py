"""The ratings fold (issue 22 items 2-3): OpenSkill's Plackett-Luce model (the ``openskill``
package, defaults mu 25, sigma 25/3) applied to :class:`service.ratings.inputs.RatingInput`
in end order. Pure and deterministic: the same inputs in the same order give the same
floats, so the live table, ``arena ratings rebuild`` and ``arena ratings replay`` agree
exactly.

A rating is ``{"mu", "sigma", "matches"}``; its ``ordinal`` (the leaderboard's score) is the
conservative ``mu - 3 sigma``; it is ``provisional`` while ``sigma`` is above
:data:`PROVISIONAL_SIGMA`. A bot level's first rating is its calibrated one
(``service/ratings/bot_ratings.json``, written by ``arena ratings calibrate``); every other
player starts at the model's default.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from service.ratings.inputs import RatingInput

MODEL = PlackettLuce()
#: a rating is provisional while its sigma is above this (the default sigma is 8.33)
PROVISIONAL_SIGMA = 5.0
#: the committed starting ratings of the bot levels: board -> participant -> {mu, sigma}
BOT_RATINGS_PATH = Path(__file__).with_name("bot_ratings.json")


def load_bot_ratings(path: Path = BOT_RATINGS_PATH) -> dict[str, dict[str, dict[str, float]]]:
    """The calibrated starting ratings (``{}`` when the file is absent)."""
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("boards", {})


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating ``mu - 3 sigma`` (the leaderboard's order)."""
    return mu - 3.0 * sigma


def start_rating(
    board: str, participant: str, starts: Mapping[str, Mapping[str, Mapping[str, float]]]
) -> dict[str, Any]:
    """The first rating of ``participant`` on ``board``."""
    seeded = (starts.get(board) or {}).get(participant)
    if seeded:
        return {"mu": float(seeded["mu"]), "sigma": float(seeded["sigma"]), "matches": 0}
    return {"mu": MODEL.mu, "sigma": MODEL.sigma, "matches": 0}


def rate(match: RatingInput, current: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The new ratings of every participant of ``match`` given their ``current`` ones
    (participant -> rating, all present)."""
    teams = [
        [MODEL.create_rating([current[p]["mu"], current[p]["sigma"]], name=p) for p in team]
        for team in match.teams
    ]
    rated = MODEL.rate(teams, ranks=list(match.ranks))
    out: dict[str, dict[str, Any]] = {}
    for team in rated:
        for rating in team:
            name = rating.name
            if name is None:  # every rating was created with its participant
                raise ValueError("openskill returned a rating without its participant's name")
            out[name] = {
                "mu": rating.mu,
                "sigma": rating.sigma,
                "matches": int(current[name]["matches"]) + 1,
            }
    return out


def participants(match: RatingInput) -> list[str]:
    """Everyone rated by ``match``."""
    return [p for team in match.teams for p in team]


def fold(
    matches: Iterable[RatingInput], starts=None
) -> tuple[dict[str, dict[str, dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """``(table, history)`` after ``matches`` sorted by :attr:`RatingInput.order`:
    ``table``: board -> participant -> rating; ``history``: participant -> the rating after
    each of its matches ``[{"board", "match_id", "at", "mu", "sigma"}]`` in order."""
    starts = load_bot_ratings() if starts is None else starts
    table: dict[str, dict[str, dict[str, Any]]] = {}
    history: dict[str, list[dict[str, Any]]] = {}
    for match in sorted(matches, key=lambda m: m.order):
        board = table.setdefault(match.board, {})
        current = {
            p: board.get(p) or start_rating(match.board, p, starts) for p in participants(match)
        }
        for p, rating in rate(match, current).items():
            board[p] = rating
            history.setdefault(p, []).append(history_entry(match, rating))
    return table, history


def history_entry(match: RatingInput, rating: Mapping[str, Any]) -> dict[str, Any]:
    """One point of a rating curve."""
    return {
        "board": match.board,
        "match_id": match.match_id,
        "at": match.ended_at,
        "mu": rating["mu"],
        "sigma": rating["sigma"],
    }


def public(participant: str, board: str, rating: Mapping[str, Any]) -> dict[str, Any]:
    """A rating as the API shows it: ``{"board", "game", "mode", "mu", "sigma", "ordinal",
    "matches", "provisional"}``."""
    game, _, mode = board.partition(":")
    return {
        "board": board,
        "game": game,
        "mode": mode,
        "mu": rating["mu"],
        "sigma": rating["sigma"],
        "ordinal": ordinal(rating["mu"], rating["sigma"]),
        "matches": int(rating["matches"]),
        "provisional": rating["sigma"] > PROVISIONAL_SIGMA,
    }
