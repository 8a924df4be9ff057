"""Who must act now (``pending``) and every command a seat may send (``legal_actions``).

Decision kinds: ``turn`` (the active seat's play step), ``help`` (a seat answering a Call
for Help, one at a time from the active seat's left), ``assist`` (that seat playing cards
from its hand), ``ditch``/``occupy`` (an ability prompt), ``reward`` (an assisting seat
choosing the Resource Row card or an Adept Survivor).

A ``defeat`` lists the bare command (the default spending, ruling R-SPEND) and, when the
choice matters, one ``defeat`` with ``spend`` per distinct way to pay the HP
(:func:`combat.spend_options`). ``end_turn`` is not legal while a Location's Repeat is
unused (ruling R-REPEAT) or a Zombie's Repeat in the Zombie Row is unresolved, and that
Zombie cannot be defeated before it is (ruling R-ZOMBIE-REPEAT); the Zombie Repeats are
listed first: "Typically Zombie Repeat abilities should be resolved at the beginning of the
turn".
"""

from __future__ import annotations

from typing import Any

from .call_for_help import help_needed
from .cards import catalogue
from .combat import reward_options, spend_options
from .effects import ditch_candidates, occupy_targets
from .state import MatchState

PLAYABLE = ("human", "equipment", "location")


def pending(state: MatchState) -> dict[int, str]:
    """``{seat: kind}`` of the one seat that must act now; ``{}`` once the match is over."""
    if state.result is not None:
        return {}
    if state.prompt is not None:
        return {state.prompt["seat"]: state.prompt["kind"]}
    if state.help.get("assisting") is not None:
        return {state.help["assisting"]: "assist"}
    if state.help.get("queue"):
        return {state.help["queue"][0]: "help"}
    return {state.active: "turn"}


def can_call_for_help(state: MatchState) -> bool:
    """Call for Help: only when attacked (an attacking Zombie is still undefeated), once
    per turn, only with other seats at the table, and only while the active seat's hand
    and cards in play will not gain enough damage to defeat every attacker
    (:func:`call_for_help.help_needed`)."""
    return (
        state.seat_count > 1
        and not state.help["called"]
        and any(state.zombie_row[c] is not None for c in state.attackers)
        and help_needed(state)
    )


def playable(state: MatchState, seat: int) -> list[str]:
    """Hand cards ``seat`` may play (Infections never: they are never "in play")."""
    cat = catalogue()
    return [c for c in state.seats[seat].hand if cat.of(c).kind in PLAYABLE]


def repeatable(state: MatchState, seat: int) -> list[str]:
    """Locations of ``seat`` in play with a Repeat ability not yet used this turn.

    RULINGS R-REPEAT.
    """
    cat = catalogue()
    return [
        loc["card"]
        for loc in state.seats[seat].locations
        if cat.of(loc["card"]).repeat and loc["card"] not in state.repeat_used
    ]


def zombie_repeats(state: MatchState) -> list[str]:
    """Zombies in the Zombie Row, left to right, whose Repeat ability has not resolved this
    turn (Repeat: "the active player decides when to resolve a Repeat ability during their
    turn"; ruling R-ZOMBIE-REPEAT). Such a Zombie cannot be defeated yet: the player
    chooses when its Repeat resolves, not whether."""
    cat = catalogue()
    return [
        z
        for z in state.zombie_row
        if z is not None and cat.of(z).repeat_ops and z not in state.repeat_used
    ]


def unresolved_repeats(state: MatchState, seat: int) -> list[str]:
    """Every Repeat the active ``seat`` still owes this turn: the Zombie Row's, then its
    Locations' (``end_turn`` waits for all of them)."""
    return zombie_repeats(state) + repeatable(state, seat)


def legal_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now, in a stable order (empty if it has none)."""
    kind = pending(state).get(seat)
    if kind is None:
        return []
    if kind == "ditch":
        assert state.prompt is not None  # the decision answers an open prompt
        cards = ditch_candidates(state, seat, state.prompt["from"])
        return [{"type": "choose", "card": c} for c in cards] + [{"type": "skip"}]
    if kind == "occupy":
        return [
            {"type": "choose", "card": h, "location": loc} for h, loc in occupy_targets(state, seat)
        ] + [{"type": "skip"}]
    if kind == "reward":
        p = state.prompt
        assert p is not None  # the decision answers an open prompt
        return [
            {"type": "claim", "choice": o} for o in reward_options(state, p["column"], p["taken"])
        ]
    if kind == "help":
        return [{"type": "assist"}, {"type": "decline"}]
    plays = [{"type": "play", "card": c} for c in playable(state, seat)]
    if kind == "assist":
        return plays + [{"type": "end_assist"}]
    out: list[dict[str, Any]] = [
        {"type": "use_repeat", "card": z} for z in zombie_repeats(state)
    ] + plays
    out += [
        {"type": "occupy", "card": h, "location": loc} for h, loc in occupy_targets(state, seat)
    ]
    out += [{"type": "use_repeat", "card": c} for c in repeatable(state, seat)]
    owed = zombie_repeats(state)
    for c in range(len(state.zombie_row)):
        if state.zombie_row[c] in owed:  # when, not whether: its Repeat resolves before its defeat
            continue
        plans = spend_options(state, c)
        if plans:
            out.append({"type": "defeat", "column": c})
            if len(plans) > 1:
                out += [{"type": "defeat", "column": c, "spend": p} for p in plans]
    if can_call_for_help(state):
        out.append({"type": "call_for_help"})
    if not unresolved_repeats(state, seat):  # Repeat: "each turn that card resolves its ability"
        out.append({"type": "end_turn"})
    return out
