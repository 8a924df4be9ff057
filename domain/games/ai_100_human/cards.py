"""Card catalogue of *AI: 100% Human*: development cards, AI cards and objectives.

The data lives in ``cards/*.json`` next to this module (see ``cards/DESIGN-NOTES.md`` for
which fields the rulebook prints and which are the project's design). :func:`catalogue`
loads the three files once, checks every field against the schema below and the deck
composition the rulebook states ("Contents": 60 Phase 1 + 60 Phase 2 development cards,
numbered 1 to 5, 6 colours; 6 double-sided AI cards, one per colour; 16 objectives, 8 per
phase), and raises :class:`CardDataError` naming the card and the field on bad data.

Effect vocabulary (the ``effect`` object of a card; evaluated by ``scoring``):

- ``group``: ``{"scope", "shapes": [{"shape", "condition"}], "vp", "per"?}`` — VP per
  disjoint group of cards in a shape (golden rule packing); ``per`` = groups per scoring unit.
- ``set``: ``{"scope", "size", "condition", "vp", "single"?}`` — VP per disjoint set of
  ``size`` cards (not necessarily adjacent); ``single`` scores at most one set per region.
- ``count``: ``{"scope", "measure", "vp" | "ladder"}`` — VP per counted card, or the ladder
  entry for the count (1-based, the last entry for larger counts).
- ``connection``: ``{"axis", "scope", "condition", "vp"}`` — VP per group of 2 connections.
- ``diamond``: ``{"scope": "tableau", "condition", "vp"}`` — VP per diamond.
- ``copy`` ``{"color"}``, ``copy_points`` ``{}``, ``neighbour`` ``{"scope", "measure", "vp"}``,
  ``flat`` ``{"vp", "action"?, "ongoing"?, "acts_as"?}``, ``row_ends`` ``{"scope", "attr", "vp"}``.

Conditions: ``each {color|number: [..]}`` (every member is one of them: "and/or"),
``slots {attr, values: [[..], ..]}`` (one member per slot, any order: "X and Y"),
``same attr``, ``different attr``, ``sum n``, ``consecutive attr``, ``full_house attr``.
Diamond conditions: ``has [{color}|{number}, ..]`` (each met by some triangle) or one of
``different``/``same``/``sum`` with ``count`` (that many triangles).
Measures: ``cards {color|number: [..]}``, ``most attr``, ``least attr``, ``distinct attr``,
``least_times_most attr``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from domain.modular import freeze, read_card_file

COLORS: tuple[str, ...] = ("red", "blue", "yellow", "black", "green", "purple")
NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5)
CORNER_KEYS: tuple[str, ...] = ("tl", "tr", "bl", "br")
ATTRS: tuple[str, ...] = ("color", "number")
SCOPES: tuple[str, ...] = (
    "tableau",
    "each_row",
    "each_column",
    "this_row",
    "this_column",
    "adjacent",
    "best_row",
    "best_column",
)
SHAPES: tuple[str, ...] = (
    "diagonal2",
    "vertical2",
    "horizontal2",
    "horizontal3",
    "gap2",
    "L3",
    "square4",
)
ACTIONS: tuple[str, ...] = (
    "exchange_reserve",
    "draw",
    "exchange_empty",
    "exchange_two",
    "draw_two",
    "extra_placement",
    "diagonal_placement",
    "acts_as",
)
DATA_DIR = Path(__file__).with_name("cards")


class CardDataError(ValueError):
    """The card data files break the schema; the message names the card and the field."""


@dataclass(frozen=True, slots=True)
class Corner:
    """One corner triangle (connection) of a card: a colour and a number 1-5."""

    color: str
    number: int


@dataclass(frozen=True, slots=True)
class Card:
    """A development card (``kind="development"``, ids "001".."120") or one side of an AI
    card (``kind="ai"``, ids "AI-1".."AI-12", ``phase`` None). ``corners`` maps
    "tl"/"tr"/"bl"/"br" to :class:`Corner`; ``effect`` is a vocabulary object (module doc)."""

    id: str
    kind: str
    phase: int | None
    color: str
    number: int
    corners: Mapping[str, Corner]
    effect: Mapping[str, Any]
    text: str

    @property
    def is_black(self) -> bool:
        """True for black (Hacking) cards, which resolve after the other cards of a turn."""
        return self.color == "black"


@dataclass(frozen=True, slots=True)
class Objective:
    """An Objective card ("Omega-1".."Omega-16") scored at the end of its phase."""

    id: str
    phase: int
    starter: bool
    effect: Mapping[str, Any]
    text: str


@dataclass(frozen=True)
class Catalogue:
    """Every card of the game, read-only. ``ai_cards`` lists the 6 physical AI cards as
    pairs of side ids ``("AI-1", "AI-2")`` .. ``("AI-11", "AI-12")``."""

    cards: Mapping[str, Card]
    objectives: Mapping[str, Objective]
    ai_cards: tuple[tuple[str, str], ...]

    def phase_deck(self, phase: int) -> list[str]:
        """The 60 development card ids of ``phase`` (1 or 2), sorted (a new list; empty
        for another phase)."""
        return list(self._phase_decks.get(phase, ()))

    @cached_property
    def _phase_decks(self) -> dict[int, tuple[str, ...]]:
        """Phase -> its development card ids, sorted (computed once: the catalogue is
        read-only)."""
        return {
            phase: tuple(
                sorted(
                    c.id
                    for c in self.cards.values()
                    if c.kind == "development" and c.phase == phase
                )
            )
            for phase in (1, 2)
        }

    def objectives_for(self, phase: int) -> list[str]:
        """The 8 objective ids of ``phase``, in the rulebook's order (by number)."""
        ids = [o.id for o in self.objectives.values() if o.phase == phase]
        return sorted(ids, key=lambda i: int(i.split("-")[1]))


