"""``decide``: validate a command for a seat and return the events it causes.

Dispatches to :mod:`.recruitment` (Phase 1) and the reaction commands of :mod:`.battle`
(Phase 2); faction choice is Game Setup (B). After the command's own events the automatic
steps of :mod:`.flow` run (battle start when every seat is ready, points without reactions,
battle result, next round) in the same batch. Errors are the ``domain.engine`` RuleError
family with stable codes; nothing is returned on error.
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from domain.engine import Event, IllegalMove, InvalidCommand, MatchFinished, NotYourTurn
from domain.modular import check_command

from . import batching, battle, draft, flow, recruitment
from .actions import pending
from .context import Ctx, NeedChoice
from .spec import COMMAND_SCHEMAS

def check_shape(cmd: Mapping[str, Any]) -> dict[str, Any]:
    """``cmd`` checked against its command schema by the one validator
    (:func:`domain.modular.check_command`, which returns it normalised), then the
    cross-field rule of ``triple``: a ``special`` names the pool card exactly for the
    sources ``pool`` and ``partner``. Raises UnknownAction / InvalidCommand."""
    cmd = check_command(COMMAND_SCHEMAS, cmd)
    if cmd["type"] == "triple" and (cmd["source"] in ("pool", "partner")) != ("special" in cmd):
        raise InvalidCommand("'special' names the pool card, and only for the sources 'pool' "
                             "and 'partner'.", "special")
    return cmd


def decide(state: dict, seat: int, cmd: Mapping[str, Any], rng: random.Random) -> list[Event]:
    """Events caused by ``cmd`` from ``seat`` (see module doc). Raises RuleError subclasses:
    ``match_finished``, ``not_your_turn``, ``unknown_action``, ``invalid_command``,
    ``wrong_phase``, ``choice_pending``, ``no_choice``, ``invalid_choice`` and the finer codes
    of :mod:`.recruitment`.

    A command whose effects need a decision (:meth:`.context.Ctx.ask`) is held: its only
    event is ``ChoiceRequested`` (the command, the answers so far and a 64-bit seed for its
    randomness); only the choosing seat is pending. Its ``choose`` answer re-executes the
    held command on the unchanged state with the same seed and the answers, so the effect
    continues exactly where it stopped (:func:`execute`).

    Every run of hidden events (a Recruitment command's whole effect) is returned as one
    ``RecruitmentMoves`` event (:mod:`.batching`, ruling R-hidden-batch), of ``seat`` when the
    command is a Recruitment command."""
    mover = seat if isinstance(seat, int) and state.get("phase") == "recruitment" else None
    return batching.batch(_decide(state, seat, cmd, rng), mover)


def _decide(state: dict, seat: int, cmd: Mapping[str, Any], rng: random.Random) -> list[Event]:
    if state["phase"] == "ended":
        raise MatchFinished()
    cmd = check_shape(cmd)
    kind = cmd["type"]
    if not isinstance(seat, int) or not 0 <= seat < state["n"] or seat not in pending(state):
        raise NotYourTurn()
    held = state.get("choice")
    if held:
        if kind != "choose":
            raise IllegalMove("Answer the open choice first.", "choice_pending")
        if cmd["option"] not in held["options"]:
            raise IllegalMove(f"{cmd['option']!r} is not one of the options.", "invalid_choice")
        head = [Event("ChoiceMade", {"kind": held["kind"], "option": cmd["option"]}, seat)]
        return execute(state, held["actor"], held["command"], held["seed"],
                       held["answers"] + [cmd["option"]], head)
    if kind == "choose":
        raise IllegalMove("There is no open choice.", "no_choice")
    return execute(state, seat, dict(cmd), rng.getrandbits(64), [], [])


def execute(state: dict, seat: int, cmd: Mapping[str, Any], seed: int | str, answers: list,
            head: list[Event]) -> list[Event]:
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
        if ctx.resume is not None:       # keep the final events, hold only what follows them
            done, resume = ctx.resume
            kept = Ctx(state, random.Random(seed))
            for event in ctx.events[:done]:
                kept.emit(event.type, event.seat, **dict(event.data))
            return kept.events + execute(kept.state, seat, resume, seed, [], [])
        ctx = Ctx(state, random.Random(seed))
        for event in head:
            ctx.emit(event.type, event.seat, **dict(event.data))
        ctx.emit("ChoiceRequested", need.seat, actor=seat, command=dict(cmd), seed=seed,
                 answers=list(answers), kind=need.kind, options=need.options, prompt=need.prompt,
                 **({"decline": need.decline} if need.decline is not None else {}))
    return ctx.events


def dispatch(ctx: Ctx, seat: int, cmd: Mapping[str, Any]) -> None:
    """Apply one validated command of ``seat`` to ``ctx`` (phase by phase)."""
    kind = cmd["type"]
    phase = ctx.state["phase"]
    if phase == "draft":
        draft.decide(ctx, seat, cmd)
    elif phase == "faction" and kind == flow.START_OF_GAME["type"]:
        if not ctx.state.get("factions_revealed"):      # only ever a held command (check_shape refuses it)
            raise IllegalMove("The factions are not revealed yet.", "wrong_phase")
        flow.start_of_game(ctx)
    elif phase == "faction":
        if kind != "choose_faction":
            raise IllegalMove("Choose your faction first.", "wrong_phase")
        p = ctx.players[seat]
        if cmd["faction"] not in p["offered"]:
            raise IllegalMove("That faction was not offered to you.", "faction_not_offered")
        ctx.emit("FactionChosen", seat, faction=cmd["faction"])
        if all(ctx.players[s]["faction"] for s in range(ctx.state["n"])):
            flow.factions_chosen(ctx)
    elif phase == "recruitment":
        if kind in ("react_card", "react_ammo", "react_ammo_humans", "pass", "choose_faction", "place_card",
                    "draft_special", "order_health"):
            raise IllegalMove(f"{kind!r} is not a Recruitment Phase action.", "wrong_phase")
        recruitment.decide(ctx, seat, cmd)
    else:
        if kind not in ("react_card", "react_ammo", "react_ammo_humans", "pass", "place_card", "cash_pool"):
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
        raise IllegalMove("Only a reaction that makes you (tied) highest is allowed.", "reaction_not_allowed")
    kind = cmd["type"]
    p = ctx.players[seat]
    if kind == "pass":
        ctx.emit("ReactionPassed", seat)
    elif kind == "react_card":
        slot, fights = battle.fighter_for(p, cmd["card"])
        ctx.emit("BattleCardReplaced", seat, card=cmd["card"], slot=slot, fights=fights)
        if fights:
            battle._on_fight(ctx, seat, slot)
    elif kind == "react_ammo_humans":
        battle.spend_ammo_on_all_in_battle(ctx, seat, cmd["count"])
    else:
        ctx.emit("AmmoSpent", seat, count=cmd["count"], slot=p["current"]["slot"], battle=True)
    flow.advance(ctx)
