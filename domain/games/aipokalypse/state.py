"""Match state of A.I.Pokalypse: typed dataclasses (:class:`MatchState` and its parts), and
their snapshot form (``dump_state`` / ``load_state``: a JSON-shaped dict).

Every id is a card id of :mod:`.cards`; piles list the top card first unless said otherwise.
The dumped form is the one the fold cache and snapshots store (and an expert bot edits to
determinize): :func:`dump_state` writes the keys of each record in field order, leaving out
the optional keys that are absent (``MatchState.table_public`` / ``resigned`` in the order they
appeared, ``Player.toma`` / ``moved``, ``Slot.pile``, ``BattleProgress.scores``), so a dump is
the very JSON the former plain-dict state was. Records that are JSON payloads (``choice``,
``result``, ``table_public``, ``Player.public`` and ``offer_ctx``) stay dicts::

    choice = None | {"seat", "actor", "command", "seed", "answers", "kind", "options",
                     "prompt", "decline"} (an effect decision the held command waits for)
    offer_ctx = None | {"source": str, "pos": int, "slot": int | None}
    public = None | public_board(player) (the board as last revealed)
    table_public = {"discard": [ids], "draw": int, "specials": int, "ammo_deck": int}

Rulebook: "Game Setup", "Slots & Recruitment", "Improving Units", "Ammo", "Red Slots",
"Before the Battle", "Battle Cards".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import catalogue
from .spec import MAX_AMMO, MAX_POS, SCALE, WILD_COLORS


@dataclass(slots=True)
class Slot:
    """One slot: ``card`` (a basic unit face down, or a Special Unit's red side when ``red``;
    ``None`` for an A.I.Toma slot), the ``unit`` on it (``None``: empty) at scale index
    ``pos`` (into ``SCALE``), ``attached`` cards, temporary strength ``temp``, this battle's
    cards ``battle`` (``[[id, face_up]]``), ``exhausted``, temporary ammo strength
    ``ammo_temp``, ``ammo_cards`` (Desert Rats: faction ids lying on the unit). An A.I.Toma
    slot has ``pile`` (its unit: the stacked cards, bottom first; ``unit`` is the bottom
    card) and its strength is the pile's card values; ``None`` on every other slot."""

    card: str | None
    red: bool = False
    unit: str | None = None
    pos: int = 0
    attached: list[str] = field(default_factory=list)
    temp: int = 0
    battle: list[list[Any]] = field(default_factory=list)
    exhausted: bool = False
    ammo_temp: int = 0
    ammo_cards: list[str] = field(default_factory=list)
    pile: list[str] | None = None


@dataclass(slots=True)
class Fight:
    """A seat's current battle card (``Player.current``): ``card``, the ``slot`` it is placed
    at (``None``: beside the units), whether it ``fights`` and was ``placed``, the ``ammo``
    spent on it (a count), its strength ``bonus``, and ``forced`` (an effect chose it)."""

    card: str
    slot: int | None
    fights: bool
    placed: bool
    ammo: int = 0
    bonus: int = 0
    forced: bool = False


