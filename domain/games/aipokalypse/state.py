"""Match state of A.I.Pokalypse: a plain JSON-shaped dict (snapshots are the dict itself).

Layout (every id is a card id of :mod:`.cards`)::

    {"n": seats (human seats), "mode": "competitive" | "solo" | "coop", "round": int,
     "second_copy": bool (5-8 Player Variant),
     "toma": None | {"seat": n (its index in "players"), "difficulty", "discard_due": int,
                     "ailien_stays": bool, "alt_pending": None | int (round), "gift_used": bool},
     "phase": "draft" | "faction" | "recruitment" | "battle" | "ended",
     "draw": [ids] (top = index 0), "discard": [ids] (top = last), "specials": [ids] (main deck
     of Special Units, top = 0), "ammo_deck": [faction ids] (top = 0),
     "sudden_death": bool, "apocalypse": bool, "battle": {"cards": int, "point": int},
     "result": None | {...}, "players": [player, ...],
     "choice": None | {"seat", "actor", "command", "seed", "answers", "kind", "options",
                       "prompt"} (an effect decision the held command waits for)}

    player = {"offered": [2 faction ids], "faction": id | None, "extra_factions": [ids],
      "hand": [ids], "health": [ids] (top = 0), "pool": [ids], "ammo": [faction ids],
      "slots": [slot, ...], "ready": bool, "eliminated": bool, "offer": [ids],
      "offer_ctx": None | {"pos": int, "slot": int | None, "source": str},
      "public": None | {revealed board}, "stack": [battle card ids], "current": None | fight,
      "beside": [[id, up]], "passed": bool, "score": int, "stash": [ids], "used": [str],
      "triples": int, "guess": None | int (XxX's secret score guess),
      "packet": [ids], "drafted": [ids], "picked": bool (Expert Variant draft),
      "table_factions": [ids] (Force the Luck: factions every seat uses),
      "tucked": {pool special id: [ids]} (Kollektah: cards under pool Special Units),
      "megaton": [ids] (cards loaded face down on Megaton, only its Boom uses them),
      "colony": id | None, "colony_out": bool (Venus Colony's A.I.Lien, in use this battle),
      "colony_seen": id | None (the A.I.Lien everybody saw placed on Venus Colony),
      "moved": bool (Cooperative Mode: made a Recruitment move this phase),
      "toma": True (only on the A.I.Toma's entry, ``players[n]``: no hand, no faction)}

    slot = {"card": id, "red": bool, "unit": id | None, "pos": int (index into SCALE),
      "attached": [ids], "temp": int, "battle": [[id, up]], "exhausted": bool,
      "ammo_temp": int, "ammo_cards": [faction ids] (Desert Rats: ammo lying on the unit)}
      The A.I.Toma's slots add "pile": [ids] (its unit: the stacked cards, bottom first;
      "unit" is the bottom card, "card" is None) and their strength is the pile's card values.

    fight = {"card": id, "slot": int | None, "ammo": [faction ids], "bonus": int,
      "forced": bool}

Rulebook: "Game Setup", "Slots & Recruitment", "Improving Units", "Ammo", "Red Slots",
"Before the Battle", "Battle Cards".
"""
from __future__ import annotations

import copy
import json
from typing import Any, Mapping

from .cards import catalogue
from .spec import MAX_AMMO, MAX_POS, SCALE, WILD_COLORS


def new_player(offered: list[str], health: list[str], hand: list[str]) -> dict[str, Any]:
    """A seat right after Game Setup (B)-(D): offered factions, health stack, 6 hand cards."""
    return {"offered": list(offered), "faction": None, "extra_factions": [], "hand": list(hand),
            "health": list(health), "pool": [], "ammo": [], "slots": [], "ready": False,
            "eliminated": False, "offer": [], "offer_ctx": None, "public": None, "stack": [],
            "current": None, "beside": [], "passed": False, "score": 0, "stash": [], "used": [],
            "triples": 0, "guess": None, "packet": [], "drafted": [], "picked": False,
            "table_factions": [], "tucked": {}, "colony": None, "colony_out": False,
            "colony_seen": None, "megaton": []}


