"""A game is one folder (issue 19 item 1): the registry discovers the built-in games under
``domain/games/`` and the packages ``ARENA_GAME_PACKAGES`` names (no import list kept by
hand), checks each engine when it loads, and every installed game brings its own test
settings (``testing.py``) that the generic tests read."""

from __future__ import annotations

import copy
import sys
import textwrap

import pytest
from click.testing import CliRunner

from cli.main import main
from cli.simulate import default_seats
from domain.games import GameRegistryError, check_engine, package_of, registry
from domain.testing import GameTesting
from service.config import Config
from tests.support.game_settings import games, settings

BUILT_IN = {"ai-100-human", "aipokalypse", "dead-apocalypse"}


def test_the_built_in_games_are_found_in_their_folders():
    assert set(registry(())) == BUILT_IN
    assert package_of("dead-apocalypse", ()) == "domain.games.dead_apocalypse"


def test_extra_packages_come_from_arena_game_packages(monkeypatch):
    monkeypatch.setenv("ARENA_GAME_PACKAGES", "examples.duel")
    assert set(registry()) == BUILT_IN | {"duel"}
    monkeypatch.setenv("ARENA_GAME_PACKAGES", " examples , ")  # a folder of games
    assert "duel" in registry() and package_of("duel") == "examples.duel"
    monkeypatch.setenv("ARENA_GAME_PACKAGES", "")
    assert set(registry()) == BUILT_IN


def test_the_suite_installs_the_example_games():
    assert "duel" in games()
    assert registry()["duel"].min_seats == registry()["duel"].max_seats == 2


@pytest.fixture
def fake_games(tmp_path, monkeypatch):
    """A folder on sys.path where a test writes game packages."""
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("fakegames")]:
        del sys.modules[name]


def _write(root, package: str, body: str) -> None:
    folder = root.joinpath(*package.split("."))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text(textwrap.dedent(body))


@pytest.mark.parametrize(
    "body, message",
    [
        ("", "neither exposes ENGINE"),
        ("ENGINE = object()\n", "must be an EngineBase instance"),
        (
            "from examples.duel import ENGINE as _E\nimport copy\nENGINE = copy.copy(_E)\n"
            "ENGINE.game_id = 'Duel Two'\n",
            "game_id 'Duel Two'",
        ),
        ("from examples.duel import ENGINE\n", "game id 'duel' is taken by examples.duel"),
    ],
)
def test_a_package_without_a_valid_game_is_refused_naming_it(
    fake_games, monkeypatch, body, message
):
    _write(fake_games, "fakegames", body)
    monkeypatch.setenv("ARENA_GAME_PACKAGES", "examples,fakegames")
    with pytest.raises(GameRegistryError, match=message):
        registry()


def test_a_missing_package_is_refused(monkeypatch):
    monkeypatch.setenv("ARENA_GAME_PACKAGES", "no_such_games_here")
    with pytest.raises(GameRegistryError, match="no package 'no_such_games_here'"):
        registry()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"min_seats": 3}, "1 <= min_seats <= max_seats"),
        ({"timeout_bot": "nobody"}, "timeout_bot 'nobody'"),
        ({"bots": {"high": None}}, "'random' level"),
        ({"title": " "}, "title"),
    ],
)
def test_each_engine_is_checked(change, message):
    engine = copy.copy(registry(("examples",))["duel"])
    for key, value in change.items():
        setattr(engine, key, value)
    with pytest.raises(GameRegistryError, match=message):
        check_engine(engine, "examples.duel")


def test_arena_game_packages_is_checked_at_start():
    assert Config.from_env({"ARENA_GAME_PACKAGES": "examples"}).game_packages == ("examples",)
    assert (
        Config.from_env({"ARENA_GAME_PACKAGES": "examples"}).to_env()["ARENA_GAME_PACKAGES"]
        == "examples"
    )
    for bad, message in [("examples.nothing", "no package"), ("ex amples", "not a list of dotted")]:
        with pytest.raises(ValueError, match=f"ARENA_GAME_PACKAGES.*{message}"):
            Config.from_env({"ARENA_GAME_PACKAGES": bad})


@pytest.mark.parametrize("game", games())
def test_every_game_brings_its_own_test_settings(game):
    engine, own = registry()[game], settings(game)
    assert isinstance(own, GameTesting)
    for seats, options in (*own.all_modes(), (own.seats, own.options)):
        assert engine.min_seats <= seats <= engine.max_seats
        engine.validate_options(seats, options)


@pytest.mark.parametrize("game", games())
def test_arena_simulate_defaults_to_a_seat_count_the_game_allows(game):
    engine = registry()[game]
    assert engine.min_seats <= default_seats(engine) <= engine.max_seats
    result = CliRunner().invoke(
        main,
        ["simulate", "--game", game, "--matches", "1", "--json", "--bots", "random", "--seed", "s"],
    )
    assert result.exit_code == 0, result.output