@dataclass(slots=True)
class Player:
    """One seat (or the A.I.Toma's entry, ``players[n]``, with ``toma`` true: no hand, no
    faction). ``offered``: the 2 factions of Game Setup; ``faction`` the kept one,
    ``extra_factions`` (Stalker), ``table_factions`` (Force the Luck: factions every seat
    uses); ``hand``, ``health`` (top = 0), ``pool``, ``ammo`` (faction ids), ``slots``;
    ``offer`` / ``offer_ctx``: Special Units offered for a choice and why; ``public``: the
    board as last revealed (:func:`public_board`); battle: ``stack`` (battle cards),
    ``current`` (:class:`Fight`), ``beside`` (``[[id, face_up]]``), ``passed``, ``score``;
    ``stash``, ``used`` (once-per-phase effects used), ``triples``, ``guess`` (XxX's secret
    score guess); Expert Variant draft: ``packet``, ``drafted``, ``picked``; ``tucked``
    (Kollektah: pool special id -> cards under it), ``megaton`` (cards loaded face down on
    Megaton), ``colony`` / ``colony_out`` / ``colony_seen`` (Venus Colony's A.I.Lien, in use
    this battle, as everybody saw it placed); ``moved`` (Cooperative Mode: made a Recruitment
    move this phase; ``None`` before the first Recruitment Phase)."""

    offered: list[str]
    faction: str | None = None
    extra_factions: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    health: list[str] = field(default_factory=list)
    pool: list[str] = field(default_factory=list)
    ammo: list[str] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)
    ready: bool = False
    eliminated: bool = False
    offer: list[str] = field(default_factory=list)
    offer_ctx: dict[str, Any] | None = None
    public: dict[str, Any] | None = None
    stack: list[str] = field(default_factory=list)
    current: Fight | None = None
    beside: list[list[Any]] = field(default_factory=list)
    passed: bool = False
    score: int = 0
    stash: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    triples: int = 0
    guess: int | None = None
    packet: list[str] = field(default_factory=list)
    drafted: list[str] = field(default_factory=list)
    picked: bool = False
    table_factions: list[str] = field(default_factory=list)
    tucked: dict[str, list[str]] = field(default_factory=dict)
    colony: str | None = None
    colony_out: bool = False
    colony_seen: str | None = None
    megaton: list[str] = field(default_factory=list)
    toma: bool = False
    moved: bool | None = None

    def cards_at(self, where: str) -> list[str]:
        """The seat's card list an event names by ``where``: ``hand``, ``health``, ``pool``,
        ``stash``, ``offer``, ``stack`` or ``megaton``. Raises ValueError for another name
        (a corrupt log)."""
        piles = {
            "hand": self.hand,
            "health": self.health,
            "pool": self.pool,
            "stash": self.stash,
            "offer": self.offer,
            "stack": self.stack,
            "megaton": self.megaton,
        }
        if where not in piles:
            raise ValueError(f"no card list {where!r} on a seat")
        return piles[where]


@dataclass(slots=True)
class TomaState:
    """The A.I.Toma (Solo / Cooperative Mode): its ``seat`` (index in ``players``: ``n``),
    ``difficulty``, hand discards due (``discard_due``), whether A.I.Lien stay with its units
    (``ailien_stays``), the round an alternative win is pending from (``alt_pending``) and
    whether its gift was used (``gift_used``)."""

    seat: int
    difficulty: str
    discard_due: int = 0
    ailien_stays: bool = False
    alt_pending: int | None = None
    gift_used: bool = False


@dataclass(slots=True)
class BattleProgress:
    """The Battle Phase's counters: battle ``cards`` played, the current battle ``point``,
    and the total ``scores`` once they are known (``None`` before)."""

    cards: int = 0
    point: int = 0
    scores: dict[str, Any] | None = None


#: the optional keys of :class:`MatchState`, in their default dump order
LATE_KEYS = ("table_public", "resigned")


@dataclass(slots=True)
class MatchState:
    """The whole match. ``n``: human seats; ``mode``: ``competitive`` / ``solo`` / ``coop``;
    ``second_copy``: 5-8 Player Variant; ``toma``: :class:`TomaState` or ``None``; ``phase``:
    ``draft`` / ``faction`` / ``recruitment`` / ``battle`` / ``ended``; ``draw`` (top = 0),
    ``discard`` (top = last), ``specials`` (main deck of Special Units, top = 0), ``ammo_deck``
    (faction ids, top = 0); ``battle``: :class:`BattleProgress`; ``result``: ``None`` or the
    MatchEnded result; ``choice``: the open effect decision (module doc); ``players``: the
    human seats, then the A.I.Toma if any; ``health_order``: ``shuffled`` / ``chosen``.
    ``table_public``: the shared piles as the Recruitment Phase began (``None`` before the
    first); ``resigned``: seats in the order they resigned (``None`` before the first).
    ``late_keys``: the order in which those two appeared (kept for the dump's key order)."""

    n: int
    mode: str
    second_copy: bool = False
    toma: TomaState | None = None
    round: int = 0
    phase: str = "faction"
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    specials: list[str] = field(default_factory=list)
    ammo_deck: list[str] = field(default_factory=list)
    sudden_death: bool = False
    apocalypse: bool = False
    factions_revealed: bool = False
    battle: BattleProgress = field(default_factory=BattleProgress)
    result: dict[str, Any] | None = None
    choice: dict[str, Any] | None = None
    players: list[Player] = field(default_factory=list)
    health_order: str = "shuffled"
    table_public: dict[str, Any] | None = None
    resigned: list[int] | None = None
    late_keys: list[str] = field(default_factory=list)

    def set_table_public(self, table: dict[str, Any]) -> None:
        """Set ``table_public`` (noting its place in the dump's key order)."""
        self.table_public = table
        if "table_public" not in self.late_keys:
            self.late_keys.append("table_public")

    def add_resigned(self, seat: int) -> None:
        """Append ``seat`` to ``resigned`` (created at the first resignation)."""
        if self.resigned is None:
            self.resigned = []
            if "resigned" not in self.late_keys:
                self.late_keys.append("resigned")
        self.resigned.append(seat)


