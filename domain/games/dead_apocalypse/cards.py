"""Card catalogue of *Dead Apocalypse*: player cards, the Resource Stack, the Zombie Stack.

The rulebook prints no card list; the data in ``cards/*.json`` is the project's design
(``cards/DESIGN-NOTES.md`` says which fields the rulebook fixes). :func:`catalogue` loads
the three files once, checks every field and the composition the issue requires, and
raises :class:`CardDataError` naming the card and the field on bad data.

A *definition* (``CardDef``) is one title; a physical card is an *instance* whose id is
``"<definition id>#<n>"`` (:func:`def_id`). Starting-deck instances are numbered per seat
(``"survivor#s0.3"``), stack instances ``1..copies``.

Effect vocabulary (``abilities`` of player cards; ``after_combat``/``on_attack``/``repeat``
of zombies), one object per step, resolved in order:

- ``damage_if {amount, if: {faction|kind|title: X}}`` +amount if *another* card of the
  seat in play matches (Combating Zombies: "Construction Worker gains +1 Damage if another
  Armory card is in play").
- ``damage_per {amount, per: {...}}`` +amount for each other matching card in play.
- ``draw {amount}``; ``ditch {amount, from: hand|discard}`` (up to amount, the player
  chooses; Infections cannot be ditched); ``ditch_self {}``; ``cure {amount}`` (return up
  to amount Infections from hand to the Infection stack); ``gain {card}`` (from its
  stack to the discard pile); ``occupy {amount}`` (place a Human from hand beneath a
  Location right side up).
- Zombie steps (target the active player, or every seat that shares After Combat
  effects): ``gain_infection {amount}``, ``discard_random {amount}``,
  ``ditch_stack {amount}`` (Resource Stack), ``ditch_deck_top {amount}``,
  ``ditch_location {}`` (the oldest Location in play).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from domain.modular import card_list, freeze, read_card_file

PLAYER_KINDS = ("human", "equipment", "location")
KINDS = PLAYER_KINDS + ("infection", "zombie", "event", "cdc")
PLAYER_FACTIONS = ("Survivor", "Civilian", "Military", "Armory", "Medical")
ZOMBIE_FACTIONS = ("Walker", "Runner", "Brute", "Toxic")
PLAYER_OPS = {
    "damage_if": ("amount", "if"),
    "damage_per": ("amount", "per"),
    "draw": ("amount",),
    "ditch": ("amount", "from"),
    "ditch_self": (),
    "cure": ("amount",),
    "gain": ("card",),
    "occupy": ("amount",),
}
ZOMBIE_OPS = {
    "gain_infection": ("amount",),
    "discard_random": ("amount",),
    "ditch_stack": ("amount",),
    "ditch_deck_top": ("amount",),
    "ditch_location": (),
}
MATCH_KEYS = ("faction", "kind", "title")
STARTING_DECK = {"survivor": 7, "base-camp": 1, "weapons-cache": 1, "medicine-cabinet": 1}
DATA_DIR = Path(__file__).with_name("cards")
FILES = ("player.json", "resources.json", "zombies.json")


class CardDataError(ValueError):
    """The card data files break the schema; the message names the card and the field."""


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card title. ``kind`` is one of :data:`KINDS`; ``damage`` is the printed damage
    (a Human's attack power when it occupies a Location); ``occupancy``/``repeat`` only
    for Locations; ``hp``, ``immune`` ({"types","factions","titles"}), ``after_combat``,
    ``on_attack`` and ``repeat_ops`` only for zombies; ``stack`` is where its copies start
    (``starting``, ``adept``, ``infection``, ``resource``, ``zombie``)."""

    id: str
    title: str
    kind: str
    faction: str
    copies: int
    stack: str
    text: str
    damage: int = 0
    abilities: tuple = ()
    occupancy: int = 0
    repeat: bool = False
    hp: int = 0
    immune: Mapping[str, tuple] = field(default_factory=lambda: MappingProxyType({}))
    after_combat: tuple = ()
    on_attack: tuple = ()
    repeat_ops: tuple = ()


