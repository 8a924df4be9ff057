"""Folding the events of the A.I.Toma (Solo / Cooperative Mode) and of the 5-8 Player Variant
into the state; registered with :func:`.fold._on` (imported at the end of :mod:`.fold`).

Events: ``SecondCopyAmmoAdded`` (the second copy's ammo goes under the ammo deck),
``TomaSlotOpened``, ``TomaCardMoved``, ``TomaCardPlaced``, ``HandDiscardsDue`` /
``HandDiscardsResolved``, ``AlternativeWinPending``, ``AmmoGiven``, ``FirstMoveMade``; and the
A.I.Toma's parts of ``MatchStarted`` and ``BattleCleared`` (:func:`add_toma`, :func:`clear_battle`).
"""
from __future__ import annotations

from typing import Any, Mapping

from domain.engine import Event

from .cards import catalogue
from .fold import _on, _p, _to_discard
from .state import new_player, new_toma_slot


def add_toma(s: dict, d: Mapping[str, Any]) -> None:
    """MatchStarted with ``toma`` (``{"difficulty", "health", "piles", "ignored"}``): the
    A.I.Toma joins as ``players[n]`` with its health stack and set-up units; the ignored
    A.I.Lien lie on the discard pile. Its board is public from the start."""
    from .battle import public_board
    toma = new_player([], d["health"], [])
    toma.update(toma=True, ready=True, slots=[new_toma_slot(pile) for pile in d["piles"]])
    s["players"].append(toma)
    s["discard"].extend(d["ignored"])
    s["toma"] = {"seat": s["n"], "difficulty": d["difficulty"], "discard_due": 0, "ailien_stays": False,
                 "alt_pending": None, "gift_used": False}
    toma["public"] = public_board(toma)


def reveal_board(player: dict) -> None:
    """RecruitmentStarted: a board as the battle left it is what the other viewers see during
    the Recruitment Phase — the battle, its damage and the A.I.Toma's units with this battle's
    cards, new slots, pool and ammo all happened in the open. Only the private Recruitment
    moves (and what they do to other boards: .Exe Suit, Scammer, Prof. Boom) wait for the next
    Battle Phase reveal (rulings R-privacy, R-coop-privacy)."""
    from .battle import public_board
    player["public"] = public_board(player)


def clear_battle(s: dict, p: dict) -> None:
    """"All battle cards remain with the respective unit and are placed on the unit as in
    A.I.Toma's setup": each slot's battle cards go onto its pile (a slot opened in this battle
    gets its first unit); A.I.Lien are discarded unless a player played one in Sudden Death;
    cards beside the units and the rest of the stack are discarded."""
    cat = catalogue()
    stays = s["toma"]["ailien_stays"]
    for slot in p["slots"]:
        for card, _ in slot["battle"]:
            if cat[card].kind == "ailien" and not stays:
                s["discard"].append(card)
            else:
                slot["pile"].append(card)
        slot["unit"] = slot["pile"][0] if slot["pile"] else None
        slot.update(battle=[], exhausted=False, temp=0, ammo_temp=0)
    s["discard"].extend(c for c, _ in p["beside"])
    s["discard"].extend(p["stack"])
    p.update(beside=[], stack=[], score=0, current=None, passed=False)


@_on("SecondCopyAmmoAdded")
def _second_ammo(s: dict, e: Event) -> None:
    """5-8 Player Variant: "add the Ammo of the second copy after you have chosen your faction"."""
    s["ammo_deck"].extend(e.data["cards"])


@_on("TomaSlotOpened")
def _toma_slot(s: dict, e: Event) -> None:
    p = _p(s, e)
    if e.data["slot"] != len(p["slots"]):
        raise ValueError("the A.I.Toma opens its slots left to right")
    p["slots"].append(new_toma_slot([]))


@_on("TomaCardMoved")
def _toma_moved(s: dict, e: Event) -> None:
    slots = _p(s, e)["slots"]
    source, target = slots[e.data["source"]], slots[e.data["target"]]
    if not source["pile"] or source["pile"][-1] != e.data["card"] or len(source["pile"]) < 2:
        raise ValueError("the A.I.Toma moves the top card of a unit with more than one card")
    target["pile"].append(source["pile"].pop())


@_on("TomaCardPlaced")
def _toma_placed(s: dict, e: Event) -> None:
    d = e.data
    if s["draw"][:1] != [d["card"]]:
        raise ValueError("the A.I.Toma draws the top card of the draw pile")
    s["draw"].pop(0)
    p = _p(s, e)
    if d["slot"] is None:
        s["discard"].append(d["card"])
        return
    if d["new"]:
        p["slots"].append(new_toma_slot([]))
    slot = p["slots"][d["slot"]]
    slot["pile"].append(d["card"])
    slot["unit"] = slot["pile"][0]


@_on("HandDiscardsDue")
def _discards_due(s: dict, e: Event) -> None:
    s["toma"]["discard_due"] += e.data["n"]


@_on("HandDiscardsResolved")
def _discards_done(s: dict, e: Event) -> None:
    s["toma"]["discard_due"] = 0


@_on("AlternativeWinPending")
def _alt_pending(s: dict, e: Event) -> None:
    s["toma"]["alt_pending"] = e.data["round"]


@_on("AmmoGiven")
def _ammo_given(s: dict, e: Event) -> None:
    """Cooperative Mode: the giver's ammo card goes to its partner (once per game)."""
    giver, partner = _p(s, e), s["players"][e.data["to"]]
    giver["ammo"].remove(e.data["card"])
    partner["ammo"].append(e.data["card"])
    s["toma"]["gift_used"] = True


@_on("FirstMoveMade")
def _first_move(s: dict, e: Event) -> None:
    _p(s, e)["moved"] = True


def note_recruit(s: dict, card: str) -> None:
    """"Once a player plays an A.I.Lien during Sudden Death, all A.I.Lien remain with
    A.I.Toma's units" (recruiting it into a slot, ruling R-toma-ailien)."""
    if s.get("toma") and s["sudden_death"] and catalogue()[card].kind == "ailien":
        s["toma"]["ailien_stays"] = True


def discard_pile(s: dict, slot: dict) -> None:
    """A killed A.I.Toma unit: the cards of its pile other than the unit card go to the
    discard pile (the unit card itself is discarded by the event)."""
    for card in slot.get("pile") or []:
        if card != slot["unit"]:
            _to_discard(s, card)
    if "pile" in slot:
        slot["pile"] = []
