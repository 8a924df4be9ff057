"""Card catalogue of A.I.Pokalypse: 102 basic units, 64 special units, 30 factions.

Data: ``cards/basic_units.json``, ``cards/special_units.json``, ``cards/factions.json``
(``cards/DESIGN-NOTES.md`` says which fields the rulebook prints and which are designed).
:func:`catalogue` loads them once, checks every field against the schema below, the
effect vocabulary (:mod:`.vocabulary`) and the counts of "Contents", and raises
:class:`CardDataError` naming the card and the field on bad data.

Card fields: ``id`` (``B001``.., ``S01``.., ``F01``..), ``name``, ``text``, ``source``
(``rulebook`` = named in the card notes, ``designed``), ``effects`` (list of
``{"trigger", "ops"}``). Basic units add ``kind`` (human/mech/mutant/rogue/ailien),
``color`` and ``value`` (card value 1-7: Triples and battle card value). Special units add
``kind``, ``color``, ``difficulty``, ``red_slot`` (strength -> bonus symbol on the red
side's scale) and ``action_symbols`` (the A.I.Toma's action symbols, 1-2 distinct of
:data:`ACTION_SYMBOLS`, "Solo / Cooperative Mode"). Factions add ``difficulty`` and ``ammo``
(``{"battle": 2, "max": 6}``).

The 5-8 Player Variant adds "the basic cards from a second copy" and "the Ammo of the second
copy": :class:`Catalogue` derives them from the same data (``copies``, ``second_basic``,
``second_faction``), each with the id of its first-copy twin plus :data:`SECOND_COPY_SUFFIX`
(``B017`` -> ``B017-2``, ``F05`` -> ``F05-2``); ``catalogue()[id]`` answers for both copies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from domain.modular import card_list, freeze, read_card_file

from .spec import COLORS, SCALE
from .vocabulary import OPS, TRIGGERS

DATA_DIR = Path(__file__).with_name("cards")
KIND_COLOR = {
    "human": "blue",
    "mech": "red",
    "mutant": "yellow",
    "rogue": "purple",
    "ailien": "green",
}
DIFFICULTIES = ("easy", "medium", "hard")
RED_BONUSES = ("ammo", "draw", "strength")
# The A.I.Toma's action symbols ("Special Units & Pool of A.I.Toma"): ammo-gain, move, "you lose
# a health point" (+ a draw per draw symbol to its left), draw (the A.I.Toma draws), discard, passive.
ACTION_SYMBOLS = ("ammo", "move", "health", "draw", "discard", "passive")
SECOND_COPY_SUFFIX = "-2"  # 5-8 Player Variant: B017 -> B017-2 (second copy)
COUNTS = {"basic": 102, "special": 64, "faction": 30}  # "Contents"


class CardDataError(ValueError):
    """The card data break the schema; the message names the card and the field."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``category`` is ``basic``/``special``/``faction``; ``color``/``value`` are
    ``None`` where the category has none (specials have no card value, factions no colour);
    ``effects`` is a tuple of ``{"trigger", "ops"}`` mappings; ``red_slot`` maps a strength
    (int) to a bonus symbol (specials only)."""

    id: str
    category: str
    name: str
    kind: str | None
    color: str | None
    value: int | None
    difficulty: str | None
    effects: tuple
    red_slot: Mapping[int, str]
    text: str
    source: str
    action_symbols: tuple[str, ...] = ()

    def ops(self, trigger: str) -> list[Mapping[str, Any]]:
        """All ops of this card's effects with ``trigger`` (in printed order)."""
        return [op for eff in self.effects if eff["trigger"] == trigger for op in eff["ops"]]

    def has(self, op_name: str) -> list[Mapping[str, Any]]:
        """Every op named ``op_name`` in any effect of the card."""
        return [op for eff in self.effects for op in eff["ops"] if op["op"] == op_name]


def _fail(where: str, field: str, problem: str) -> None:
    raise CardDataError(f"{where}: field {field!r}: {problem}")