def toma_of(state: MatchState) -> TomaState:
    """The A.I.Toma's record of a solo / co-op match; ValueError in a competitive match."""
    if state.toma is None:
        raise ValueError("no A.I.Toma in this match")
    return state.toma


def fight_of(player: Player) -> Fight:
    """The seat's current battle card; ValueError when it has none (a corrupt log)."""
    if player.current is None:
        raise ValueError("the seat has no battle card")
    return player.current


def unit_of(slot: Slot) -> str:
    """The unit card on ``slot`` (for a slot known to hold one, e.g. from :func:`units`);
    ValueError when the slot is empty (a corrupt log or an unchecked caller)."""
    if slot.unit is None:
        raise ValueError("the slot holds no unit")
    return slot.unit


def card_of(slot: Slot) -> str:
    """The card ``slot`` is made of (a basic unit face down, or a Special Unit's red side);
    ValueError on an A.I.Toma slot (made of no card)."""
    if slot.card is None:
        raise ValueError("the slot is made of no card (an A.I.Toma slot)")
    return slot.card


def pile_of(slot: Slot) -> list[str]:
    """An A.I.Toma slot's unit pile (bottom card first); ValueError on any other slot."""
    if slot.pile is None:
        raise ValueError("the slot is no A.I.Toma slot")
    return slot.pile


def fight_slot(fight: Fight) -> int:
    """The slot index the battle card ``fight`` is placed at; ValueError when it lies beside
    the units (``slot`` ``None``: it does not fight)."""
    if fight.slot is None:
        raise ValueError("the battle card is not placed at a slot")
    return fight.slot


def faction_of(player: Player) -> str:
    """The faction the seat kept (Game Setup); ValueError before it chose one."""
    if player.faction is None:
        raise ValueError("the seat has not chosen a faction")
    return player.faction


def offer_ctx_of(player: Player) -> dict[str, Any]:
    """Why the seat's Special Units are offered (module doc: ``offer_ctx``); ValueError when
    nothing is offered."""
    if player.offer_ctx is None:
        raise ValueError("no Special Units are offered to the seat")
    return player.offer_ctx


def choice_of(state: MatchState) -> dict[str, Any]:
    """The open effect decision (module doc: ``choice``); ValueError when none is open."""
    if state.choice is None:
        raise ValueError("no effect decision is open")
    return state.choice


def new_player(offered: list[str], health: list[str], hand: list[str]) -> Player:
    """A seat right after Game Setup (B)-(D): offered factions, health stack, 6 hand cards."""
    return Player(offered=list(offered), hand=list(hand), health=list(health))


def new_slot(card: str | None, red: bool = False) -> Slot:
    """An empty slot made of ``card`` (a basic unit face down, or a Special Unit's red side)."""
    return Slot(card=card, red=red)


def strength_of(slot: Slot) -> int:
    """The printed strength of the unit on ``slot`` (0 for an empty slot). An A.I.Toma unit:
    "The strength of its units is determined by the sum of all card values in a slot"."""
    if not slot.unit:
        return 0
    if slot.pile is not None:
        cat = catalogue()
        return sum(cat[c].value or 0 for c in slot.pile)
    return SCALE[slot.pos]


def shown_strength(slot: Mapping[str, Any]) -> int:
    """:func:`strength_of` for a slot as a board is shown (a slot of :func:`public_board`, of
    a view, or :func:`dump_slot`): 0 when empty, an A.I.Toma unit's pile values, else the
    scale strength at ``pos``."""
    if not slot["unit"]:
        return 0
    pile = slot.get("pile")
    if pile is not None:
        cat = catalogue()
        return sum(cat[c].value or 0 for c in pile)
    return SCALE[slot["pos"]]