# --------------------------------------------------------------------------- schema


def _fail(where: str, field: str, problem: str) -> None:
    raise CardDataError(f"{where}: field {field!r}: {problem}")


def _int(where: str, field: str, v: Any, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        _fail(where, field, f"expected an integer, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        _fail(where, field, f"{v} is outside {lo}..{hi}")
    return v


def _choice(where: str, field: str, v: Any, allowed: tuple) -> Any:
    if v not in allowed:
        _fail(where, field, f"{v!r} is not one of {list(allowed)}")
    return v


def _obj(
    where: str, field: str, v: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    if not isinstance(v, dict):
        _fail(where, field, f"expected an object, got {v!r}")
    missing = [k for k in required if k not in v]
    if missing:
        _fail(where, field, f"missing {missing}")
    extra = sorted(set(v) - set(required) - set(optional))
    if extra:
        _fail(where, field, f"unknown keys {extra}")
    return v


def _values(where: str, field: str, attr: str, v: Any) -> None:
    if not isinstance(v, list) or not v:
        _fail(where, field, f"expected a non-empty list, got {v!r}")
    for i, x in enumerate(v):
        if attr == "color":
            _choice(where, f"{field}[{i}]", x, COLORS)
        else:
            _int(where, f"{field}[{i}]", x, 1, 5)


def _one_key(where: str, field: str, v: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(v, dict) or not v:
        _fail(where, field, f"expected an object, got {v!r}")
    keys = [k for k in v if k in allowed]
    if len(keys) != 1:
        _fail(where, field, f"needs exactly one of {list(allowed)}, got {sorted(v)}")
    return keys[0]


def _filter(where: str, field: str, v: Any) -> None:
    key = _one_key(where, field, v, ATTRS)
    _obj(where, field, v, (key,))
    _values(where, f"{field}.{key}", key, v[key])


_CONDS = ("each", "slots", "same", "different", "sum", "consecutive", "full_house")


def _condition(where: str, field: str, v: Any, allowed: tuple[str, ...] = _CONDS) -> None:
    key = _one_key(where, field, v, allowed)
    _obj(where, field, v, (key,))
    if key == "each":
        _filter(where, f"{field}.each", v["each"])
    elif key == "slots":
        s = _obj(where, f"{field}.slots", v["slots"], ("attr", "values"))
        attr = _choice(where, f"{field}.slots.attr", s["attr"], ATTRS)
        if not isinstance(s["values"], list) or not s["values"]:
            _fail(where, f"{field}.slots.values", "expected a non-empty list of lists")
        for i, slot in enumerate(s["values"]):
            _values(where, f"{field}.slots.values[{i}]", attr, slot)
    elif key == "sum":
        _int(where, f"{field}.sum", v["sum"], 2, 25)
    elif key == "consecutive":  # a run of numbers: colours have no order
        _choice(where, f"{field}.consecutive", v["consecutive"], ("number",))
    else:
        _choice(where, f"{field}.{key}", v[key], ATTRS)


def _measure(where: str, field: str, v: Any) -> None:
    key = _one_key(where, field, v, ("cards", "most", "least", "distinct", "least_times_most"))
    _obj(where, field, v, (key,))
    if key == "cards":
        _filter(where, f"{field}.cards", v["cards"])
    else:
        _choice(where, f"{field}.{key}", v[key], ATTRS)


def _diamond_condition(where: str, field: str, v: Any) -> None:
    if isinstance(v, dict) and "has" in v:
        _obj(where, field, v, ("has",))
        if not isinstance(v["has"], list) or not v["has"]:
            _fail(where, f"{field}.has", "expected a non-empty list")
        for i, item in enumerate(v["has"]):
            key = _one_key(where, f"{field}.has[{i}]", item, ATTRS)
            _obj(where, f"{field}.has[{i}]", item, (key,))
            _values(where, f"{field}.has[{i}].{key}", key, [item[key]])
        return
    key = _one_key(where, field, v, ("different", "same", "sum"))
    _obj(where, field, v, (key, "count"))
    _int(where, f"{field}.count", v["count"], 2, 4)
    if key == "sum":
        _int(where, f"{field}.sum", v["sum"], 2, 20)
    else:
        _choice(where, f"{field}.{key}", v[key], ATTRS)


def check_effect(where: str, effect: Any) -> None:
    """Check one effect object against the vocabulary; raise :class:`CardDataError`."""
    f = "effect"
    kind = _obj(where, f, effect, ("kind",), tuple(effect) if isinstance(effect, dict) else ())[
        "kind"
    ]
    if kind == "group":
        _obj(where, f, effect, ("kind", "scope", "shapes", "vp"), ("per",))
        _choice(where, f"{f}.scope", effect["scope"], SCOPES)
        if not isinstance(effect["shapes"], list) or not effect["shapes"]:
            _fail(where, f"{f}.shapes", "expected a non-empty list")
        for i, s in enumerate(effect["shapes"]):
            _obj(where, f"{f}.shapes[{i}]", s, ("shape", "condition"))
            _choice(where, f"{f}.shapes[{i}].shape", s["shape"], SHAPES)
            _condition(where, f"{f}.shapes[{i}].condition", s["condition"])
        _int(where, f"{f}.vp", effect["vp"], 1, 20)
        if "per" in effect:
            _int(where, f"{f}.per", effect["per"], 1, 4)
    elif kind == "set":
        _obj(where, f, effect, ("kind", "scope", "size", "condition", "vp"), ("single",))
        _choice(where, f"{f}.scope", effect["scope"], SCOPES)
        _int(where, f"{f}.size", effect["size"], 2, 6)
        _condition(where, f"{f}.condition", effect["condition"])
        _int(where, f"{f}.vp", effect["vp"], 1, 20)
        if "single" in effect and not isinstance(effect["single"], bool):
            _fail(where, f"{f}.single", "expected a boolean")
        cond = effect["condition"]
        if "slots" in cond and len(cond["slots"]["values"]) != effect["size"]:
            _fail(where, f"{f}.condition.slots.values", "needs one slot per card of the set")
    elif kind in ("count", "neighbour"):
        scopes = SCOPES if kind == "count" else ("tableau", "this_row")
        if kind == "count":
            _obj(where, f, effect, ("kind", "scope", "measure"), ("vp", "ladder"))
            if ("vp" in effect) == ("ladder" in effect):
                _fail(where, f, "needs exactly one of 'vp' and 'ladder'")
        else:
            _obj(where, f, effect, ("kind", "scope", "measure", "vp"))
        _choice(where, f"{f}.scope", effect["scope"], scopes)
        _measure(where, f"{f}.measure", effect["measure"])
        if "vp" in effect:
            _int(where, f"{f}.vp", effect["vp"], 1, 20)
        else:
            lad = effect["ladder"]
            if not isinstance(lad, list) or not lad:
                _fail(where, f"{f}.ladder", "expected a non-empty list of VP")
            for i, x in enumerate(lad):
                _int(where, f"{f}.ladder[{i}]", x, 0, 30)
    elif kind == "connection":
        _obj(where, f, effect, ("kind", "axis", "scope", "condition", "vp"))
        axis = _choice(where, f"{f}.axis", effect["axis"], ("horizontal", "vertical"))
        scopes = (
            ("each_row", "this_row") if axis == "horizontal" else ("each_column", "this_column")
        )
        _choice(where, f"{f}.scope", effect["scope"], scopes)
        _condition(
            where,
            f"{f}.condition",
            effect["condition"],
            ("each", "slots", "same", "different", "sum"),
        )
        _int(where, f"{f}.vp", effect["vp"], 1, 20)
    elif kind == "diamond":
        _obj(where, f, effect, ("kind", "scope", "condition", "vp"))
        _choice(where, f"{f}.scope", effect["scope"], ("tableau",))
        _diamond_condition(where, f"{f}.condition", effect["condition"])
        _int(where, f"{f}.vp", effect["vp"], 1, 20)
    elif kind == "copy":
        _obj(where, f, effect, ("kind", "color"))
        _choice(where, f"{f}.color", effect["color"], COLORS)
    elif kind == "copy_points":
        _obj(where, f, effect, ("kind",))
    elif kind == "flat":
        _obj(where, f, effect, ("kind", "vp"), ("action", "ongoing", "acts_as"))
        _int(where, f"{f}.vp", effect["vp"], -5, 10)
        if "action" in effect:
            _choice(where, f"{f}.action", effect["action"], ACTIONS)
        if "ongoing" in effect:
            _choice(where, f"{f}.ongoing", effect["ongoing"], ("reserve_keep_3",))
        if "acts_as" in effect:
            if not isinstance(effect["acts_as"], list) or not effect["acts_as"]:
                _fail(where, f"{f}.acts_as", "expected a non-empty list")
            for i, a in enumerate(effect["acts_as"]):
                _obj(where, f"{f}.acts_as[{i}]", a, ("color", "number"))
                _choice(where, f"{f}.acts_as[{i}].color", a["color"], COLORS)
                _int(where, f"{f}.acts_as[{i}].number", a["number"], 1, 5)
    elif kind == "row_ends":
        _obj(where, f, effect, ("kind", "scope", "attr", "vp"))
        _choice(where, f"{f}.scope", effect["scope"], ("each_row",))
        _choice(where, f"{f}.attr", effect["attr"], ATTRS)
        _int(where, f"{f}.vp", effect["vp"], 1, 20)
    else:
        _fail(where, f"{f}.kind", f"unknown effect kind {kind!r}")


def _card(raw: Any, kind: str, index: int) -> Card:
    where = f"{kind} card #{index}"
    if not isinstance(raw, dict):
        _fail(where, "<card>", f"expected an object, got {raw!r}")
    cid = raw.get("id")
    if not isinstance(cid, str):
        _fail(where, "id", f"expected a string, got {cid!r}")
    where = f"card {cid}"
    if kind == "development":
        _obj(where, "<card>", raw, ("id", "phase", "color", "number", "corners", "effect", "text"))
        if not (len(cid) == 3 and cid.isdigit() and 1 <= int(cid) <= 120):
            _fail(where, "id", "expected '001'..'120'")
        phase = _int(where, "phase", raw["phase"], 1, 2)
    else:
        _obj(
            where, "<card>", raw, ("id", "physical", "color", "number", "corners", "effect", "text")
        )
        if not (cid.startswith("AI-") and cid[3:].isdigit() and 1 <= int(cid[3:]) <= 12):
            _fail(where, "id", "expected 'AI-1'..'AI-12'")
        if raw["physical"] != (int(cid[3:]) + 1) // 2:
            _fail(
                where, "physical", f"side {cid} belongs to physical card {(int(cid[3:]) + 1) // 2}"
            )
        phase = None
    color = _choice(where, "color", raw["color"], COLORS)
    number = _int(where, "number", raw["number"], 1, 5)
    corners = _obj(where, "corners", raw["corners"], CORNER_KEYS)
    frozen_corners = {}
    for key in CORNER_KEYS:
        c = _obj(where, f"corners.{key}", corners[key], ("color", "number"))
        frozen_corners[key] = Corner(
            _choice(where, f"corners.{key}.color", c["color"], COLORS),
            _int(where, f"corners.{key}.number", c["number"], 1, 5),
        )
    check_effect(where, raw["effect"])
    if not isinstance(raw["text"], str) or not raw["text"].strip():
        _fail(where, "text", "expected the effect text")
    return Card(
        cid,
        kind,
        phase,
        color,
        number,
        MappingProxyType(frozen_corners),
        freeze(raw["effect"]),
        raw["text"],
    )


def _objective(raw: Any, index: int) -> Objective:
    where = f"objective #{index}"
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        _fail(where, "id", "expected an object with a string id")
    oid = raw["id"]
    where = f"objective {oid}"
    _obj(where, "<objective>", raw, ("id", "phase", "starter", "effect", "text"))
    if not (oid.startswith("Omega-") and oid[6:].isdigit() and 1 <= int(oid[6:]) <= 16):
        _fail(where, "id", "expected 'Omega-1'..'Omega-16'")
    phase = _int(where, "phase", raw["phase"], 1, 2)
    if not isinstance(raw["starter"], bool):
        _fail(where, "starter", "expected a boolean")
    check_effect(where, raw["effect"])
    if not isinstance(raw["text"], str) or not raw["text"].strip():
        _fail(where, "text", "expected the effect text")
    return Objective(oid, phase, raw["starter"], freeze(raw["effect"]), raw["text"])


def _items(doc: Any, name: str, key: str) -> list:
    if not isinstance(doc, dict) or not isinstance(doc.get(key), list):
        raise CardDataError(f"{name}: expected an object with a {key!r} list")
    return doc[key]


def _check_composition(cards: dict[str, Card], objectives: dict[str, Objective]) -> None:
    """Deck composition the rulebook states ("Contents") and the project's rulings."""
    dev = [c for c in cards.values() if c.kind == "development"]
    if sorted(c.id for c in dev) != [f"{i:03d}" for i in range(1, 121)]:
        raise CardDataError("development cards: expected exactly the ids 001..120")
    for phase in (1, 2):
        counts: dict[tuple[str, int], list[str]] = {}
        for c in dev:
            if c.phase == phase:
                counts.setdefault((c.color, c.number), []).append(c.id)
        for color in COLORS:
            for number in NUMBERS:
                ids = counts.get((color, number), [])
                if len(ids) != 2:
                    raise CardDataError(
                        f"phase {phase} deck: field 'color'/'number': {color} {number} appears on "
                        f"{len(ids)} cards {ids} (each colour x number exactly twice)"
                    )
    for c in dev:
        black = 99 <= int(c.id) <= 118
        if c.is_black != black:
            raise CardDataError(
                f"card {c.id}: field 'color': black (Hacking) cards are exactly 099-118"
            )
    ai = [c for c in cards.values() if c.kind == "ai"]
    if sorted(int(c.id[3:]) for c in ai) != list(range(1, 13)):
        raise CardDataError("AI cards: expected exactly the sides AI-1..AI-12")
    phys_colors = sorted(cards[f"AI-{2 * k + 1}"].color for k in range(6))
    if phys_colors != sorted(COLORS):
        raise CardDataError("AI cards: field 'color': one physical AI card per colour")
    for k in range(6):
        a, b = cards[f"AI-{2 * k + 1}"], cards[f"AI-{2 * k + 2}"]
        if a.color != b.color:
            raise CardDataError(
                f"card {b.id}: field 'color': both sides of a physical AI card share its colour"
            )
    if sorted(int(o[6:]) for o in objectives) != list(range(1, 17)):
        raise CardDataError("objectives: expected exactly Omega-1..Omega-16")
    for phase in (1, 2):
        if sum(1 for o in objectives.values() if o.phase == phase) != 8:
            raise CardDataError(f"objectives: field 'phase': phase {phase} needs 8 objective cards")


def load_catalogue(data_dir: Path = DATA_DIR) -> Catalogue:
    """Read and schema-check ``development.json``, ``ai_cards.json`` and ``objectives.json``
    from ``data_dir``. Raises :class:`CardDataError` (a ``ValueError``) on any bad field."""
    docs = {}
    for name in ("development.json", "ai_cards.json", "objectives.json"):
        docs[name] = read_card_file(data_dir / name, CardDataError)
    cards: dict[str, Card] = {}
    for kind, name in (("development", "development.json"), ("ai", "ai_cards.json")):
        for i, raw in enumerate(_items(docs[name], name, "cards")):
            card = _card(raw, kind, i)
            if card.id in cards:
                raise CardDataError(f"card {card.id}: field 'id': duplicate id")
            cards[card.id] = card
    objectives: dict[str, Objective] = {}
    for i, raw in enumerate(_items(docs["objectives.json"], "objectives.json", "objectives")):
        obj = _objective(raw, i)
        if obj.id in objectives:
            raise CardDataError(f"objective {obj.id}: field 'id': duplicate id")
        objectives[obj.id] = obj
    _check_composition(cards, objectives)
    ai_pairs = tuple((f"AI-{2 * k + 1}", f"AI-{2 * k + 2}") for k in range(6))
    return Catalogue(MappingProxyType(cards), MappingProxyType(objectives), ai_pairs)


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The game's catalogue, loaded and schema-checked once per process (cached)."""
    return load_catalogue()


def public_cards() -> dict[str, Any]:
    """The public card data a client draws with (the ``Engine.public_cards`` hook):
    ``{"cards": [...], "objectives": [...]}``. A card is ``{"id", "kind"
    ("development" | "ai"), "phase" (1 | 2, ``None`` for AI cards), "color", "number",
    "corners": {"tl"|"tr"|"bl"|"br": {"color", "number"}}, "text"}``; an objective
    ``{"id", "phase", "starter", "text"}``. Printed faces only (rulebook "Contents"): no
    deck order, no scoring vocabulary."""
    cat = catalogue()
    cards = [
        {
            "id": c.id,
            "kind": c.kind,
            "phase": c.phase,
            "color": c.color,
            "number": c.number,
            "corners": {k: {"color": v.color, "number": v.number} for k, v in c.corners.items()},
            "text": c.text,
        }
        for c in cat.cards.values()
    ]
    objectives = [
        {"id": o.id, "phase": o.phase, "starter": o.starter, "text": o.text}
        for o in cat.objectives.values()
    ]
    return {"cards": cards, "objectives": objectives}
