"""``decide``: validate a command for a seat and return the events it causes.

This game's parts of the :class:`domain.decider.GameRules` template. Order of checks
(stable error codes, ``domain.engine``): ``match_finished`` (409), ``not_your_turn`` (409),
``unknown_action`` (422), ``invalid_command`` (400, malformed
for its JSON Schema: :func:`domain.modular.check_command`), then a rule reason (422):
``card_not_in_hand``, ``card_not_playable``, ``not_a_human``, ``location_not_in_play``,
``location_full``, ``repeat_unavailable``, ``repeat_unused``, ``no_zombie``,
``not_attacking``, ``not_enough_damage``, ``invalid_spend``, ``help_unavailable``,
``help_not_needed``, ``not_allowed_now``, ``not_ditchable``, ``reward_unavailable`` or
``illegal_move``. A command is accepted
exactly when it is one of :func:`actions.legal_actions`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.decider import GameRules
from domain.engine import Event, IllegalMove

from . import spec
from .actions import legal_actions, pending, unresolved_repeats, zombie_repeats
from .cards import catalogue
from .combat import can_defeat, claim, defeat, may_fight, usable_total
from .effects import answer_prompt, resolve_card, run_zombie_steps
from .recorder import GameOver, Recorder
from .state import MatchState, clone
from .turns import end_turn


def _reason(state: MatchState, seat: int, command: Mapping[str, Any], kind: str) -> IllegalMove:
    """The most specific reason a well-formed command is not legal now."""
    cat = catalogue()
    me = state.seats[seat]
    decision = pending(state)[seat]
    allowed = {
        "turn": {"play", "occupy", "use_repeat", "defeat", "call_for_help", "end_turn"},
        "assist": {"play", "end_assist"},
        "help": {"assist", "decline"},
        "ditch": {"choose", "skip"},
        "occupy": {"choose", "skip"},
        "reward": {"claim"},
    }[decision]
    if kind not in allowed:
        return IllegalMove(
            f"'{kind}' is not possible now (you must answer: {decision}).", "not_allowed_now"
        )
    card = command.get("card")
    if kind in ("play", "occupy") or (kind == "choose" and decision == "occupy"):
        if card not in me.hand:
            return IllegalMove(f"{card!r} is not in your hand.", "card_not_in_hand")
        if kind == "play":
            return IllegalMove(
                f"{card!r} cannot be played (Infections never are).", "card_not_playable"
            )
        if cat.of(card).kind != "human":
            return IllegalMove("Only a Human can occupy a Location.", "not_a_human")
        loc = next((x for x in me.locations if x["card"] == command.get("location")), None)
        if loc is None:
            return IllegalMove("That Location is not in play for you.", "location_not_in_play")
        return IllegalMove("That Location is at its Occupancy.", "location_full")
    if kind == "use_repeat":
        return IllegalMove(
            f"{card!r} has no unused Repeat ability in play or in the Zombie Row.",
            "repeat_unavailable",
        )
    if kind == "defeat":
        column = command["column"]
        if state.zombie_row[column] is None:
            return IllegalMove("There is no Zombie in that column.", "no_zombie")
        if state.zombie_row[column] in zombie_repeats(state):
            return IllegalMove(
                "That Zombie's Repeat ability has not resolved this turn: resolve it "
                "first (use_repeat; you decide when, not whether).",
                "repeat_unused",
            )
        if not may_fight(state, column):
            return IllegalMove(
                "After an ally assisted, your damage defeats attacking Zombies only.",
                "not_attacking",
            )
        if "spend" in command and can_defeat(state, column):
            return IllegalMove(
                "That is not one of the ways to spend the Zombie's HP (see the legal actions).",
                "invalid_spend",
            )
        return IllegalMove(
            f"Only {usable_total(state, column)} damage counts against that Zombie (immunities).",
            "not_enough_damage",
        )
    if kind == "call_for_help":
        if (
            state.seat_count > 1
            and not state.help["called"]
            and any(state.zombie_row[c] is not None for c in state.attackers)
        ):
            return IllegalMove(
                "Your hand and cards in play can still gain enough damage to defeat every "
                "attacking Zombie.",
                "help_not_needed",
            )
        return IllegalMove(
            "You may Call for Help once per turn, while attacked, with other players.",
            "help_unavailable",
        )
    if kind == "end_turn" and unresolved_repeats(state, seat):
        return IllegalMove(
            "A Repeat ability of a Location or of a Zombie in the Zombie Row is still "
            "unresolved this turn (Repeat: each turn that card resolves its ability).",
            "repeat_unused",
        )
    if kind == "choose":
        assert state.prompt is not None  # "choose" is pending only with an open prompt
        return IllegalMove(
            f"{card!r} cannot be Ditched from your {state.prompt['from']}.", "not_ditchable"
        )
    if kind == "claim":
        return IllegalMove(f"'{command['choice']}' is not available.", "reward_unavailable")
    return IllegalMove(f"'{kind}' is not legal now.")


class Rules(GameRules):
    """The parts of the :class:`domain.decider.GameRules` template for this game."""

    command_schemas = spec.COMMAND_SCHEMAS

    def finished(self, state: MatchState) -> bool:
        """The match has a result."""
        return state.result is not None

    def pending_kind(self, state: MatchState, seat: int) -> str | None:
        """:func:`actions.pending` of ``seat`` (``turn``, ``assist``, ``help``, ...)."""
        return pending(state).get(seat)

    def is_legal(self, state: MatchState, seat: int, command: dict[str, Any], kind: str) -> bool:
        """One of :func:`actions.legal_actions`."""
        return command in legal_actions(state, seat)

    def rejection(
        self, state: MatchState, seat: int, command: dict[str, Any], kind: str
    ) -> IllegalMove:
        """The most specific reason (:func:`_reason`)."""
        return _reason(state, seat, command, command["type"])

    def apply(
        self, state: MatchState, seat: int, command: dict[str, Any], rng: random.Random
    ) -> list[Event]:
        """The command's events on a copy of ``state``; a game over stops them."""
        rec = Recorder(clone(state))
        try:
            _apply(rec, seat, command, command["type"], rng)
        except GameOver:
            pass
        return rec.events


