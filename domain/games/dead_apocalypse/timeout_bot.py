"""``idle``: the answer of a seat whose turn timer ran out (the engine's ``timeout_bot``).

Shared RULINGS "General": "A seat whose turn timer runs out takes the answer that uses
nothing and changes least: pass, keep, decline every optional ("may", "can") effect, spend
no card ... Where the book prescribes a timing ("typically … at the beginning of the
turn"), the timeout follows it." Per decision (rulings file, "Timeout answers"):

- ``turn``: resolve the Zombie Row's Repeats first, left to right ("Typically Zombie Repeat
  abilities should be resolved at the beginning of the turn"), then the seat's Locations'
  Repeats (not optional: "each turn that card resolves its ability"; ruling R-REPEAT),
  then ``end_turn``: no card played ("You are not required to play every card in your
  hand"), no Human placed beneath a Location ("may instead decide to place"), no Call for
  Help ("you may Call for Help"), no Zombie defeated (the damage stays unspent);
- ``ditch`` / ``occupy`` prompts ("You may Ditch", "You may place a Human"): ``skip``;
- ``help`` ("the opposing player (ally) may then choose to assist"): ``decline``;
- ``assist`` (a seat that chose to assist, then timed out): ``end_assist``, no more cards;
- ``reward`` (not optional: "has the choice to take the adjacent card ... or to take an
  Adept Survivor instead"): the Adept Survivor, leaving the Resource Row card to the active
  player as without help ("The active player then takes the Resource Row card (if not
  chosen)"); the Resource Row card only when no Adept Survivor is left.

A resigned seat is not a timed-out one: its turns are played for the team by the
cooperative policy (ruling R-RESIGN), which the service reaches through this same
``timeout_bot``.
"""

from __future__ import annotations

import random
from typing import Any

from .actions import legal_actions, pending
from .cards import catalogue
from .state import MatchState


class TimeoutBot:
    """The timeout answers above; ``team`` (the cooperative bot) plays resigned seats."""

    name = "idle"

    def __init__(self, team: Any):
        self.team = team

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """One legal command for ``seat`` (module doc); ValueError when it has none.

        RULINGS R-TIMEOUT.
        """
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        if seat in state.resigned:
            return self.team.choose(state, seat, rng)
        kind = pending(state)[seat]
        if kind == "turn":
            cat = catalogue()
            repeats = [o for o in options if o["type"] == "use_repeat"]
            zombies = [o for o in repeats if cat.of(o["card"]).kind == "zombie"]
            for choice in (zombies, repeats, [o for o in options if o["type"] == "end_turn"]):
                if choice:
                    return choice[0]
        answer = {
            "ditch": {"type": "skip"},
            "occupy": {"type": "skip"},
            "help": {"type": "decline"},
            "assist": {"type": "end_assist"},
            "reward": {"type": "claim", "choice": "adept"},
        }.get(kind)
        if answer in options:
            return answer
        return options[0]
