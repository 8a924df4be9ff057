"""The one fold-handler registry (domain.modular.FoldHandlers) every game's ``evolve`` uses:
the fold is total over the registered types (docs/CONTRACTS.md "Fold"), so an unknown event
type or a log that does not open with MatchStarted is a ValueError in every game."""

from __future__ import annotations

import random

import pytest

from domain.engine import Event, Setup, fold
from domain.games import get_engine
from domain.modular import FoldHandlers
from tests.support.game_settings import games

#: every installed game (examples included in the suite)
GAMES = games()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_folds_through_the_shared_registry(game):
    assert isinstance(get_engine(game).fold.HANDLERS, FoldHandlers)


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_event_type_is_a_value_error(game):
    engine = get_engine(game)
    events = engine.new_match(Setup(2, engine.validate_options(2, {})), random.Random(1))
    state = fold(engine, events)
    with pytest.raises(ValueError, match="unknown event type 'CardTeleported'"):
        engine.evolve(state, Event("CardTeleported", {"card": "x"}, 0))


@pytest.mark.parametrize("game", GAMES)
def test_a_log_must_open_with_match_started(game):
    engine = get_engine(game)
    with pytest.raises(ValueError, match="first event must be MatchStarted"):
        engine.evolve(None, Event("CardTeleported", {"card": "x"}, 0))
    state = fold(
        engine, engine.new_match(Setup(2, engine.validate_options(2, {})), random.Random(1))
    )
    seat = sorted(engine.pending(state))[0]
    later = engine.decide(state, seat, engine.legal_actions(state, seat)[0], random.Random(2))
    with pytest.raises(ValueError, match="first event must be MatchStarted"):
        engine.evolve(None, later[0])


def test_a_second_handler_for_one_type_is_refused():
    handlers = FoldHandlers("test")
    handlers.on("Happened")(lambda state, event: None)
    with pytest.raises(ValueError, match="second fold handler"):
        handlers.on("Happened")(lambda state, event: None)
    assert handlers.handler({}, Event("Happened")) is not None
