"""The Engine protocol's hooks with defaults (issue 13 item 6): ``redact_type``,
``bot_options_schema`` and ``make_bot`` are members of the protocol, given their defaults
by ``EngineBase``, and called directly by the service (no attribute probing)."""

from __future__ import annotations

from domain.engine import Engine, EngineBase, Event, redacted_type
from domain.games import registry
from tests.support.games import ENGINES, HIGH_CARD


def test_every_engine_derives_from_the_base_and_conforms_to_the_protocol():
    for engine in [*registry().values(), *ENGINES.values()]:
        assert isinstance(engine, EngineBase) and isinstance(engine, Engine), engine.game_id


def test_an_object_without_the_hooks_is_not_an_engine():
    class Bare:
        game_id, title, min_seats, max_seats, schema_version = "bare", "Bare", 1, 1, 1
        options_schema, command_schemas, bots, timeout_bot = {}, {}, {}, "random"

        def validate_options(self, seats, options): ...
        def new_match(self, setup, rng): ...
        def decide(self, state, seat, command, rng): ...
        def evolve(self, state, event): ...
        def view(self, state, viewer): ...
        def redact(self, event, viewer, state=None): ...
        def pending(self, state): ...
        def legal_actions(self, state, seat): ...
        def result(self, state): ...
        def dump_state(self, state): ...
        def load_state(self, data): ...

    assert not isinstance(Bare(), Engine)


def test_the_default_redact_type_shows_the_stored_type_and_a_game_can_override_it():
    event = Event("CardPlayed", {"card": 3}, 0)
    assert HIGH_CARD.redact_type(event, 1) == "CardPlayed" == redacted_type(HIGH_CARD, event, None)
    aipokalypse = registry()["aipokalypse"]
    assert type(aipokalypse).redact_type is not EngineBase.redact_type
    for name in ("ai-100-human", "dead-apocalypse"):
        assert type(registry()[name]).redact_type is EngineBase.redact_type