def _check_param(where: str, field: str, kind: Any, value: Any) -> None:
    if isinstance(kind, tuple):
        allowed = [k for k in kind if k != "?"]
        if value not in allowed:
            _fail(where, field, f"{value!r} is not one of {allowed}")
        return
    kind = kind.rstrip("?")
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or not -6 <= value <= 15:
            _fail(where, field, f"expected an integer -6..15, got {value!r}")
    elif kind == "bool":
        if not isinstance(value, bool):
            _fail(where, field, f"expected a boolean, got {value!r}")
    elif kind == "color":
        if value not in COLORS:
            _fail(where, field, f"{value!r} is not a colour {list(COLORS)}")
    elif kind == "ints":
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            _fail(where, field, f"expected a list of integers, got {value!r}")
    elif kind == "ops":
        _check_ops(where, field, value)


def _optional(kind: Any) -> bool:
    return (isinstance(kind, tuple) and "?" in kind) or (
        isinstance(kind, str) and kind.endswith("?")
    )


def _check_ops(where: str, field: str, ops: Any) -> None:
    if not isinstance(ops, list) or not ops:
        _fail(where, field, "expected a non-empty list of ops")
    for i, op in enumerate(ops):
        f = f"{field}[{i}]"
        if not isinstance(op, dict) or "op" not in op:
            _fail(where, f, f"expected an object with 'op', got {op!r}")
        name = op["op"]
        if name not in OPS:
            _fail(where, f"{f}.op", f"unknown op {name!r}")
        spec = OPS[name]
        extra = sorted(set(op) - {"op"} - set(spec))
        if extra:
            _fail(where, f"{f}", f"unknown parameters {extra} for op {name!r}")
        for param, kind in spec.items():
            if param not in op:
                if not _optional(kind):
                    _fail(where, f"{f}.{param}", f"required by op {name!r}")
                continue
            _check_param(where, f"{f}.{param}", kind, op[param])


def _check_effects(where: str, effects: Any) -> None:
    if not isinstance(effects, list) or not effects:
        _fail(where, "effects", "every card needs at least one effect (no card is a no-op)")
    for i, eff in enumerate(effects):
        if not isinstance(eff, dict) or set(eff) != {"trigger", "ops"}:
            _fail(where, f"effects[{i}]", "expected {trigger, ops}")
        if eff["trigger"] not in TRIGGERS:
            _fail(
                where, f"effects[{i}].trigger", f"{eff['trigger']!r} is not one of {list(TRIGGERS)}"
            )
        _check_ops(where, f"effects[{i}].ops", eff["ops"])


_FIELDS = {
    "basic": ("id", "name", "kind", "color", "value", "effects", "text", "source"),
    "special": (
        "id",
        "name",
        "kind",
        "color",
        "difficulty",
        "effects",
        "text",
        "red_slot",
        "action_symbols",
        "source",
    ),
    "faction": ("id", "name", "difficulty", "effects", "text", "ammo", "source"),
}
_PREFIX = {"basic": "B", "special": "S", "faction": "F"}