def new_slot(card: str, red: bool = False) -> dict[str, Any]:
    """An empty slot made of ``card`` (a basic unit face down, or a Special Unit's red side)."""
    return {"card": card, "red": red, "unit": None, "pos": 0, "attached": [], "temp": 0,
            "battle": [], "exhausted": False, "ammo_temp": 0, "ammo_cards": []}


def strength_of(slot: Mapping[str, Any]) -> int:
    """The printed strength of the unit on ``slot`` (0 for an empty slot). An A.I.Toma unit:
    "The strength of its units is determined by the sum of all card values in a slot"."""
    if not slot["unit"]:
        return 0
    pile = slot.get("pile")
    if pile is not None:
        cat = catalogue()
        return sum(cat[c].value or 0 for c in pile)
    return SCALE[slot["pos"]]


def new_toma_slot(pile: list[str]) -> dict[str, Any]:
    """An A.I.Toma slot holding the unit ``pile`` (bottom card first; empty: an empty slot)."""
    slot = new_slot(None)
    slot["pile"] = list(pile)
    slot["unit"] = pile[0] if pile else None
    return slot


def is_toma(player: Mapping[str, Any]) -> bool:
    """True for the A.I.Toma's entry in ``players`` (Solo / Cooperative Mode)."""
    return bool(player.get("toma"))


def toma_seat(state: Mapping[str, Any]) -> int | None:
    """Index of the A.I.Toma in ``state["players"]`` (``n``), ``None`` outside solo/co-op."""
    toma = state.get("toma")
    return toma["seat"] if toma else None


def seats(state: Mapping[str, Any]) -> range:
    """The human seats ``0..n-1`` (the A.I.Toma, if any, is ``players[n]``)."""
    return range(state["n"])


def opponents_of(state: Mapping[str, Any], seat: int) -> list[int]:
    """Living opponents of ``seat`` clockwise from its left neighbour. Against the A.I.Toma the
    human seats are one side: a seat's only opponent is the A.I.Toma (co-op partners are not
    opponents), the A.I.Toma's are the human seats. RULINGS R-COOP-OPPONENTS."""
    total = len(state["players"])
    order = [(seat + k) % total for k in range(1, total)
             if not state["players"][(seat + k) % total]["eliminated"]]
    toma = toma_seat(state)
    if toma is None:
        return order
    if seat == toma:
        return [s for s in order if s != toma]
    return [s for s in order if s == toma]


def pos_for_strength(strength: int) -> int:
    """Highest scale index whose strength does not exceed ``strength`` (Triples add strengths)."""
    best = 0
    for i, s in enumerate(SCALE):
        if s <= strength:
            best = i
    return min(best, MAX_POS)


def color_of(cid: str) -> str | None:
    """Colour of a unit card (``None`` for factions)."""
    return catalogue()[cid].color


def fits(unit_color: str | None, card_color: str | None) -> bool:
    """Colour matching ("Battle Cards"): same colour, or either side a Rogue / A.I.Lien."""
    if unit_color is None or card_color is None:
        return False
    return unit_color == card_color or unit_color in WILD_COLORS or card_color in WILD_COLORS


def factions(player: Mapping[str, Any]) -> list[str]:
    """The seat's faction(s): the kept one, any Stalker extra faction, and the factions lying
    on the table for everyone (variant "Force the Luck")."""
    return (([player["faction"]] if player["faction"] else []) + list(player["extra_factions"])
            + list(player.get("table_factions", [])))


def units(player: Mapping[str, Any]) -> list[tuple[int, dict]]:
    """``(index, slot)`` of every slot holding a unit, left to right."""
    return [(i, s) for i, s in enumerate(player["slots"]) if s["unit"]]


