"""AI: 100% Human (Explor8, 2024): draft + tableau game, 1 seat (solo), 2 seats (2-player mode) or
3-6 seats. Exports ``ENGINE``."""

from .game import AI100HumanEngine

ENGINE = AI100HumanEngine()

__all__ = ["ENGINE", "AI100HumanEngine"]
