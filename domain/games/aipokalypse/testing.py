"""A.I.Pokalypse's settings for the generic tests (:class:`domain.testing.GameTesting`): the
seats and options of the generic end-to-end matches, the set-ups the view tests play, every
mode the contract test plays, and the hidden-information model the leak tests check every
answer against (written from the game's rules and views, never trusting the projections
under test)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from domain.engine import Event
from domain.testing import GameTesting, Secrecy, redeal_cards, strings

from . import ENGINE
from .state import MatchState, Player


# views.py: a seat's hand, offered factions, Special Units offered or drafted, stash,
# packet, tucked and Megaton cards, its face-down slot cards and the options of its open
# effect decision are its own; the faction it chose until ``factions_revealed``; during
# Recruitment the units, red slots, extra factions and colony it set since the last
# reveal (``public``) are its own (its pool is not: a health card lost to another seat's
# effect lands there in a public event). Health
# stacks, battle stacks, ammo (faction faces down), face-down battle/beside cards and the
# draw, Special Unit and ammo decks are nobody's; so are the cards discarded during
# Recruitment (the others see the piles as the phase began, ``table_public``).
def _board_ids(board: Mapping[str, Any]) -> set[str]:
    """Card ids on a board in its shown form (:func:`.state.public_board`)."""
    out: set[Any] = set()
    for slot in board.get("slots") or []:
        out |= {slot.get("unit"), *slot.get("attached", []), *slot.get("pile", [])}
        if slot.get("red"):
            out.add(slot.get("card"))
    out |= set(board.get("extra_factions") or [])
    out.add(board.get("colony"))
    return {c for c in out if isinstance(c, str)}


def _live_board_ids(p: Player) -> set[str]:
    """Card ids on a seat's live board: its units, attached cards, A.I.Toma piles, Red Slot
    cards, extra factions and Venus Colony's A.I.Lien."""
    out: set[str | None] = set()
    for slot in p.slots:
        out |= {slot.unit, *slot.attached, *(slot.pile or [])}
        if slot.red:
            out.add(slot.card)
    out |= set(p.extra_factions)
    out.add(p.colony)
    return {c for c in out if isinstance(c, str)}


def _aipok_private(state: MatchState, seat: int) -> set[str]:
    p = state.players[seat]
    out = set(p.hand) | set(p.offered) | set(p.offer) | set(p.stash)
    out |= set(p.packet) | set(p.drafted) | set(p.megaton)
    out |= {c for cards in p.tucked.values() for c in cards}
    out |= {slot.card for slot in p.slots if not slot.red and slot.card}
    if p.faction and not state.factions_revealed:
        out.add(p.faction)
    choice = state.choice
    if choice and choice.get("seat") == seat:
        out |= SECRECY.ids(choice.get("options"))
    if state.phase == "recruitment":
        out |= _live_board_ids(p) - _board_ids(p.public or {})
    return out


def _aipok_unseen(state: MatchState) -> dict[str, list[str]]:
    out = {
        "draw": list(state.draw),
        "specials": list(state.specials),
        "ammo_deck": list(state.ammo_deck),
    }
    for i, p in enumerate(state.players):
        out[f"health:{i}"] = list(p.health)
        out[f"stack:{i}"] = list(p.stack)
        out[f"ammo:{i}"] = list(p.ammo)
        down = [c for c, up in p.beside if not up]
        for slot in p.slots:
            down += [c for c, up in slot.battle if not up]
            down += list(slot.ammo_cards)
        out[f"face_down:{i}"] = down
    if state.phase == "recruitment" and state.table_public is not None:
        shown = set(state.table_public["discard"])
        out["discarded_in_recruitment"] = [c for c in state.discard if c not in shown]
    return out


def _aipok_parts(event: Event) -> list[Event]:
    """A ``RecruitmentMoves`` batch (one hidden command; its envelope seat is the acting
    seat, or none for the automatic steps opening the phase) stands for its inner events,
    each of its own seat (RULINGS R-HIDDEN-BATCH: a viewer is shown the inner events it
    may see, each redacted as alone). Unpacked here from the stored shape, not with the
    domain's helper under test."""
    if event.type != "RecruitmentMoves":
        return [event]
    return [Event(e["type"], dict(e["data"]), e["seat"]) for e in event.data["events"]]


SECRECY = Secrecy(
    card=re.compile(r"[BSF]\d{2,3}"),
    private=_aipok_private,
    unseen=_aipok_unseen,
    parts=_aipok_parts,
)


def redeal(state: Any, seat: int, rng: random.Random) -> Any:
    """The position with what ``seat`` cannot see dealt again (issue 23 "bots never
    peek"), written on the dumped form (``ENGINE.dump_state`` -> edit -> ``load_state``):
    the cards of the other seats' private
    places (:func:`_aipok_private`: hands, offers, stashes, packets, face-down slot cards,
    a faction not yet revealed, ...) and of the face-down places nobody sees
    (:func:`_aipok_unseen`: draw, Special Unit and ammo decks, health and battle stacks,
    face-down battle cards) are permuted among those places, a card only with cards of
    its own deck (rulebook "Components": basic ``B``, Special Unit ``S`` and faction
    ``F`` cards). ``state`` is not changed."""
    seen = set(strings(ENGINE.view(state, seat)))
    hidden = {card for cards in _aipok_unseen(state).values() for card in cards}
    for other in range(len(state.players)):
        if other != seat:
            hidden |= _aipok_private(state, other)
    hidden = {card for card in hidden if isinstance(card, str)} - seen
    dumped = ENGINE.dump_state(state)
    return ENGINE.load_state(redeal_cards(dumped, hidden, rng, class_of=lambda card: card[0]))


TESTING = GameTesting(
    seats=3,
    options={"expert": True, "force_the_luck": True},
    secrecy=SECRECY,
    view_setups=((4, {}), (2, {"mode": "coop"})),
    modes=(
        (2, {"expert": True, "force_the_luck": True}),
        (5, {}),
        (1, {"mode": "solo", "difficulty": "handy_man"}),
        (2, {"mode": "coop", "expert": True, "health_order": "chosen"}),
    ),
    redeal=redeal,
)
