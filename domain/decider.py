"""The one ``decide`` of every game: a template whose steps each game fills in.

Source: ``shared/DESIGN.md`` ("The decider contract") and docs/CONTRACTS.md (the order of
an action's checks). :meth:`GameRules.decide` checks a command in one fixed order and each
game's ``rules`` module supplies only its parts (a :class:`GameRules` subclass):

1. finished — :meth:`GameRules.finished`: the match has a result → :class:`MatchFinished`
   (409 ``match_finished``).
2. pending — :meth:`GameRules.pending_kind`: the decision ``seat`` owes now, ``None`` when
   it owes none (or is no seat of the match) → :class:`NotYourTurn` (409 ``not_your_turn``).
3. schema — :meth:`GameRules.check_shape`: the command against its JSON Schema
   (:func:`domain.modular.check_command`: 422 ``unknown_action`` / 400 ``invalid_command``)
   plus any cross-field rule of the game; returns the command normalised.
4. legal or explained rejection — :meth:`GameRules.is_legal`; when it is not, the most
   precise reason the game can give (:meth:`GameRules.rejection`, a :class:`RuleError`
   with a fine code, 422).
5. apply — :meth:`GameRules.apply`: the events the command causes (the seat's own events
   and every automatic step they unlock), computed on a copy (``state`` is never mutated).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.engine import Event, IllegalMove, MatchFinished, NotYourTurn, RuleError
from domain.modular import check_command


class GameRules:
    """Base class of one game's rules: the :meth:`decide` template and its default steps.

    A subclass sets ``command_schemas`` (command type -> JSON Schema, the game's
    ``spec.COMMAND_SCHEMAS``) and implements :meth:`finished`, :meth:`pending_kind`,
    :meth:`is_legal` and :meth:`apply`; it overrides :meth:`check_shape` for cross-field
    rules and :meth:`rejection` to explain an illegal command with a fine code.
    """

    command_schemas: Mapping[str, Mapping[str, Any]]
    #: the detail of :class:`NotYourTurn` when the seat owes no decision
    wait_detail: str = "It is not your turn to act."

    def decide(self, state: Any, seat: int, command: Any, rng: random.Random) -> list[Event]:
        """The events ``seat`` sending ``command`` causes, checked in the template's order
        (module docstring); ``state`` is not modified.

        Raises: MatchFinished (409), NotYourTurn (409), UnknownAction (422),
        InvalidCommand (400), IllegalMove or a finer RuleError (422).
        """
        if self.finished(state):
            raise MatchFinished()
        kind = self.pending_kind(state, seat) if _is_seat(seat) else None
        if kind is None:
            raise NotYourTurn(self.wait_detail)
        command = self.check_shape(command)
        if not self.is_legal(state, seat, command, kind):
            raise self.rejection(state, seat, command, kind)
        return self.apply(state, seat, command, rng)

    def finished(self, state: Any) -> bool:
        """Whether the match has a result (no command is accepted any more)."""
        raise NotImplementedError

    def pending_kind(self, state: Any, seat: int) -> str | None:
        """The kind of decision ``seat`` owes now, ``None`` when it owes none or is not a
        seat of the match (``seat`` is an ``int``)."""
        raise NotImplementedError

    def check_shape(self, command: Any) -> dict[str, Any]:
        """``command`` checked against ``command_schemas`` and returned normalised (a new
        dict). Raises UnknownAction or InvalidCommand."""
        return dict(check_command(self.command_schemas, command))

    def is_legal(self, state: Any, seat: int, command: dict[str, Any], kind: str) -> bool:
        """Whether the well-formed ``command`` is one ``seat`` may send now (its pending
        decision is ``kind``): one of the game's legal actions."""
        raise NotImplementedError

    def rejection(self, state: Any, seat: int, command: dict[str, Any], kind: str) -> RuleError:
        """The error explaining why the well-formed, illegal ``command`` is refused;
        default: a plain ``illegal_move``."""
        return IllegalMove("The rules do not allow this command now.")

    def apply(
        self, state: Any, seat: int, command: dict[str, Any], rng: random.Random
    ) -> list[Event]:
        """The events of the legal ``command`` (``state`` is not modified)."""
        raise NotImplementedError


def _is_seat(seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0
