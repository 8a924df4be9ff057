"""AI: 100% Human (Explor8, 2024): draft + tableau game, 3-6 seats. Exports ``ENGINE``."""
from .game import AI100HumanEngine

ENGINE = AI100HumanEngine()

__all__ = ["ENGINE", "AI100HumanEngine"]
