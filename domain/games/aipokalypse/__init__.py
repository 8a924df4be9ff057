"""A.I.Pokalypse: auto-battler, 2-8 competitive seats (5-8 with a second copy), solo and co-op
against the A.I.Toma. Exports ``ENGINE`` (game_id "aipokalypse")."""

from .game import AIPokalypseEngine

ENGINE = AIPokalypseEngine()

__all__ = ["ENGINE", "AIPokalypseEngine"]