@dataclass(frozen=True)
class Catalogue:
    """Every card definition keyed by id (read-only)."""

    cards: Mapping[str, CardDef]
    #: instance id -> definition, filled by :meth:`of` (the bots' rollouts ask millions of times)
    _by_instance: dict[str, CardDef] = field(default_factory=dict, compare=False, repr=False)

    def of(self, instance: str) -> CardDef:
        """The definition of an instance id (``"shotgun#2"`` -> Shotgun); KeyError if unknown."""
        found = self._by_instance.get(instance)
        if found is None:
            found = self._by_instance[instance] = self.cards[def_id(instance)]
        return found

    def stack_instances(self, stack: str) -> list[str]:
        """Instance ids of every card whose definition starts in ``stack``, sorted by id."""
        return [
            f"{c.id}#{k}"
            for c in sorted(self.cards.values(), key=lambda c: c.id)
            if c.stack == stack
            for k in range(1, c.copies + 1)
        ]

    def starting_deck(self, seat: int) -> list[str]:
        """The 10 instance ids of ``seat``'s starting deck (Game Setup), unshuffled."""
        return [f"{cid}#s{seat}.{k}" for cid, n in STARTING_DECK.items() for k in range(1, n + 1)]


def def_id(instance: str) -> str:
    """``"shotgun#2"`` -> ``"shotgun"`` (an id without ``#`` is returned unchanged)."""
    return instance.split("#", 1)[0]


def _fail(where: str, field: str, msg: str) -> None:
    raise CardDataError(f"{where}: field {field!r}: {msg}")


