"""Card abilities: resolving a played card, a Repeat ability, and Zombie abilities.

Vocabulary: see :mod:`.cards`. A player step that needs a choice (``ditch``, ``occupy``)
opens a *prompt* ``{"kind": "ditch"|"occupy", "seat", "source", "ally", "remaining",
"from"?, "rest": [steps after it]}``; the seat answers ``choose``/``skip`` and the rest
of the ability resolves afterwards (:func:`answer_prompt`). Rulebook: Playing Cards from
your Hand, Occupying Locations, Combating Zombies (conditions), Repeat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import catalogue
from .conditions import in_play, matches, value_with  # noqa: F401  (re-exported)
from .recorder import Recorder
from .stacks import ditch_stack, draw, reshuffle
from .state import MatchState


def gain_damage(
    rec: Recorder,
    seat: int,
    source: str,
    amount: int,
    ally: bool,
    cond: Mapping[str, Any] | None = None,
) -> None:
    """Add ``amount`` damage from card ``source`` (its title, kind and faction decide
    Zombie Immunities) to the turn's pool. With ``cond`` (a ``damage_if``/``damage_per``
    step) the entry is conditional: ``amount`` is its value now and the fold keeps it up
    to date while cards enter play (ruling R-CONDITION, :mod:`.conditions`)."""
    card = catalogue().of(source)
    data: dict[str, Any] = {
        "seat": seat,
        "source": source,
        "title": card.title,
        "kind": card.kind,
        "faction": card.faction,
        "amount": amount,
        "ally": ally,
    }
    if cond is not None:
        data["cond"] = {
            "op": cond["op"],
            "amount": cond["amount"],
            "match": dict(cond.get("if") or cond["per"]),
        }
        data["spent"] = 0
        data["amount"] = value_with(in_play(rec.state, rec.state.active), source, data["cond"])
    elif amount <= 0:
        return
    rec.emit("DamageGained", data, seat)


def ditch_candidates(state: MatchState, seat: int, zone: str) -> list[str]:
    """Cards ``seat`` may Ditch from ``zone`` ("hand" or "discard"): every card there,
    Infections included (Scavenger, Crowbar, Watchtower: "Ditch a card from your hand";
    Priest: "Ditch up to 2 cards from your discard pile"; ruling R-INFECTION)."""
    return list(state.seats[seat].hand if zone == "hand" else state.seats[seat].discard)


def occupy_targets(state: MatchState, seat: int) -> list[tuple[str, str]]:
    """``(human, location)`` pairs: a Human in hand and a Location of ``seat`` below its Occupancy.

    RULINGS R-OCCUPY.
    """
    cat = catalogue()
    me = state.seats[seat]
    humans = [c for c in me.hand if cat.of(c).kind == "human"]
    rooms = [
        loc["card"] for loc in me.locations if len(loc["occupants"]) < cat.of(loc["card"]).occupancy
    ]
    return [(h, loc) for h in humans for loc in rooms]


def resolve_card(rec: Recorder, seat: int, card: str, ally: bool, rng: random.Random) -> None:
    """The card's printed damage, then its abilities in order (a play or a Repeat).

    RULINGS R-PLAY.
    """
    cdef = catalogue().of(card)
    gain_damage(rec, seat, card, cdef.damage, ally)
    run_steps(rec, seat, card, list(cdef.abilities), ally, rng)


def run_steps(
    rec: Recorder,
    seat: int,
    source: str,
    steps: Sequence[Mapping[str, Any]],
    ally: bool,
    rng: random.Random,
) -> None:
    """Resolve player ability ``steps`` of ``source`` for ``seat``; stops at a prompt.

    RULINGS R-RANDOM.
    """
    cat = catalogue()
    for i, step in enumerate(steps):
        s = rec.state
        op = step["op"]
        if op in ("damage_if", "damage_per"):
            gain_damage(rec, seat, source, 0, ally, cond=step)
        elif op == "draw":
            draw(rec, seat, step["amount"], rng)
        elif op == "cure":
            infections = [c for c in s.seats[seat].hand if cat.of(c).kind == "infection"]
            for card in infections[: step["amount"]]:
                rec.emit("InfectionCured", {"seat": seat, "card": card}, seat)
        elif op == "gain":
            if s.adept_stack:
                rec.emit(
                    "CardGained",
                    {"seat": seat, "card": s.adept_stack[0], "from": "adept_stack"},
                    seat,
                )
        elif op == "ditch_self":
            if source in s.seats[seat].played:
                rec.emit(
                    "CardDitched",
                    {"seat": seat, "card": source, "from": "played", "to": "ditch"},
                    seat,
                )
        elif op in ("ditch", "occupy"):
            if op == "ditch" and not ditch_candidates(s, seat, step["from"]):
                continue
            if op == "occupy" and not occupy_targets(s, seat):
                continue
            prompt = {
                "kind": op,
                "seat": seat,
                "source": source,
                "ally": ally,
                "remaining": step["amount"],
                "rest": [dict(x) for x in steps[i + 1 :]],
            }
            if op == "ditch":
                prompt["from"] = step["from"]
            rec.emit("PromptOpened", {"prompt": prompt}, seat)
            return


def answer_prompt(rec: Recorder, command: Mapping[str, Any], rng: random.Random) -> None:
    """Apply ``choose``/``skip`` to the open ditch/occupy prompt, then resume the ability."""
    p = dict(rec.state.prompt)
    seat = p["seat"]
    if command["type"] == "choose":
        if p["kind"] == "ditch":
            rec.emit(
                "CardDitched",
                {"seat": seat, "card": command["card"], "from": p["from"], "to": "ditch"},
                seat,
            )
        else:
            rec.emit(
                "HumanOccupied",
                {
                    "seat": seat,
                    "card": command["card"],
                    "location": command["location"],
                    "upright": True,
                },
                seat,
            )
            human = catalogue().of(command["card"])
            gain_damage(rec, seat, command["location"], human.damage, p["ally"])
        p["remaining"] -= 1
        s = rec.state
        more = (
            ditch_candidates(s, seat, p["from"])
            if p["kind"] == "ditch"
            else occupy_targets(s, seat)
        )
        if p["remaining"] > 0 and more:
            rec.emit("PromptOpened", {"prompt": p}, seat)
            return
    rec.emit("PromptClosed", {"kind": p["kind"]}, seat)
    run_steps(rec, seat, p["source"], p["rest"], p["ally"], rng)


def run_zombie_steps(
    rec: Recorder, seat: int, steps: Sequence[Mapping[str, Any]], rng: random.Random
) -> None:
    """Resolve Zombie ability / After Combat ``steps`` against ``seat`` (no choices)."""
    for step in steps:
        op = step["op"]
        for _ in range(step.get("amount", 1)):
            s = rec.state
            me = s.seats[seat]
            if op == "gain_infection" and s.infection_stack:
                rec.emit("InfectionGained", {"seat": seat, "card": s.infection_stack[0]}, seat)
            elif op == "discard_random" and me.hand:
                rec.emit(
                    "CardDiscarded",
                    {"seat": seat, "card": rng.choice(me.hand), "from": "hand"},
                    seat,
                )
            elif op == "ditch_stack":
                ditch_stack(rec, 1, rng)
            elif op == "ditch_deck_top" and reshuffle(rec, seat, rng):
                top = rec.state.seats[seat].deck[
                    0
                ]  # Infections too: "any other card is Ditched, it goes to the Ditch Pile"
                rec.emit(
                    "CardDitched", {"seat": seat, "card": top, "from": "deck", "to": "ditch"}, seat
                )
            elif op == "ditch_location" and me.locations:
                loc = me.locations[0]
                rec.emit(
                    "LocationDitched",
                    {
                        "seat": seat,
                        "card": loc["card"],
                        "occupants": [o["card"] for o in loc["occupants"]],
                    },
                    seat,
                )