def alive(state: Mapping[str, Any]) -> list[int]:
    """Players still in the game (human seats, then the A.I.Toma if any)."""
    return [s for s, p in enumerate(state["players"]) if not p["eliminated"]]


def max_ammo(player: Mapping[str, Any]) -> int:
    """Ammo storage limit: 6, or a ``max_ammo`` faction's value (Elysium: 8).

    RULINGS R-STALKER-AMMO.
    """
    best = MAX_AMMO
    for fid in factions(player):
        for op in catalogue()[fid].has("max_ammo"):
            best = max(best, op["n"])
    return best


def slid_ailien_value(slot: Mapping[str, Any]) -> int:
    """Card values of the A.I.Lien cards behind the unit on ``slot`` (Astronomer: "The
    A.I.Lien's card value is added to Astronomer's combat strength temporarily")."""
    cat = catalogue()
    if not slot["unit"] or not cat[slot["unit"]].has("slide_ailien"):
        return 0
    return sum(cat[c].value or 0 for c in slot["attached"] if cat[c].kind == "ailien")


def total_strength(player: Mapping[str, Any], with_ailien_hand: bool = False) -> int:
    """"Total Strength": sum of unit strengths (no temporary strength); in the A.I.Pokalypse
    also the card values of A.I.Lien cards in hand. An Astronomer's A.I.Lien cards count too
    ("Remember that the added strength also counts in the A.I.Pokalypse!"; ruling R-ASTRONOMER:
    in every total strength)."""
    total = sum(strength_of(s) + slid_ailien_value(s) for _, s in units(player))
    if with_ailien_hand:
        cat = catalogue()
        total += sum(cat[c].value or 0 for c in player["hand"] if cat[c].kind == "ailien")
    return total


_SCALARS = frozenset((str, int, float, bool, type(None)))


class _NotPlain(Exception):
    """A value :func:`_plain_copy` does not copy as JSON would (its caller falls back)."""


def _plain_copy(value: Any) -> Any:
    """Deep copy of a JSON-shaped value as a JSON round trip gives it: dicts with string
    keys, lists, tuples (copied as lists), JSON scalars. Raises :class:`_NotPlain` for
    anything else (a non-string key, another type)."""
    kind = type(value)
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain(key)
            out[key] = item if type(item) in _SCALARS else _plain_copy(item)
        return out
    if kind is list or kind is tuple:
        items = list(value)
        for i, item in enumerate(items):
            if type(item) not in _SCALARS:
                items[i] = _plain_copy(item)
        return items
    if kind in _SCALARS:
        return value
    raise _NotPlain(kind)


def dump_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """JSON-serialisable deep copy of ``state``: exactly ``json.loads(json.dumps(state))``
    (tuples become lists), about twice as fast for the plain dicts and lists a state is
    made of (:func:`_plain_copy`); anything else takes the JSON round trip itself (its
    errors included). Every ``decide`` copies the state once (:class:`.context.Ctx`)."""
    try:
        return _plain_copy(state)
    except (_NotPlain, RecursionError):
        return json.loads(json.dumps(state))


def load_state(data: Mapping[str, Any]) -> dict[str, Any]:
    """Inverse of :func:`dump_state` (a deep copy)."""
    return copy.deepcopy(dict(data))


def public_board(p: Mapping[str, Any]) -> dict[str, Any]:
    """What every seat sees of a board once it is revealed (no hand, no health stack order;
    an A.I.Toma unit shows its pile face up)."""
    return {"faction": p["faction"], "extra_factions": list(p["extra_factions"]),
            "slots": [dict({k: s[k] for k in ("card", "red", "unit", "pos", "attached", "temp", "ammo_temp")},
                           ammo_on=len(s.get("ammo_cards") or []),
                           **({"pile": list(s["pile"])} if "pile" in s else {})) for s in p["slots"]],
            "ammo": len(p["ammo"]), "hand": len(p["hand"]), "health": len(p["health"]),
            "pool": list(p["pool"]), "colony": p.get("colony"), "megaton": len(p.get("megaton", []))}