def _int(where: str, field: str, v: Any, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        _fail(where, field, f"expected an integer {lo}..{hi}, got {v!r}")
    return v


def _str(where: str, field: str, v: Any, choices: tuple[str, ...] | None = None) -> str:
    if not isinstance(v, str) or not v.strip():
        _fail(where, field, f"expected a non-empty string, got {v!r}")
    if choices is not None and v not in choices:
        _fail(where, field, f"expected one of {list(choices)}, got {v!r}")
    return v


def _keys(
    where: str, field: str, obj: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict:
    if not isinstance(obj, dict):
        _fail(where, field, f"expected an object, got {obj!r}")
    missing = [k for k in required if k not in obj]
    if missing:
        _fail(where, f"{field}.{missing[0]}" if field != "<card>" else missing[0], "missing")
    extra = sorted(set(obj) - set(required) - set(optional))
    if extra:
        _fail(where, f"{field}.{extra[0]}" if field != "<card>" else extra[0], "unknown field")
    return obj


def _match(where: str, field: str, obj: Any) -> dict:
    _keys(where, field, obj, (), MATCH_KEYS)
    if len(obj) != 1:
        _fail(where, field, "expected exactly one of faction/kind/title")
    key, value = next(iter(obj.items()))
    choices = {"faction": PLAYER_FACTIONS, "kind": PLAYER_KINDS, "title": None}[key]
    _str(where, f"{field}.{key}", value, choices)
    return obj


def _ops(where: str, field: str, ops: Any, vocabulary: Mapping[str, tuple[str, ...]]) -> tuple:
    if not isinstance(ops, list):
        _fail(where, field, "expected a list of steps")
    for i, op in enumerate(ops):
        f = f"{field}[{i}]"
        if not isinstance(op, dict) or op.get("op") not in vocabulary:
            _fail(where, f"{f}.op", f"expected one of {sorted(vocabulary)}, got {op!r}")
        _keys(where, f, op, ("op",) + vocabulary[op["op"]])
        if "amount" in op:
            _int(where, f"{f}.amount", op["amount"], 1, 5)
        if "if" in op:
            _match(where, f"{f}.if", op["if"])
        if "per" in op:
            _match(where, f"{f}.per", op["per"])
        if "from" in op:
            _str(where, f"{f}.from", op["from"], ("hand", "discard"))
        if "card" in op:
            _str(where, f"{f}.card", op["card"], ("adept-survivor",))
    return freeze(ops)


def _card(raw: Any, file: str, index: int) -> CardDef:
    where = f"{file} card #{index}"
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        _fail(where, "id", "expected an object with a string id")
    cid = raw["id"]
    where = f"card {cid!r} ({file})"
    if "#" in cid or not cid.strip():
        _fail(where, "id", "must be non-empty and must not contain '#'")
    kind = _str(where, "kind", raw.get("kind"), KINDS)
    base = ("id", "title", "kind", "copies", "text")
    if kind in PLAYER_KINDS or kind == "infection":
        extra: tuple[str, ...] = ("faction", "damage", "abilities")
        if kind == "location":
            extra += ("occupancy", "repeat")
        _keys(where, "<card>", raw, base + extra, ("stack",))
        stack = raw.get("stack", "resource")
        _str(where, "stack", stack, ("starting", "adept", "infection", "resource"))
        faction = _str(
            where,
            "faction",
            raw["faction"],
            ("Infection",) if kind == "infection" else PLAYER_FACTIONS,
        )
        kw: dict[str, Any] = {
            "damage": _int(where, "damage", raw["damage"], 0, 9),
            "abilities": _ops(where, "abilities", raw["abilities"], PLAYER_OPS),
        }
        if kind == "location":
            kw["occupancy"] = _int(where, "occupancy", raw["occupancy"], 1, 5)
            if not isinstance(raw["repeat"], bool):
                _fail(where, "repeat", "expected a boolean")
            kw["repeat"] = raw["repeat"]
        if kind == "infection" and (kw["damage"] or kw["abilities"]):
            _fail(where, "abilities", "an Infection has no damage and no abilities")
    elif kind == "zombie":
        _keys(
            where,
            "<card>",
            raw,
            base + ("faction", "hp", "immune", "after_combat", "on_attack", "repeat"),
        )
        stack = "zombie"
        faction = _str(where, "faction", raw["faction"], ZOMBIE_FACTIONS)
        immune = _keys(where, "immune", raw["immune"], (), ("types", "factions", "titles"))
        frozen_immune = {}
        for key, choices in (
            ("types", PLAYER_KINDS),
            ("factions", PLAYER_FACTIONS),
            ("titles", None),
        ):
            values = immune.get(key, [])
            if not isinstance(values, list):
                _fail(where, f"immune.{key}", "expected a list")
            for j, v in enumerate(values):
                _str(where, f"immune.{key}[{j}]", v, choices)
            frozen_immune[key] = tuple(values)
        kw = {
            "hp": _int(where, "hp", raw["hp"], 1, 20),
            "immune": MappingProxyType(frozen_immune),
            "after_combat": _ops(where, "after_combat", raw["after_combat"], ZOMBIE_OPS),
            "on_attack": _ops(where, "on_attack", raw["on_attack"], ZOMBIE_OPS),
            "repeat_ops": _ops(where, "repeat", raw["repeat"], ZOMBIE_OPS),
        }
    else:
        _keys(where, "<card>", raw, base + ("faction",))
        stack = "zombie"
        faction = _str(
            where, "faction", raw["faction"], ZOMBIE_FACTIONS if kind == "event" else ("CDC",)
        )
        kw = {}
    return CardDef(
        id=cid,
        title=_str(where, "title", raw["title"]),
        kind=kind,
        faction=faction,
        copies=_int(where, "copies", raw["copies"], 1, 40),
        stack=stack,
        text=_str(where, "text", raw["text"]),
        **kw,
    )


def _check_composition(cards: Mapping[str, CardDef]) -> None:
    """The composition the issue and the rulebook's Game Setup require."""
    for cid, n in STARTING_DECK.items():
        if cid not in cards or cards[cid].stack != "starting" or cards[cid].copies != n:
            raise CardDataError(
                f"card {cid!r}: field 'copies': the starting deck needs {n} (stack 'starting')"
            )
    starting = sorted(c.id for c in cards.values() if c.stack == "starting")
    if starting != sorted(STARTING_DECK):
        raise CardDataError(
            f"starting deck: field 'stack': only {sorted(STARTING_DECK)} start in it, got {starting}"
        )
    for cid, stack, kind in (
        ("adept-survivor", "adept", "human"),
        ("infection", "infection", "infection"),
    ):
        if cid not in cards or cards[cid].stack != stack or cards[cid].kind != kind:
            raise CardDataError(
                f"card {cid!r}: field 'stack': expected the {stack} stack of {kind} cards"
            )
    if "adept-survivor" in cards and cards["adept-survivor"].faction != "Survivor":
        raise CardDataError("card 'adept-survivor': field 'faction': Adept Survivors are Survivors")
    titles = {c.title for c in cards.values()}
    for c in cards.values():
        for key in ("titles",):
            for t in c.immune.get(key, ()):
                if t not in titles:
                    raise CardDataError(
                        f"card {c.id!r}: field 'immune.titles': no card is titled {t!r}"
                    )
        for op in c.abilities:
            for cond in (op.get("if"), op.get("per")):
                if cond and "title" in cond and cond["title"] not in titles:
                    raise CardDataError(
                        f"card {c.id!r}: field 'abilities': no card is titled {cond['title']!r}"
                    )
    zombies = [c for c in cards.values() if c.kind == "zombie"]
    if sum(c.copies for c in zombies) < 30 or len({c.faction for c in zombies}) < 4:
        raise CardDataError(
            "zombie stack: field 'copies': at least 30 Zombies across at least 4 factions"
        )
    events = [c for c in cards.values() if c.kind == "event"]
    if sum(c.copies for c in events) < 8:
        raise CardDataError("zombie stack: field 'copies': at least 8 Event cards")
    for e in events:
        if e.faction not in {z.faction for z in zombies}:
            raise CardDataError(
                f"card {e.id!r}: field 'faction': no Zombie has faction {e.faction!r}"
            )
    cdc = [c for c in cards.values() if c.kind == "cdc"]
    if len(cdc) != 1 or cdc[0].copies != 1 or cdc[0].id != "cdc":
        raise CardDataError("card 'cdc': field 'copies': exactly one CDC card with id 'cdc'")
    resources = [c for c in cards.values() if c.stack == "resource"]
    if sum(c.copies for c in resources) < 50 or {c.kind for c in resources} != set(PLAYER_KINDS):
        raise CardDataError(
            "resource stack: field 'copies': at least 50 Humans, Equipment and Locations"
        )


def load_catalogue(data_dir: Path = DATA_DIR) -> Catalogue:
    """Read and schema-check :data:`FILES` from ``data_dir`` (each ``{"cards": [...]}``).

    Raises :class:`CardDataError` (a ``ValueError``) naming the card and field on bad data.
    """
    cards: dict[str, CardDef] = {}
    for name in FILES:
        rows = card_list(read_card_file(data_dir / name, CardDataError), name, CardDataError)
        for i, raw in enumerate(rows):
            card = _card(raw, name, i)
            if card.id in cards:
                raise CardDataError(f"card {card.id!r}: field 'id': duplicate id")
            cards[card.id] = card
    _check_composition(cards)
    return Catalogue(MappingProxyType(cards))


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The game's catalogue, loaded and schema-checked once per process (cached)."""
    return load_catalogue()


def public_cards() -> dict[str, Any]:
    """The public card data a client draws with (the ``Engine.public_cards`` hook):
    ``{"cards": [{"id", "title", "kind", "faction", "copies", "stack", "damage",
    "occupancy", "repeat", "hp", "immune", "text"}]}``, one per card title ("Components");
    a card in play is an instance ``"<id>#<n>"`` (:func:`def_id`). Printed faces only: no
    stack order."""
    return {
        "cards": [
            {
                "id": c.id,
                "title": c.title,
                "kind": c.kind,
                "faction": c.faction,
                "copies": c.copies,
                "stack": c.stack,
                "damage": c.damage,
                "occupancy": c.occupancy,
                "repeat": c.repeat,
                "hp": c.hp,
                "immune": {k: list(v) for k, v in c.immune.items()},
                "text": c.text,
            }
            for c in catalogue().cards.values()
        ]
    }
