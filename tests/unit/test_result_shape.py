"""Every game's ``result.ranking`` has one shape (docs/CONTRACTS.md "Result"):
``[{"seat", "score", "rank"}, ...]`` best first, every seat once, ``score`` the seat's
``scores`` entry, ranks from 1, never decreasing, equal for seats sharing a place, rank 1
for every winner. A.I.Pokalypse's ``MatchEnded`` lists bare seat numbers (its rules-version-2
log format, which stored logs verify against); its fold turns them into these objects."""

from __future__ import annotations

import jsonschema
import pytest

from cli.bot_match import match_seed, play_bot_match
from domain.games import get_engine
from domain.games.aipokalypse.fold import ranking_objects
from domain.games.aipokalypse.state import Player
from domain.lifecycle import abandoned_result
from tests.support.game_settings import games, settings

CASES = [
    ("ai-100-human", ["greedy"] * 4, None),
    ("ai-100-human", ["greedy"], None),
    ("dead-apocalypse", ["cooperative"] * 3, None),
    ("dead-apocalypse", ["cooperative"] * 3, {"competitive": True}),
    ("aipokalypse", ["tactician"] * 3, None),
    ("aipokalypse", ["random"] * 6, None),
    ("aipokalypse", ["tactician"] * 2, {"mode": "coop", "difficulty": "handy_man"}),
]


def check_ranking(result: dict, seats: int) -> None:
    """Assert the one shape (module docstring) of ``result["ranking"]``."""
    ranking = result["ranking"]
    assert all({"seat", "score", "rank"} <= set(entry) for entry in ranking), ranking
    assert sorted(e["seat"] for e in ranking) == list(range(seats))
    assert all(type(e["rank"]) is int and type(e["seat"]) is int for e in ranking)
    ranks = [e["rank"] for e in ranking]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert all(rank <= place + 1 for place, rank in enumerate(ranks))
    assert all(e["score"] == result["scores"][e["seat"]] for e in ranking)
    assert {e["seat"] for e in ranking if e["seat"] in result["winners"]} <= {
        e["seat"] for e in ranking if e["rank"] == 1
    }


@pytest.mark.parametrize("game, levels, options", CASES)
@pytest.mark.parametrize("n", [0, 1])
def test_every_game_ranks_with_seat_score_rank_objects(game, levels, options, n):
    engine = get_engine(game)
    result = play_bot_match(engine, levels, match_seed(f"shape-{game}", n), options).result
    check_ranking(result, len(levels))
    # the contract's <Game>Result (domain/games/<game>/schemas/result.json) describes it
    jsonschema.validate(result, engine.schemas.result, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("game", games())
def test_the_abandoned_result_has_the_one_shape_and_fits_each_games_result_schema(game):
    seats = settings(game).seats
    result = abandoned_result(seats, 600)
    check_ranking(result, seats)
    jsonschema.validate(
        result, get_engine(game).schemas.result, cls=jsonschema.Draft202012Validator
    )
    with pytest.raises(jsonschema.ValidationError):  # the schema can fail: ranking objects only
        jsonschema.validate(
            {**result, "ranking": list(range(seats))},
            get_engine(game).schemas.result,
            cls=jsonschema.Draft202012Validator,
        )


def test_an_aipokalypse_ranking_of_seat_numbers_becomes_objects_sharing_equal_places():
    players = [
        Player([], eliminated=False, health=["S01", "S02"]),
        Player([], eliminated=False, health=["S03"]),
        Player([], eliminated=False, health=["S04"]),
        Player([], eliminated=True, health=[]),
    ]
    data = {"winners": [0], "ranking": [0, 2, 1, 3], "scores": [9, 4, 4, 7]}
    assert ranking_objects(players, data) == [
        {"seat": 0, "score": 9, "rank": 1},
        {"seat": 2, "score": 4, "rank": 2},
        {"seat": 1, "score": 4, "rank": 2},
        {"seat": 3, "score": 7, "rank": 4},
    ]
    tied = {"winners": [0, 1], "ranking": [0, 1], "scores": [5, 5]}
    assert [e["rank"] for e in ranking_objects(players[:2], tied)] == [1, 1]
    abandoned = [{"seat": 0, "score": 0, "rank": 1}]
    assert ranking_objects([], {"ranking": abandoned}) == abandoned


def test_an_aipokalypse_match_ended_event_folds_to_the_object_ranking():
    engine = get_engine("aipokalypse")
    outcome = play_bot_match(engine, ["random"] * 3, match_seed("shape-fold", 0), None)
    ended = [e for e in outcome.events if e.type == "MatchEnded"][-1]
    assert all(isinstance(seat, int) for seat in ended.data["ranking"])  # the log's format
    assert [e["seat"] for e in engine.result(outcome.state)["ranking"]] == ended.data["ranking"]