def new_toma_slot(pile: list[str]) -> Slot:
    """An A.I.Toma slot holding the unit ``pile`` (bottom card first; empty: an empty slot)."""
    return Slot(card=None, unit=pile[0] if pile else None, pile=list(pile))


def is_toma(player: Player) -> bool:
    """True for the A.I.Toma's entry in ``players`` (Solo / Cooperative Mode)."""
    return player.toma


def toma_seat(state: MatchState) -> int | None:
    """Index of the A.I.Toma in ``state.players`` (``n``), ``None`` outside solo/co-op."""
    return state.toma.seat if state.toma else None


def seats(state: MatchState) -> range:
    """The human seats ``0..n-1`` (the A.I.Toma, if any, is ``players[n]``)."""
    return range(state.n)


def opponents_of(state: MatchState, seat: int) -> list[int]:
    """Living opponents of ``seat`` clockwise from its left neighbour. Against the A.I.Toma the
    human seats are one side: a seat's only opponent is the A.I.Toma (co-op partners are not
    opponents), the A.I.Toma's are the human seats. RULINGS R-COOP-OPPONENTS."""
    total = len(state.players)
    order = [
        (seat + k) % total
        for k in range(1, total)
        if not state.players[(seat + k) % total].eliminated
    ]
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


def factions(player: Player) -> list[str]:
    """The seat's faction(s): the kept one, any Stalker extra faction, and the factions lying
    on the table for everyone (variant "Force the Luck")."""
    return (
        ([player.faction] if player.faction else [])
        + list(player.extra_factions)
        + list(player.table_factions)
    )


def units(player: Player) -> list[tuple[int, Slot]]:
    """``(index, slot)`` of every slot holding a unit, left to right."""
    return [(i, s) for i, s in enumerate(player.slots) if s.unit]


def alive(state: MatchState) -> list[int]:
    """Players still in the game (human seats, then the A.I.Toma if any)."""
    return [s for s, p in enumerate(state.players) if not p.eliminated]


def max_ammo(player: Player) -> int:
    """Ammo storage limit: 6, or a ``max_ammo`` faction's value (Elysium: 8).

    RULINGS R-STALKER-AMMO.
    """
    best = MAX_AMMO
    for fid in factions(player):
        for op in catalogue()[fid].has("max_ammo"):
            best = max(best, op["n"])
    return best


def slid_ailien_value(slot: Slot) -> int:
    """Card values of the A.I.Lien cards behind the unit on ``slot`` (Astronomer: "The
    A.I.Lien's card value is added to Astronomer's combat strength temporarily")."""
    cat = catalogue()
    if not slot.unit or not cat[slot.unit].has("slide_ailien"):
        return 0
    return sum(cat[c].value or 0 for c in slot.attached if cat[c].kind == "ailien")


def total_strength(player: Player, with_ailien_hand: bool = False) -> int:
    """ "Total Strength": sum of unit strengths (no temporary strength); in the A.I.Pokalypse
    also the card values of A.I.Lien cards in hand. An Astronomer's A.I.Lien cards count too
    ("Remember that the added strength also counts in the A.I.Pokalypse!"; ruling R-ASTRONOMER:
    in every total strength)."""
    total = sum(strength_of(s) + slid_ailien_value(s) for _, s in units(player))
    if with_ailien_hand:
        cat = catalogue()
        total += sum(cat[c].value or 0 for c in player.hand if cat[c].kind == "ailien")
    return total


def public_board(p: Player) -> dict[str, Any]:
    """What every seat sees of a board once it is revealed (no hand, no health stack order;
    an A.I.Toma unit shows its pile face up)."""
    return {
        "faction": p.faction,
        "extra_factions": list(p.extra_factions),
        "slots": [
            dict(
                {
                    "card": s.card,
                    "red": s.red,
                    "unit": s.unit,
                    "pos": s.pos,
                    "attached": _plain_copy(s.attached),
                    "temp": s.temp,
                    "ammo_temp": s.ammo_temp,
                },
                ammo_on=len(s.ammo_cards or []),
                **({"pile": list(s.pile)} if s.pile is not None else {}),
            )
            for s in p.slots
        ],
        "ammo": len(p.ammo),
        "hand": len(p.hand),
        "health": len(p.health),
        "pool": list(p.pool),
        "colony": p.colony,
        "megaton": len(p.megaton),
    }


