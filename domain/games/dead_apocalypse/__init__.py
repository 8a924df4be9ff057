"""Dead Apocalypse: co-operative deck-builder against the Zombie Stack, 1-4 seats.
Exports ``ENGINE`` (game_id ``"dead-apocalypse"``)."""

from .game import DeadApocalypseEngine

ENGINE = DeadApocalypseEngine()

__all__ = ["ENGINE", "DeadApocalypseEngine"]
