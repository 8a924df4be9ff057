"""``arena simulate`` and the domain-only bot match loop behind it (no Redis)."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from cli.bot_match import BotMatch, match_seed, play_bot_match
from cli.main import main
from cli.simulate import SimulationStats, parse_bots
from domain.engine import fold
from domain.games import get_engine

ENGINE = get_engine("ai-100-human")


def _finished(scores: list[int], winners: list[int], seconds: float = 0.5) -> BotMatch:
    return BotMatch(
        events=[],
        state=None,
        decisions=10,
        seconds=seconds,
        result={"scores": scores, "ranking": [], "winners": winners},
    )


def test_parse_bots_repeats_the_last_level_for_the_remaining_seats():
    assert parse_bots("greedy,random", 4, ["greedy", "random"]) == [
        "greedy",
        "random",
        "random",
        "random",
    ]


@pytest.mark.parametrize("spec", ["", "greedy,greedy,greedy,greedy", "expert"])
def test_parse_bots_rejects_empty_too_many_or_unknown_levels(spec):
    with pytest.raises(click.BadParameter):
        parse_bots(spec, 3, ["greedy", "random"])


def test_stats_share_a_tied_victory_between_the_winners():
    # "End of the Game": "In case of tie, share the victory".
    stats = SimulationStats(bots=["greedy", "greedy", "random", "random"])
    stats.add(_finished([10, 20, 20, 5], winners=[1, 2], seconds=0.25))
    stats.add(_finished([30, 0, 0, 0], winners=[0], seconds=0.75))
    summary = stats.as_dict()
    seats = summary["seats"]
    assert [s["win_share"] for s in seats] == [0.5, 0.25, 0.25, 0.0]
    assert (seats[0]["mean"], seats[0]["min"], seats[0]["max"]) == (20.0, 10, 30)
    assert summary["bots"]["greedy"]["mean"] == 15.0  # (10 + 30 + 20 + 0) / 4
    assert summary["bots"]["greedy"]["win_share"] == 0.75
    assert summary["bots"]["random"]["mean"] == 6.25  # (20 + 0 + 5 + 0) / 4
    assert summary["mean_seconds_per_match"] == 0.5


def test_bot_match_is_deterministic_per_seed_and_folds_to_its_result():
    bots = ["greedy", "random", "random"]
    first = play_bot_match(ENGINE, bots, match_seed("s", 0))
    again = play_bot_match(ENGINE, bots, match_seed("s", 0))
    other = play_bot_match(ENGINE, bots, match_seed("s", 1))
    assert [e.to_dict() for e in first.events] == [e.to_dict() for e in again.events]
    assert [e.to_dict() for e in first.events] != [e.to_dict() for e in other.events]
    assert ENGINE.result(fold(ENGINE, first.events)) == first.result
    assert first.events[-1].type == "MatchEnded"
    assert len(first.result["scores"]) == 3
    # "At the end of Phase 2, 14 Development cards and your AI card": a full 3 x 5 frame
    # (AI-2's extra end-of-game card may lie outside it).
    for seat in first.state.seats:
        assert len([p for p in seat.tableau if 0 <= p[0] < 3 and 0 <= p[1] < 5]) == 15


def test_simulate_json_matches_the_matches_it_plays():
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--matches",
            "2",
            "--seats",
            "3",
            "--bots",
            "greedy,random",
            "--seed",
            "abc",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    expected = [
        play_bot_match(ENGINE, ["greedy", "random", "random"], match_seed("abc", i))
        for i in range(2)
    ]
    assert summary["matches"] == 2
    for seat in range(3):
        scores = [m.result["scores"][seat] for m in expected]
        row = summary["seats"][seat]
        assert (row["min"], row["max"], row["mean"]) == (min(scores), max(scores), sum(scores) / 2)
    assert sum(row["win_share"] for row in summary["seats"]) == pytest.approx(1.0)


def test_simulate_prints_tables():
    result = CliRunner().invoke(main, ["simulate", "-n", "1", "--seed", "t"])
    assert result.exit_code == 0, result.output
    assert "per bot level" in result.output and "win share" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "chess"],
        ["--seats", "2", "--bots", "greedy,greedy,random"],
        ["--seats", "9"],
        ["--bots", "nobody"],
    ],
)
def test_simulate_rejects_bad_parameters(args):
    result = CliRunner().invoke(main, ["simulate", "-n", "1", *args])
    assert result.exit_code == 2


def test_default_bots_are_the_games_general_bot_then_random():
    from cli.bot_options import default_bot_level
    from cli.simulate import default_bots

    assert default_bot_level(["random", "greedy", "expert"]) == "greedy"
    assert default_bot_level(["random", "tactician", "idle", "toma_hunter"]) == "tactician"
    assert default_bot_level(["random", "cooperative"]) == "cooperative"
    assert default_bot_level(["random", "idle"]) == "random"
    with pytest.raises(click.BadParameter):
        default_bot_level([])
    assert default_bots(["random", "greedy", "expert"], 4) == "greedy,greedy,random,random"
    assert (
        default_bots(["random", "tactician", "idle", "toma_hunter"], 3)
        == "tactician,tactician,random"
    )
    assert default_bots(["random", "cooperative"], 1) == "cooperative"
    assert default_bots(["cooperative"], 3) == "cooperative,cooperative,cooperative"


@pytest.mark.parametrize(
    "game, level",
    [("aipokalypse", "tactician"), ("dead-apocalypse", "cooperative"), ("ai-100-human", "greedy")],
)
def test_simulate_without_bots_uses_a_level_the_game_has(game, level):
    result = CliRunner().invoke(
        main, ["simulate", "--game", game, "--seats", "2", "-n", "1", "--seed", "d", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.output)["bots"]) == [level]
