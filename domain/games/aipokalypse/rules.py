"""``decide``: validate a command for a seat and return the events it causes.

This game's parts of the :class:`domain.decider.GameRules` template.
Dispatches to :mod:`.recruitment` (Phase 1) and the reaction commands of :mod:`.battle`
(Phase 2); faction choice is Game Setup (B). After the command's own events the automatic
steps of :mod:`.flow` run (battle start when every seat is ready, points without reactions,
battle result, next round) in the same batch. Errors are the ``domain.engine`` RuleError
family with stable codes; nothing is returned on error.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.decider import GameRules
from domain.engine import Event, IllegalMove, InvalidCommand
from domain.modular import check_command

from . import batching, battle, draft, flow, recruitment
from .actions import pending
from .context import Ctx, NeedChoice
from .spec import COMMAND_SCHEMAS
from .state import MatchState, fight_of


def check_shape(cmd: Mapping[str, Any]) -> dict[str, Any]:
    """``cmd`` checked against its command schema by the one validator
    (:func:`domain.modular.check_command`, which returns it normalised), then the
    cross-field rule of ``triple``: a ``special`` names the pool card exactly for the
    sources ``pool`` and ``partner``. Raises UnknownAction / InvalidCommand."""
    cmd = check_command(COMMAND_SCHEMAS, cmd)
    if cmd["type"] == "triple" and (cmd["source"] in ("pool", "partner")) != ("special" in cmd):
        raise InvalidCommand(
            "'special' names the pool card, and only for the sources 'pool' and 'partner'.",
            "special",
        )
    return cmd


class Rules(GameRules):
    """The parts of the :class:`domain.decider.GameRules` template for this game.

    The effects of a command check their own rules as they run (an effect may first need a
    decision, :meth:`.context.Ctx.ask`), so :meth:`is_legal` checks only the open choice and
    :meth:`apply` raises the explained rejection of the phase's rules (``wrong_phase``
    and the finer codes of :mod:`.recruitment` and :mod:`.battle`)."""

    command_schemas = COMMAND_SCHEMAS

    def finished(self, state: MatchState) -> bool:
        """The match ended (phase ``ended``)."""
        return state.phase == "ended"

    def pending_kind(self, state: MatchState, seat: int) -> str | None:
        """:func:`actions.pending` of ``seat``."""
        return pending(state).get(seat) if seat < state.n else None

    def check_shape(self, command: Any) -> dict[str, Any]:
        """:func:`check_shape` (the schema and the cross-field rule of ``triple``)."""
        return dict(check_shape(command))

    def is_legal(self, state: MatchState, seat: int, command: dict[str, Any], kind: str) -> bool:
        """An open choice takes only a ``choose`` naming one of its options; without one a
        ``choose`` is refused (the rest is checked as the command runs)."""
        held = state.choice
        if held:
            return command["type"] == "choose" and command["option"] in held["options"]
        return command["type"] != "choose"

    def rejection(
        self, state: MatchState, seat: int, command: dict[str, Any], kind: str
    ) -> IllegalMove:
        """``choice_pending``, ``invalid_choice`` or ``no_choice``."""
        held = state.choice
        if not held:
            return IllegalMove("There is no open choice.", "no_choice")
        if command["type"] != "choose":
            return IllegalMove("Answer the open choice first.", "choice_pending")
        return IllegalMove(f"{command['option']!r} is not one of the options.", "invalid_choice")

    def apply(
        self, state: MatchState, seat: int, command: dict[str, Any], rng: random.Random
    ) -> list[Event]:
        """The command's events: a held command resumed with the answer (``ChoiceMade``
        first), else the command run with a fresh 64-bit seed (:func:`execute`). Every run
        of hidden events (a Recruitment command's whole effect) is returned as one
        ``RecruitmentMoves`` event (:mod:`.batching`, ruling R-HIDDEN-BATCH), of ``seat``
        when the command is a Recruitment command."""
        mover = seat if state.phase == "recruitment" else None
        held = state.choice
        if held:
            head = [Event("ChoiceMade", {"kind": held["kind"], "option": command["option"]}, seat)]
            events = execute(
                state,
                held["actor"],
                held["command"],
                held["seed"],
                held["answers"] + [command["option"]],
                head,
            )
        else:
            events = execute(state, seat, command, rng.getrandbits(64), [], [])
        return batching.batch(events, mover)


#: this game's rules. ``decide(state, seat, cmd, rng)`` is :meth:`GameRules.decide`: the
#: events caused by ``cmd`` from ``seat``. A command whose effects need a decision
#: (:meth:`.context.Ctx.ask`) is held: its only event is ``ChoiceRequested`` (the command,
#: the answers so far and a 64-bit seed for its randomness); only the choosing seat is
#: pending. Its ``choose`` answer re-executes the held command on the unchanged state with
#: the same seed and the answers, so the effect continues exactly where it stopped.
RULES = Rules()
decide = RULES.decide


def execute(
    state: MatchState,
    seat: int,
    cmd: Mapping[str, Any],
    seed: int | str,
    answers: list,
    head: list[Event],
) -> list[Event]:
    """Run ``cmd`` of ``seat`` after the events ``head`` with ``Random(seed)`` and the
    recorded ``answers``; on a new decision return ``head`` + one ``ChoiceRequested``.
    ``seed`` may be its decimal string: a log of format ``apocalypse-arena/log@2`` stores
    integers beyond 2^53 (this 64-bit seed) as strings, and the fold keeps what it read."""
    seed = int(seed)
    ctx = Ctx(state, random.Random(seed), answers)
    for event in head:
        ctx.emit(event.type, event.seat, **dict(event.data))
    try:
        dispatch(ctx, seat, cmd)
    except NeedChoice as need:
        if ctx.resume is not None:  # keep the final events, hold only what follows them
            done, resume = ctx.resume
            kept = Ctx(state, random.Random(seed))
            for event in ctx.events[:done]:
                kept.emit(event.type, event.seat, **dict(event.data))
            return kept.events + execute(kept.state, seat, resume, seed, [], [])
        ctx = Ctx(state, random.Random(seed))
        for event in head:
            ctx.emit(event.type, event.seat, **dict(event.data))
        ctx.emit(
            "ChoiceRequested",
            need.seat,
            actor=seat,
            command=dict(cmd),
            seed=seed,
            answers=list(answers),
            kind=need.kind,
            options=need.options,
            prompt=need.prompt,
            **({"decline": need.decline} if need.decline is not None else {}),
        )
    return ctx.events


def dispatch(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """Apply one validated command of ``seat`` to ``ctx`` (phase by phase)."""
    kind = cmd["type"]
    phase = ctx.state.phase
    if phase == "draft":
        draft.decide(ctx, seat, cmd)
    elif phase == "faction" and kind == flow.START_OF_GAME["type"]:
        if not ctx.state.factions_revealed:  # only ever a held command (check_shape refuses it)
            raise IllegalMove("The factions are not revealed yet.", "wrong_phase")
        flow.start_of_game(ctx)
    elif phase == "faction":
        if kind != "choose_faction":
            raise IllegalMove("Choose your faction first.", "wrong_phase")
        p = ctx.players[seat]
        if cmd["faction"] not in p.offered:
            raise IllegalMove("That faction was not offered to you.", "faction_not_offered")
        ctx.emit("FactionChosen", seat, faction=cmd["faction"])
        if all(ctx.players[s].faction for s in range(ctx.state.n)):
            flow.factions_chosen(ctx)
    elif phase == "recruitment":
        if kind in (
            "react_card",
            "react_ammo",
            "react_ammo_humans",
            "pass",
            "choose_faction",
            "place_card",
            "draft_special",
            "order_health",
        ):
            raise IllegalMove(f"{kind!r} is not a Recruitment Phase action.", "wrong_phase")
        recruitment.decide(ctx, seat, cmd)
    else:
        if kind not in (
            "react_card",
            "react_ammo",
            "react_ammo_humans",
            "pass",
            "place_card",
            "cash_pool",
        ):
            raise IllegalMove(f"{kind!r} is not a Battle Phase action.", "wrong_phase")
        if kind == "place_card":
            _place(ctx, seat, cmd)
        elif kind == "cash_pool":
            recruitment.cash_pool(ctx, seat, cmd)
        else:
            _react(ctx, seat, cmd)


def _place(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    if pending(ctx.state).get(seat) != "place_card":
        raise IllegalMove("Your battle card needs no place now.", "wrong_phase")
    if cmd["slot"] not in battle.needs_placement(ctx.state, seat):
        raise IllegalMove("Place the card on an empty slot or an active unit.", "invalid_placement")
    ctx.emit("BattleCardPlaced", seat, slot=cmd["slot"])
    flow.advance(ctx)


def _react(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    legal = battle.reactions(ctx.state, seat)
    if dict(cmd) not in legal:
        if cmd["type"] == "react_card" and cmd["card"] not in ctx.players[seat].hand:
            # the same answer for another seat's card and no card at all (nothing leaks)
            raise IllegalMove(f"{cmd['card']!r} is not in your hand.", "card_not_in_hand")
        raise IllegalMove(
            "Only a reaction that makes you (tied) highest is allowed.", "reaction_not_allowed"
        )
    kind = cmd["type"]
    p = ctx.players[seat]
    if kind == "pass":
        ctx.emit("ReactionPassed", seat)
    elif kind == "react_card":
        slot, fights = battle.fighter_for(p, cmd["card"])
        ctx.emit("BattleCardReplaced", seat, card=cmd["card"], slot=slot, fights=fights)
        if fights and slot is not None:  # a fighting card always has its slot
            battle._on_fight(ctx, seat, slot)
    elif kind == "react_ammo_humans":
        battle.spend_ammo_on_all_in_battle(ctx, seat, cmd["count"])
    else:
        ctx.emit("AmmoSpent", seat, count=cmd["count"], slot=fight_of(p).slot, battle=True)
    flow.advance(ctx)
