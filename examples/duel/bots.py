"""Duel's bots (level -> policy): ``random`` (any card of the hand) and ``high`` (its
highest card; also the policy that plays for a seat whose time ran out). A bot reads only
what its seat's view shows: its own hand."""

from __future__ import annotations

import random
from typing import Any

from domain.modular import RandomBot

from .actions import legal_actions
from .state import State


class HighBot:
    """Plays the highest card of the hand."""

    name = "high"

    def choose(self, state: State, seat: int, rng: random.Random) -> dict[str, Any]:
        """``{"type": "play", "card": max(hand)}``; ValueError when ``seat`` has nothing to do."""
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} has no decision to make")
        return actions[-1]


BOTS = {"random": RandomBot(legal_actions), "high": HighBot()}
