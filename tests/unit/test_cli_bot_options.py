"""``--bot-option LEVEL.KEY=VALUE`` of ``arena play`` and ``arena simulate``."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.bot_match import match_seed, play_bot_match
from cli.bot_options import parse_bot_options
from cli.http_client import ApiError
from cli.main import main
from cli.play import auto_chooser, play_match
from domain.engine import InvalidBotOptions
from domain.games import get_engine

ENGINE = get_engine("ai-100-human")


def test_values_are_json_literals_grouped_by_level():
    assert parse_bot_options(
        [
            "expert.time_budget_ms=800",
            "expert.budget=8",
            "greedy.mode=deep",
            "greedy.on=true",
            "greedy.p=0.5",
        ],
        ["expert", "greedy"],
    ) == {
        "expert": {"time_budget_ms": 800, "budget": 8},
        "greedy": {"mode": "deep", "on": True, "p": 0.5},
    }
    assert parse_bot_options([], ["expert"]) == {}


@pytest.mark.parametrize(
    "values",
    [
        ["expert"],
        ["expert.budget"],
        ["budget=8"],
        [".budget=8"],
        ["random.budget=8"],  # no seat plays random
        ["expert.budget=8", "expert.budget=9"],  # given twice
    ],
)
def test_malformed_unplayed_or_repeated_options_are_refused(values):
    with pytest.raises(click.BadParameter):
        parse_bot_options(values, ["expert", "greedy"])


def test_play_bot_match_builds_each_level_from_its_options():
    match = play_bot_match(
        ENGINE,
        ["expert", "greedy", "greedy"],
        match_seed("o", 0),
        bot_options={"expert": {"budget": 0, "candidates": 1}},
    )
    assert match.result is not None and len(match.result["scores"]) == 3
    with pytest.raises(InvalidBotOptions):
        play_bot_match(
            ENGINE, ["expert", "greedy"], match_seed("o", 0), bot_options={"expert": {"budget": -1}}
        )
    with pytest.raises(ValueError):  # silently unused: refused
        play_bot_match(
            ENGINE, ["greedy", "greedy"], match_seed("o", 0), bot_options={"expert": {"budget": 1}}
        )


def test_simulate_passes_bot_options_to_the_bots_and_reports_them():
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "-n",
            "1",
            "--seats",
            "3",
            "--bots",
            "expert,greedy",
            "--seed",
            "x",
            "--bot-option",
            "expert.budget=0",
            "--bot-option",
            "expert.candidates=1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["seats"][0]["bot_options"] == {"budget": 0, "candidates": 1}
    assert "bot_options" not in summary["seats"][1]


@pytest.mark.parametrize(
    "option, message",
    [
        ("expert.budget=-1", "between 0 and 4096"),
        ("expert.depth=2", "Unknown bot option 'depth'"),
        ("random.budget=1", "no seat plays"),
    ],
)
def test_simulate_refuses_bad_bot_options_with_a_usage_error(option, message):
    result = CliRunner().invoke(
        main,
        ["simulate", "-n", "1", "--seats", "3", "--bots", "expert,greedy", "--bot-option", option],
    )
    assert result.exit_code == 2 and message in result.output


class _CreatingClient:
    """Records the ``create_match`` call of ``play_match`` and refuses it like the server."""

    def __init__(self):
        self.seats = None

    def cards(self, game):
        return {"game": game, "cards": []}

    def create_match(self, game, seats, options=None, player_key=None, rated=False):
        self.seats = seats
        raise ApiError(
            400,
            {
                "code": "validation_error",
                "detail": "stop here",
                "errors": {"seats": {"1": {"bot_options": {"budget": ["bad"]}}}},
            },
        )


def test_play_sends_the_options_on_every_bot_seat_and_shows_the_servers_field_errors():
    client = _CreatingClient()
    with pytest.raises(ApiError) as exc:
        play_match(
            client,
            "ai-100-human",
            3,
            "expert",
            auto_chooser(1),
            Console(quiet=True),
            bot_options={"time_budget_ms": 800},
        )
    assert (
        client.seats
        == [{"kind": "human"}]
        + [{"kind": "bot", "bot": "expert", "bot_options": {"time_budget_ms": 800}}] * 2
    )
    assert '"bot_options": {"budget": ["bad"]}' in str(exc.value)


def test_play_refuses_an_option_for_a_level_no_seat_plays():
    result = CliRunner().invoke(
        main,
        [
            "play",
            "--url",
            "http://127.0.0.1:9",
            "--bots",
            "greedy",
            "--bot-option",
            "expert.budget=8",
        ],
    )
    assert result.exit_code == 2 and "no seat plays" in result.output
    result = CliRunner().invoke(
        main,
        [
            "play",
            "--url",
            "http://127.0.0.1:9",
            "--seats",
            "1",
            "--bots",
            "expert",
            "--bot-option",
            "expert.budget=8",
        ],
    )
    assert result.exit_code == 2 and "no bots" in result.output
