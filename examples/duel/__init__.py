"""Duel: a small example game (two seats, a simultaneous hidden choice), the one
``docs/adding-a-game.md`` walks through. Exports ``ENGINE``.

Not one of the server's built-in games: a deployment (and the test suite) registers it
with ``ARENA_GAME_PACKAGES=examples`` (every game under ``examples/``) or
``ARENA_GAME_PACKAGES=examples.duel``. Rules: ``RULES.md`` beside this file.
"""

from .game import DuelEngine

ENGINE = DuelEngine()

__all__ = ["ENGINE", "DuelEngine"]