def _card(raw: Any, category: str, index: int) -> Card:
    where = f"{category} card #{index}"
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        _fail(where, "id", "expected an object with a string id")
    where = f"card {raw['id']}"
    if isinstance(raw.get("name"), str):
        where = f"card {raw['id']} ({raw['name']})"
    missing = [k for k in _FIELDS[category] if k not in raw]
    if missing:
        _fail(where, missing[0], "missing")
    extra = sorted(set(raw) - set(_FIELDS[category]))
    if extra:
        _fail(where, extra[0], "unknown field")
    if not raw["id"].startswith(_PREFIX[category]) or not raw["id"][1:].isdigit():
        _fail(where, "id", f"expected {_PREFIX[category]}<number>")
    for key in ("name", "text"):
        if not isinstance(raw[key], str) or not raw[key].strip():
            _fail(where, key, "expected a non-empty string")
    if raw["source"] not in ("rulebook", "designed"):
        _fail(where, "source", "expected 'rulebook' or 'designed'")
    kind = color = value = difficulty = None
    red: dict[int, str] = {}
    if category in ("basic", "special"):
        kind = raw["kind"]
        if kind not in KIND_COLOR or (category == "special" and kind == "ailien"):
            _fail(where, "kind", f"{kind!r} is not a unit kind")
        color = raw["color"]
        if color != KIND_COLOR[kind]:
            _fail(where, "color", f"a {kind} is {KIND_COLOR[kind]}, not {color!r}")
    if category == "basic":
        value = raw["value"]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 7:
            _fail(where, "value", f"expected a card value 1..7, got {value!r}")
    else:
        difficulty = raw["difficulty"]
        if difficulty not in DIFFICULTIES:
            _fail(where, "difficulty", f"{difficulty!r} is not one of {list(DIFFICULTIES)}")
    if category == "special":
        if not isinstance(raw["red_slot"], dict) or not raw["red_slot"]:
            _fail(where, "red_slot", "expected the bonus symbols of the red side's strength scale")
        for k, v in raw["red_slot"].items():
            if not k.isdigit() or int(k) not in SCALE or int(k) in (1, 15):
                _fail(where, f"red_slot.{k}", "a bonus sits on a scale position 2..12")
            if v not in RED_BONUSES:
                _fail(where, f"red_slot.{k}", f"{v!r} is not one of {list(RED_BONUSES)}")
            red[int(k)] = v
        symbols = raw["action_symbols"]
        if (
            not isinstance(symbols, list)
            or not 1 <= len(symbols) <= 2
            or len(set(symbols)) != len(symbols)
            or any(v not in ACTION_SYMBOLS for v in symbols)
        ):
            _fail(
                where,
                "action_symbols",
                f"expected 1-2 distinct symbols of {list(ACTION_SYMBOLS)}, got {symbols!r}",
            )
    if category == "faction" and raw["ammo"] != {"battle": 2, "max": 6}:
        _fail(where, "ammo", "the ammo side shows +2 and max 6")
    _check_effects(where, raw["effects"])
    return Card(
        raw["id"],
        category,
        raw["name"],
        kind,
        color,
        value,
        difficulty,
        freeze(raw["effects"]),
        MappingProxyType(red),
        raw["text"],
        raw["source"],
        tuple(raw["action_symbols"]) if category == "special" else (),
    )


@dataclass(frozen=True)
class Catalogue:
    """All cards of one box by id, read-only; ``basic``/``special``/``faction`` list the ids in
    order. ``copies`` holds the second copy's basic units and factions (5-8 Player Variant),
    ``second_basic``/``second_faction`` their ids; indexing answers for both copies (KeyError
    for an unknown id)."""

    cards: Mapping[str, Card]
    basic: tuple[str, ...]
    special: tuple[str, ...]
    faction: tuple[str, ...]
    copies: Mapping[str, Card] = field(default_factory=lambda: MappingProxyType({}))
    second_basic: tuple[str, ...] = ()
    second_faction: tuple[str, ...] = ()

    def __getitem__(self, cid: str) -> Card:
        card = self.cards.get(cid)
        return card if card is not None else self.copies[cid]

    def __contains__(self, cid: object) -> bool:
        return cid in self.cards or cid in self.copies

    def by_name(self, name: str) -> Card:
        """The first card called ``name`` (KeyError when none)."""
        for card in self.cards.values():
            if card.name == name:
                return card
        raise KeyError(name)


FILES = {"basic": "basic_units.json", "special": "special_units.json", "faction": "factions.json"}


def load_catalogue(data_dir: Path = DATA_DIR) -> Catalogue:
    """Read and check the three data files in ``data_dir``; raise :class:`CardDataError`."""
    cards: dict[str, Card] = {}
    ids: dict[str, list[str]] = {}
    for category, name in FILES.items():
        rows = card_list(read_card_file(data_dir / name, CardDataError), name, CardDataError)
        ids[category] = []
        for i, raw in enumerate(rows):
            card = _card(raw, category, i)
            if card.id in cards:
                _fail(f"card {card.id}", "id", "duplicate id")
            cards[card.id] = card
            ids[category].append(card.id)
        if len(ids[category]) != COUNTS[category]:
            raise CardDataError(
                f"{name}: expected {COUNTS[category]} cards (Contents), found {len(ids[category])}"
            )
    names = {c.name for c in cards.values()}
    for required in REQUIRED_NAMES:
        if required not in names:
            raise CardDataError(
                f"card {required!r}: field 'name': named in the rulebook's card notes but missing"
            )
    copies = second_copy(cards, ids["basic"] + ids["faction"])
    return Catalogue(
        MappingProxyType(cards),
        tuple(ids["basic"]),
        tuple(ids["special"]),
        tuple(ids["faction"]),
        MappingProxyType(copies),
        tuple(c + SECOND_COPY_SUFFIX for c in ids["basic"]),
        tuple(c + SECOND_COPY_SUFFIX for c in ids["faction"]),
    )