# -- snapshot form --------------------------------------------------------------------------

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


def json_copy(value: Any) -> Any:
    """``json.loads(json.dumps(value))`` for a JSON-shaped ``value`` (a record of the state
    kept as a dict), about twice as fast for plain dicts and lists (:func:`_plain_copy`);
    anything else takes the JSON round trip itself (its errors included: ``TypeError``)."""
    if type(value) in _SCALARS:
        return value
    try:
        return _plain_copy(value)
    except (_NotPlain, RecursionError):
        return json.loads(json.dumps(value))


def dump_slot(s: Slot) -> dict[str, Any]:
    """A slot's snapshot form (``pile`` only on an A.I.Toma slot)."""
    out = {
        "card": s.card,
        "red": s.red,
        "unit": s.unit,
        "pos": s.pos,
        "attached": json_copy(s.attached),
        "temp": s.temp,
        "battle": json_copy(s.battle),
        "exhausted": s.exhausted,
        "ammo_temp": s.ammo_temp,
        "ammo_cards": json_copy(s.ammo_cards),
    }
    if s.pile is not None:
        out["pile"] = json_copy(s.pile)
    return out


def dump_fight(f: Fight | None) -> dict[str, Any] | None:
    """A current battle card's snapshot (and view) form."""
    if f is None:
        return None
    return {
        "card": f.card,
        "slot": f.slot,
        "fights": f.fights,
        "placed": f.placed,
        "ammo": f.ammo,
        "bonus": f.bonus,
        "forced": f.forced,
    }


def dump_battle(b: BattleProgress) -> dict[str, Any]:
    """The Battle Phase counters' snapshot (and view) form (``scores`` once known)."""
    out: dict[str, Any] = {"cards": b.cards, "point": b.point}
    if b.scores is not None:
        out["scores"] = json_copy(b.scores)
    return out


def dump_player(p: Player) -> dict[str, Any]:
    """A seat's snapshot form (``toma`` only on the A.I.Toma's entry, ``moved`` from the first
    Recruitment Phase on)."""
    out = {
        "offered": json_copy(p.offered),
        "faction": p.faction,
        "extra_factions": json_copy(p.extra_factions),
        "hand": json_copy(p.hand),
        "health": json_copy(p.health),
        "pool": json_copy(p.pool),
        "ammo": json_copy(p.ammo),
        "slots": [dump_slot(s) for s in p.slots],
        "ready": p.ready,
        "eliminated": p.eliminated,
        "offer": json_copy(p.offer),
        "offer_ctx": json_copy(p.offer_ctx),
        "public": json_copy(p.public),
        "stack": json_copy(p.stack),
        "current": dump_fight(p.current),
        "beside": json_copy(p.beside),
        "passed": p.passed,
        "score": p.score,
        "stash": json_copy(p.stash),
        "used": json_copy(p.used),
        "triples": p.triples,
        "guess": p.guess,
        "packet": json_copy(p.packet),
        "drafted": json_copy(p.drafted),
        "picked": p.picked,
        "table_factions": json_copy(p.table_factions),
        "tucked": json_copy(p.tucked),
        "colony": p.colony,
        "colony_out": p.colony_out,
        "colony_seen": p.colony_seen,
        "megaton": json_copy(p.megaton),
    }
    if p.toma:
        out["toma"] = True
    if p.moved is not None:
        out["moved"] = p.moved
    return out