#: this game's rules; ``decide(state, seat, command, rng)`` is :meth:`GameRules.decide`
RULES = Rules()
decide = RULES.decide


def _apply(
    rec: Recorder, seat: int, command: dict[str, Any], kind: str, rng: random.Random
) -> None:
    s = rec.state
    cat = catalogue()
    if kind == "play":
        card = command["card"]
        rec.emit("CardPlayed", {"seat": seat, "card": card}, seat)
        if cat.of(card).kind == "location" and cat.of(card).repeat:
            rec.emit("RepeatUsed", {"seat": seat, "card": card}, seat)
        resolve_card(rec, seat, card, ally=seat != s.active, rng=rng)
    elif kind == "occupy":
        rec.emit(
            "HumanOccupied",
            {
                "seat": seat,
                "card": command["card"],
                "location": command["location"],
                "upright": False,
            },
            seat,
        )
    elif kind == "use_repeat":
        card = command["card"]
        rec.emit("RepeatUsed", {"seat": seat, "card": card}, seat)
        if cat.of(card).kind == "zombie":  # ruling R-ZOMBIE-REPEAT: against the active seat
            run_zombie_steps(rec, seat, cat.of(card).repeat_ops, rng)
        else:
            resolve_card(rec, seat, card, ally=False, rng=rng)
    elif kind == "defeat":
        defeat(rec, command["column"], rng, command.get("spend"))
    elif kind == "call_for_help":
        rec.emit("HelpCalled", {"seat": seat, "queue": s.allies_in_order()}, seat)
    elif kind in ("assist", "decline"):
        rec.emit("HelpAnswered", {"seat": seat, "assist": kind == "assist"}, seat)
    elif kind == "end_assist":
        rec.emit("AssistEnded", {"seat": seat, "discarded": list(s.seats[seat].played)}, seat)
    elif kind in ("choose", "skip"):
        answer_prompt(rec, command, rng)
    elif kind == "claim":
        claim(rec, command["choice"], rng)
    elif kind == "end_turn":
        end_turn(rec, rng)
