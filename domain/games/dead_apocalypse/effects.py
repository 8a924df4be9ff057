"""Card abilities: resolving a played card, a Repeat ability, and Zombie abilities.

Vocabulary: see :mod:`.cards`. A player step that needs a choice (``ditch``, ``occupy``)
opens a *prompt* ``{"kind": "ditch"|"occupy", "seat", "source", "ally", "remaining",
"from"?, "rest": [steps after it]}``; the seat answers ``choose``/``skip`` and the rest
of the ability resolves afterwards (:func:`answer_prompt`). Rulebook: Playing Cards from
your Hand, Occupying Locations, Combating Zombies (conditions), Repeat.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from .cards import CardDef, catalogue
from .recorder import Recorder
from .stacks import ditch_stack, draw, reshuffle
from .state import MatchState


def in_play(state: MatchState, seat: int) -> list[str]:
    """Cards ``seat`` has in play: played this turn, then Locations (not occupants:
    "A Human placed beneath a Location is not considered to be in play")."""
    me = state.seats[seat]
    return me.played + [loc["card"] for loc in me.locations]


def matches(card: CardDef, cond: Mapping[str, str]) -> bool:
    """``cond`` is ``{"faction"|"kind"|"title": value}``."""
    key, value = next(iter(cond.items()))
    return getattr(card, key) == value


def gain_damage(rec: Recorder, seat: int, source: str, amount: int, ally: bool) -> None:
    """Add ``amount`` damage from card ``source`` (its title, kind and faction decide
    Zombie Immunities) to the turn's pool."""
    if amount <= 0:
        return
    card = catalogue().of(source)
    rec.emit("DamageGained", {"seat": seat, "source": source, "title": card.title, "kind": card.kind,
                              "faction": card.faction, "amount": amount, "ally": ally}, seat)


def ditch_candidates(state: MatchState, seat: int, zone: str) -> list[str]:
    """Cards ``seat`` may Ditch from ``zone`` ("hand" or "discard"); Infections never
    (only cures remove them: ruling R-INFECTION)."""
    cat = catalogue()
    cards = state.seats[seat].hand if zone == "hand" else state.seats[seat].discard
    return [c for c in cards if cat.of(c).kind != "infection"]


def occupy_targets(state: MatchState, seat: int) -> list[tuple[str, str]]:
    """``(human, location)`` pairs: a Human in hand and a Location of ``seat`` below its Occupancy."""
    cat = catalogue()
    me = state.seats[seat]
    humans = [c for c in me.hand if cat.of(c).kind == "human"]
    rooms = [loc["card"] for loc in me.locations if len(loc["occupants"]) < cat.of(loc["card"]).occupancy]
    return [(h, loc) for h in humans for loc in rooms]


def resolve_card(rec: Recorder, seat: int, card: str, ally: bool, rng: random.Random) -> None:
    """The card's printed damage, then its abilities in order (a play or a Repeat)."""
    cdef = catalogue().of(card)
    gain_damage(rec, seat, card, cdef.damage, ally)
    run_steps(rec, seat, card, list(cdef.abilities), ally, rng)


def run_steps(rec: Recorder, seat: int, source: str, steps: Sequence[Mapping[str, Any]],
              ally: bool, rng: random.Random) -> None:
    """Resolve player ability ``steps`` of ``source`` for ``seat``; stops at a prompt."""
    cat = catalogue()
    for i, step in enumerate(steps):
        s = rec.state
        op = step["op"]
        others = [cat.of(c) for c in in_play(s, seat) if c != source]
        if op == "damage_if":
            if any(matches(c, step["if"]) for c in others):
                gain_damage(rec, seat, source, step["amount"], ally)
        elif op == "damage_per":
            gain_damage(rec, seat, source, step["amount"] * sum(matches(c, step["per"]) for c in others), ally)
        elif op == "draw":
            draw(rec, seat, step["amount"], rng)
        elif op == "cure":
            infections = [c for c in s.seats[seat].hand if cat.of(c).kind == "infection"]
            for card in infections[:step["amount"]]:
                rec.emit("InfectionCured", {"seat": seat, "card": card}, seat)
        elif op == "gain":
            if s.adept_stack:
                rec.emit("CardGained", {"seat": seat, "card": s.adept_stack[0], "from": "adept_stack"}, seat)
        elif op == "ditch_self":
            if source in s.seats[seat].played:
                rec.emit("CardDitched", {"seat": seat, "card": source, "from": "played", "to": "ditch"}, seat)
        elif op in ("ditch", "occupy"):
            if op == "ditch" and not ditch_candidates(s, seat, step["from"]):
                continue
            if op == "occupy" and not occupy_targets(s, seat):
                continue
            prompt = {"kind": op, "seat": seat, "source": source, "ally": ally,
                      "remaining": step["amount"], "rest": [dict(x) for x in steps[i + 1:]]}
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
            rec.emit("CardDitched", {"seat": seat, "card": command["card"], "from": p["from"], "to": "ditch"}, seat)
        else:
            rec.emit("HumanOccupied", {"seat": seat, "card": command["card"], "location": command["location"],
                                       "upright": True}, seat)
            human = catalogue().of(command["card"])
            gain_damage(rec, seat, command["location"], human.damage, p["ally"])
        p["remaining"] -= 1
        s = rec.state
        more = (ditch_candidates(s, seat, p["from"]) if p["kind"] == "ditch" else occupy_targets(s, seat))
        if p["remaining"] > 0 and more:
            rec.emit("PromptOpened", {"prompt": p}, seat)
            return
    rec.emit("PromptClosed", {"kind": p["kind"]}, seat)
    run_steps(rec, seat, p["source"], p["rest"], p["ally"], rng)


def run_zombie_steps(rec: Recorder, seat: int, steps: Sequence[Mapping[str, Any]],
                     rng: random.Random) -> None:
    """Resolve Zombie ability / After Combat ``steps`` against ``seat`` (no choices)."""
    cat = catalogue()
    for step in steps:
        op = step["op"]
        for _ in range(step.get("amount", 1)):
            s = rec.state
            me = s.seats[seat]
            if op == "gain_infection" and s.infection_stack:
                rec.emit("InfectionGained", {"seat": seat, "card": s.infection_stack[0]}, seat)
            elif op == "discard_random" and me.hand:
                rec.emit("CardDiscarded", {"seat": seat, "card": rng.choice(me.hand), "from": "hand"}, seat)
            elif op == "ditch_stack":
                ditch_stack(rec, 1, rng)
            elif op == "ditch_deck_top" and reshuffle(rec, seat, rng):
                top = rec.state.seats[seat].deck[0]
                to = "infection_stack" if cat.of(top).kind == "infection" else "ditch"
                rec.emit("CardDitched", {"seat": seat, "card": top, "from": "deck", "to": to}, seat)
            elif op == "ditch_location" and me.locations:
                loc = me.locations[0]
                rec.emit("LocationDitched", {"seat": seat, "card": loc["card"],
                                             "occupants": [o["card"] for o in loc["occupants"]]}, seat)