def dump_state(state: MatchState) -> dict[str, Any]:
    """JSON-serialisable snapshot of ``state``: plain dicts and lists with the keys the
    former plain-dict state had, in its order (module doc); ``json.loads(json.dumps(x))``
    leaves it unchanged. Raises TypeError when a record kept as a dict holds a value JSON
    refuses."""
    toma = state.toma
    out = {
        "n": state.n,
        "mode": state.mode,
        "second_copy": state.second_copy,
        "toma": None
        if toma is None
        else {
            "seat": toma.seat,
            "difficulty": toma.difficulty,
            "discard_due": toma.discard_due,
            "ailien_stays": toma.ailien_stays,
            "alt_pending": toma.alt_pending,
            "gift_used": toma.gift_used,
        },
        "round": state.round,
        "phase": state.phase,
        "draw": json_copy(state.draw),
        "discard": json_copy(state.discard),
        "specials": json_copy(state.specials),
        "ammo_deck": json_copy(state.ammo_deck),
        "sudden_death": state.sudden_death,
        "apocalypse": state.apocalypse,
        "factions_revealed": state.factions_revealed,
        "battle": dump_battle(state.battle),
        "result": json_copy(state.result),
        "choice": json_copy(state.choice),
        "players": [dump_player(p) for p in state.players],
        "health_order": state.health_order,
    }
    for key in [*state.late_keys, *(k for k in LATE_KEYS if k not in state.late_keys)]:
        value = getattr(state, key)
        if value is not None:
            out[key] = json_copy(value)
    return out


def _load_slot(d: dict[str, Any]) -> Slot:
    return Slot(**d)


def _load_player(d: dict[str, Any]) -> Player:
    d["slots"] = [_load_slot(s) for s in d["slots"]]
    if d.get("current") is not None:
        d["current"] = Fight(**d["current"])
    return Player(**d)


def load_state(data: Any) -> MatchState:
    """Inverse of :func:`dump_state` (a deep copy of ``data``; an optional key absent stays
    absent). Raises TypeError on a key that is no field, KeyError on a missing record."""
    d = json_copy(dict(data))
    d["players"] = [_load_player(p) for p in d["players"]]
    if d.get("toma") is not None:
        d["toma"] = TomaState(**d["toma"])
    d["battle"] = BattleProgress(**d["battle"])
    d["late_keys"] = [k for k in d if k in LATE_KEYS]
    return MatchState(**d)


def _clone_slot(s: Slot) -> Slot:
    return Slot(
        s.card,
        s.red,
        s.unit,
        s.pos,
        list(s.attached),
        s.temp,
        [list(b) for b in s.battle],
        s.exhausted,
        s.ammo_temp,
        list(s.ammo_cards),
        None if s.pile is None else list(s.pile),
    )


def _clone_player(p: Player) -> Player:
    cur = p.current
    return Player(
        list(p.offered),
        p.faction,
        list(p.extra_factions),
        list(p.hand),
        list(p.health),
        list(p.pool),
        list(p.ammo),
        [_clone_slot(s) for s in p.slots],
        p.ready,
        p.eliminated,
        list(p.offer),
        json_copy(p.offer_ctx),
        json_copy(p.public),
        list(p.stack),
        None
        if cur is None
        else Fight(cur.card, cur.slot, cur.fights, cur.placed, cur.ammo, cur.bonus, cur.forced),
        [list(b) for b in p.beside],
        p.passed,
        p.score,
        list(p.stash),
        list(p.used),
        p.triples,
        p.guess,
        list(p.packet),
        list(p.drafted),
        p.picked,
        list(p.table_factions),
        {k: list(v) for k, v in p.tucked.items()},
        p.colony,
        p.colony_out,
        p.colony_seen,
        list(p.megaton),
        p.toma,
        p.moved,
    )


def clone(state: MatchState) -> MatchState:
    """A deep, independent copy (every ``decide`` works on one, :class:`.context.Ctx`, so it
    never mutates its input): the same as ``load_state(dump_state(state))``, faster."""
    toma = state.toma
    b = state.battle
    return MatchState(
        state.n,
        state.mode,
        state.second_copy,
        None
        if toma is None
        else TomaState(
            toma.seat,
            toma.difficulty,
            toma.discard_due,
            toma.ailien_stays,
            toma.alt_pending,
            toma.gift_used,
        ),
        state.round,
        state.phase,
        list(state.draw),
        list(state.discard),
        list(state.specials),
        list(state.ammo_deck),
        state.sudden_death,
        state.apocalypse,
        state.factions_revealed,
        BattleProgress(b.cards, b.point, json_copy(b.scores)),
        json_copy(state.result),
        json_copy(state.choice),
        [_clone_player(p) for p in state.players],
        state.health_order,
        json_copy(state.table_public),
        None if state.resigned is None else list(state.resigned),
        list(state.late_keys),
    )
