"""Real seat positions and their terminal screens for the CLI renderer tests
(``tests/unit/test_cli_render_*.py``): a match played by one bot level until a condition
holds, and what ``arena play`` prints for a seat of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from cli.bot_match import bot_rng, match_seed
from cli.render import CardBook
from domain.engine import Setup, derive_rng, fold


def played_until(
    engine: Any,
    seats: int,
    seed: str,
    until: Callable[[Any], bool],
    bot: str,
    options: dict | None = None,
    max_decisions: int = 20_000,
) -> Any:
    """The state of a ``seats``-seat match of ``engine`` (``options``, default the
    defaults) seeded like ``arena bot-match`` with ``seed``, every seat played by the
    ``bot`` level (the lowest pending seat first), when ``until(state)`` first holds, the
    match has a result, or after ``max_decisions`` decisions."""
    rng_seed = match_seed(seed, 0)
    state = fold(
        engine,
        engine.new_match(
            Setup(seats, engine.validate_options(seats, options or {})), derive_rng(rng_seed, 0)
        ),
    )
    version = 0
    for _ in range(max_decisions):
        if until(state) or engine.result(state) is not None:
            break
        seat = min(engine.pending(state))
        command = engine.bots[bot].choose(state, seat, bot_rng(rng_seed, version, seat))
        events = engine.decide(state, seat, command, derive_rng(rng_seed, version))
        version += len(events)
        state = fold(engine, events, state)
    return state


def seat_screen(
    engine: Any,
    renderer: Any,
    cards: CardBook,
    state: Any,
    you: int,
    seats: int,
    bot: str,
) -> tuple[str, dict]:
    """``(text, match)``: the screen ``renderer`` prints for seat ``you`` of ``state`` (its
    view, then one line per legal command; 220 columns, no colour) and the match answer it
    drew it from (the other ``seats`` are ``bot`` seats)."""
    game = engine.game_id
    match = {
        "match_id": "m1",
        "version": 7,
        "game": game,
        "seats": [
            {"seat": s, "kind": "human" if s == you else "bot", "bot": bot} for s in range(seats)
        ],
        "pending": {str(k): v for k, v in engine.pending(state).items()},
        "view": engine.view(state, you),
    }
    console = Console(record=True, width=220, color_system=None)
    renderer.render_view(console, match, you, cards)
    for action in engine.legal_actions(state, you):
        console.print(renderer.action_line(action, match, you, cards))
    return console.export_text(), match
