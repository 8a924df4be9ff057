"""Folding the events of the A.I.Toma (Solo / Cooperative Mode) and of the 5-8 Player Variant
into the state; registered with :func:`.fold_registry._on` (imported by :mod:`.fold`).

Events: ``SecondCopyAmmoAdded`` (the second copy's ammo goes under the ammo deck),
``TomaSlotOpened``, ``TomaCardMoved``, ``TomaCardPlaced``, ``HandDiscardsDue`` /
``HandDiscardsResolved``, ``AlternativeWinPending``, ``AmmoGiven``, ``FirstMoveMade``; and the
A.I.Toma's parts of ``MatchStarted`` and ``BattleCleared`` (:func:`add_toma`, :func:`clear_battle`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine import Event

from .cards import catalogue
from .fold_registry import _on, _p, _to_discard
from .spec import MAX_SLOTS
from .state import (
    MatchState,
    Player,
    Slot,
    TomaState,
    fits,
    new_player,
    new_toma_slot,
    pile_of,
    public_board,
    toma_of,
)


def add_toma(s: MatchState, d: Mapping[str, Any]) -> None:
    """MatchStarted with ``toma`` (``{"difficulty", "health", "piles", "ignored"}``): the
    A.I.Toma joins as ``players[n]`` with its health stack and set-up units; the ignored
    A.I.Lien lie on the discard pile. Its board is public from the start."""
    toma = new_player([], d["health"], [])
    toma.toma = True
    toma.ready = True
    toma.slots = [new_toma_slot(pile) for pile in d["piles"]]
    s.players.append(toma)
    s.discard.extend(d["ignored"])
    s.toma = TomaState(seat=s.n, difficulty=d["difficulty"])
    toma.public = public_board(toma)


def reveal_board(player: Player) -> None:
    """RecruitmentStarted: a board as the battle left it is what the other viewers see during
    the Recruitment Phase — the battle, its damage and the A.I.Toma's units with this battle's
    cards, new slots, pool and ammo all happened in the open. Only the private Recruitment
    moves (and what they do to other boards: .Exe Suit, Scammer, Prof. Boom) wait for the next
    Battle Phase reveal (rulings R-PRIVACY, R-COOP-PRIVACY)."""
    player.public = public_board(player)


def clear_battle(s: MatchState, p: Player) -> None:
    """ "All battle cards remain with the respective unit and are placed on the unit as in
    A.I.Toma's setup" ("If the next card is the same color, place it on top of the first card
    ... If a card has a different color, place it to the right (the A.I.Toma opens a new slot).
    Place cards of the same color on existing units"): a battle card that fits its unit (it
    fought there) goes onto its pile, the card of a slot opened in this battle becomes its
    unit; a card that does not fit its unit (drawn face down for a unit an effect exhausted)
    is then placed as at set-up: onto the leftmost unit it fits, else the leftmost empty
    slot, else a new slot to the right (below 6), else the discard pile (ruling R-TOMA-BATTLE).
    A.I.Lien are discarded unless a player played one in Sudden Death (then they stay with
    their unit); cards beside the units and the rest of the stack are discarded."""
    cat = catalogue()
    stays = toma_of(s).ailien_stays
    misfits: list[str] = []
    for slot in p.slots:
        for card, _ in slot.battle:
            if cat[card].kind == "ailien":
                (pile_of(slot) if stays else s.discard).append(card)
            elif not slot.pile or fits(cat[slot.pile[0]].color, cat[card].color):
                pile_of(slot).append(card)
            else:
                misfits.append(card)
        slot.battle = []
        slot.exhausted = False
        slot.temp = 0
        slot.ammo_temp = 0
    for card in misfits:
        _place_as_in_setup(s, p, card)
    for slot in p.slots:
        slot.unit = slot.pile[0] if slot.pile else None
    s.discard.extend(c for c, _ in p.beside)
    s.discard.extend(p.stack)
    p.beside = []
    p.stack = []
    p.score = 0
    p.current = None
    p.passed = False


def _place_as_in_setup(s: MatchState, p: Player, card: str) -> None:
    """Game Setup: A.I.Toma — "Place cards of the same color on existing units" (the leftmost
    it fits, Rogues any colour), "If a card has a different color, place it to the right (the
    A.I.Toma opens a new slot)": an empty slot (a killed unit's) first, then a new one below 6;
    with none the card is discarded."""
    cat = catalogue()
    slots = p.slots
    home = next(
        (sl for sl in slots if sl.pile and fits(cat[sl.pile[0]].color, cat[card].color)), None
    )
    if home is None:
        home = next((sl for sl in slots if not sl.pile), None)
    if home is None and len(slots) < MAX_SLOTS:
        home = new_toma_slot([])
        slots.append(home)
    if home is None:
        s.discard.append(card)
    else:
        pile_of(home).append(card)


@_on("SecondCopyAmmoAdded")
def _second_ammo(s: MatchState, e: Event) -> None:
    """5-8 Player Variant: "add the Ammo of the second copy after you have chosen your faction"."""
    s.ammo_deck.extend(e.data["cards"])


@_on("TomaSlotOpened")
def _toma_slot(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    if e.data["slot"] != len(p.slots):
        raise ValueError("the A.I.Toma opens its slots left to right")
    p.slots.append(new_toma_slot([]))


@_on("TomaCardMoved")
def _toma_moved(s: MatchState, e: Event) -> None:
    slots = _p(s, e).slots
    source, target = slots[e.data["source"]], slots[e.data["target"]]
    if not source.pile or source.pile[-1] != e.data["card"] or len(source.pile) < 2:
        raise ValueError("the A.I.Toma moves the top card of a unit with more than one card")
    target.pile.append(source.pile.pop())


@_on("TomaCardPlaced")
def _toma_placed(s: MatchState, e: Event) -> None:
    d = e.data
    if s.draw[:1] != [d["card"]]:
        raise ValueError("the A.I.Toma draws the top card of the draw pile")
    s.draw.pop(0)
    p = _p(s, e)
    if d["slot"] is None:
        s.discard.append(d["card"])
        return
    if d["new"]:
        p.slots.append(new_toma_slot([]))
    slot = p.slots[d["slot"]]
    slot.pile.append(d["card"])
    slot.unit = slot.pile[0]


@_on("HandDiscardsDue")
def _discards_due(s: MatchState, e: Event) -> None:
    toma_of(s).discard_due += e.data["n"]


@_on("HandDiscardsResolved")
def _discards_done(s: MatchState, e: Event) -> None:
    toma_of(s).discard_due = 0


@_on("AlternativeWinPending")
def _alt_pending(s: MatchState, e: Event) -> None:
    toma_of(s).alt_pending = e.data["round"]


@_on("AmmoGiven")
def _ammo_given(s: MatchState, e: Event) -> None:
    """Cooperative Mode: the giver's ammo card goes to its partner (once per game)."""
    giver, partner = _p(s, e), s.players[e.data["to"]]
    giver.ammo.remove(e.data["card"])
    partner.ammo.append(e.data["card"])
    toma_of(s).gift_used = True


@_on("FirstMoveMade")
def _first_move(s: MatchState, e: Event) -> None:
    _p(s, e).moved = True


def note_recruit(s: MatchState, card: str) -> None:
    """ "Once a player plays an A.I.Lien during Sudden Death, all A.I.Lien remain with
    A.I.Toma's units" (recruiting it into a slot, ruling R-TOMA-AILIEN)."""
    if s.toma and s.sudden_death and catalogue()[card].kind == "ailien":
        toma_of(s).ailien_stays = True


def discard_pile(s: MatchState, slot: Slot) -> None:
    """A killed A.I.Toma unit: the cards of its pile other than the unit card go to the
    discard pile (the unit card itself is discarded by the event)."""
    for card in slot.pile or []:
        if card != slot.unit:
            _to_discard(s, card)
    if slot.pile is not None:
        slot.pile = []
