"""A.I.Pokalypse: competitive auto-battler, 2-4 seats. Exports ``ENGINE`` (game_id "aipokalypse")."""
from .game import AIPokalypseEngine

ENGINE = AIPokalypseEngine()

__all__ = ["ENGINE", "AIPokalypseEngine"]