def second_copy(cards: Mapping[str, Card], ids: list[str]) -> dict[str, Card]:
    """The second copy's twin of each card in ``ids`` (5-8 Player Variant: its basic units and
    its ammo/faction cards): the same card with id ``<id>-2``. Raises :class:`CardDataError`
    when a derived id collides with a card of the data."""
    out: dict[str, Card] = {}
    for cid in ids:
        twin = cid + SECOND_COPY_SUFFIX
        if twin in cards or twin in out:
            _fail(f"card {cid}", "id", f"its second-copy id {twin!r} is taken")
        out[twin] = replace(cards[cid], id=twin)
    return out


# Every card the rulebook's card notes name (sections "Basic Units", "Special Units", "Factions").
REQUIRED_NAMES = (
    "Desert Rat",
    "Surrogate",
    "Berserker",
    "Hacker",
    "Medic",
    "Journalist",
    "Priest",
    "Special Agent",
    "Bartender",
    "Disintegrator",
    "Finisher",
    "Goldfish",
    "Grubber",
    "Module",
    "Nanobots",
    "Rare Metal",
    "Scrap Collector",
    "Chain Reactor",
    "Were.Wolf",
    "D.E.E.R.",
    "Lich Queen",
    "Outsider",
    "Patient Zero",
    "Painkiller",
    "Zombie",
    "Big Benji",
    "Bombad General",
    "Doc.",
    "Eagle Eye",
    "Elder Commander",
    "Governor",
    "Lieutenant Dan",
    "Murderer",
    "Neo",
    "Outfitter Q",
    "Queen of Elysium",
    "Seppuku",
    "Walter White",
    "XxX",
    "Back.Up",
    "Disc Jockey",
    ".Exe Suit",
    "Linear Collider",
    "Mechatron",
    "Homo Deus",
    "Patchwork",
    "P3RF3C7ION",
    "Prof. Boom",
    "Tokamak",
    "Trapperkeeper",
    "Bookkeeper",
    "C.H.R.O.M.E.",
    "Dealer",
    "Faceless T",
    "Ghost Twin",
    "Hells Angel",
    "Merowinger",
    "Organ Grinder",
    "Invader",
    "Riddickules",
    "Postman",
    "The Scream",
    "Alias Blanc",
    "Astronomer",
    "Black Noise",
    "Destiny",
    "Dreadator",
    "Lillith",
    "Oracle",
    "Roko's Basilisk",
    "Scammer",
    "Stalker",
    "Desert Rats",
    "Droid Army",
    "Elysium",
    "Enclave M87",
    "Engineer Guild",
    "Erit Lux",
    "Fallout Boyz",
    "Illusionists",
    "Kollektah",
    "Lightbringers",
    "Megagneto",
    "Megaton",
    "Outer Wilds",
    "Prayers of Elex",
    "Shadow Fortress",
    "Sic Mundus",
    "The Corporation",
    "Vault A.F.K.",
    "Venus Colony",
    "W4TCHM3N",
)


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The game's catalogue, loaded and checked once per process (cached)."""
    return load_catalogue()


def public_cards() -> dict[str, Any]:
    """The public card data a client draws with (the ``Engine.public_cards`` hook):
    ``{"cards": [{"id", "category" ("basic" | "special" | "faction"), "name", "kind",
    "color", "value", "difficulty", "red_slot" ({strength (str): bonus}), "action_symbols",
    "text"}]}`` for every card of one box ("Contents"); a second copy's card (5-8 Player
    Variant) is its first copy's id with the suffix ``-2`` and is not listed again. Printed
    faces only: no deck order."""
    cat = catalogue()
    return {
        "cards": [
            {
                "id": c.id,
                "category": c.category,
                "name": c.name,
                "kind": c.kind,
                "color": c.color,
                "value": c.value,
                "difficulty": c.difficulty,
                "red_slot": {str(k): v for k, v in sorted(c.red_slot.items())},
                "action_symbols": list(c.action_symbols),
                "text": c.text,
            }
            for c in cat.cards.values()
        ]
    }
