"""Projections: ``view`` (what a viewer may see of the state) and ``redact`` (of an event).

During Recruitment every viewer sees the shared piles (discard pile, pile sizes) and the
other seats' boards, hand sizes, ammo, pool and health as they were when the phase began
(the last battle's outcome is public; snapshot at ``RecruitmentStarted``), so no seat's
private recruiting shows through them until the next Battle Phase reveal (RULINGS R-PRIVACY);
the events public even then (``HealthLost``) update that snapshot at once. Outside
Recruitment every board is shown as it is: the view at a version reflects every event up to
it (RULINGS R-VIEW-VERSION).

Hidden information (DESIGN.md, RULINGS.md): hands, the health stacks (face down, even for
the owner — the A.I.Toma's too), the deck orders, face-down slot cards and battle stacks,
Special Units drawn for a choice, and — until the Battle Phase reveal — every Recruitment
board change of a seat (events carrying ``hidden``) are shown only as counts (or not at all)
to other viewers. The A.I.Toma (solo/co-op) is shown to everybody under ``toma``
(:func:`.toma.view`); its units lie face up.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from domain.engine import Event

from . import batching
from . import toma as toma_mod
from .battle import strengths
from .spec import HAND_SIZE, HEALTH_POINTS
from .state import MatchState, Slot, dump_battle, dump_fight, shown_strength, total_strength

_OWNER_ONLY = {
    "SpecialsOffered",
    "SpecialChosen",
    "CardsStashed",
    "StashReturned",
    "SpecialSearched",
    "ScoreGuessed",
    "SpecialDrafted",
    "CardsLoaded",
}


def _slots(slots: list[Slot], owner: bool) -> list[dict[str, Any]]:
    """A board's live slots as ``viewer`` may see them (its own: the face-down slot cards)."""
    out = []
    for s in slots:
        d: dict[str, Any] = {
            "card": s.card,
            "red": s.red,
            "unit": s.unit,
            "pos": s.pos,
            "attached": copy.deepcopy(s.attached),
            "temp": s.temp,
            "ammo_temp": s.ammo_temp,
        }
        if s.pile is not None:
            d["pile"] = list(s.pile)  # an A.I.Toma unit: face up
        d["ammo_on"] = len(s.ammo_cards or [])  # ammo side up: a count
        if not owner and not s.red:
            d["card"] = None  # slot cards lie face down
        d["battle"] = [[c if up else None, up] for c, up in s.battle]
        d["exhausted"] = s.exhausted
        out.append(d)
    return out


def _shown_slots(slots: list[dict[str, Any]], owner: bool = False) -> list[dict[str, Any]]:
    """Slots of a board in its shown form (:func:`.state.public_board`, a ``BoardsRevealed``
    board) as ``viewer`` may see them (``owner``: its own, slot cards face up)."""
    out = []
    for s in slots:
        d = {
            k: copy.deepcopy(s.get(k))
            for k in ("card", "red", "unit", "pos", "attached", "temp", "ammo_temp")
        }
        if "pile" in s:
            d["pile"] = list(s["pile"])  # an A.I.Toma unit: face up
        d["ammo_on"] = s.get("ammo_on", len(s.get("ammo_cards") or []))  # ammo side up: a count
        if not owner and not s.get("red"):
            d["card"] = None  # slot cards lie face down
        for k in ("battle", "exhausted"):
            if k in s:
                d[k] = [[c if up else None, up] for c, up in s[k]] if k == "battle" else s[k]
        out.append(d)
    return out


def shown_total_strength(
    state: MatchState, seat: int, player: Any, shown_slots: list[Mapping[str, Any]] | None
) -> int:
    """ "Total Strength" of ``seat`` as its board is shown: the result's score once the match
    has one (it may add A.I.Lien cards in hand, revealed at the A.I.Pokalypse), else the
    sum of its units' strengths (no temporary strength): the live ``player``'s, or those of
    the last revealed board (``shown_slots``); so the board's total equals the result's."""
    result = state.result
    if result:
        scores = result.get("scores") or []
        if seat < len(scores):
            return scores[seat]
        toma = result.get("toma")
        if toma and toma_mod.toma_seat(state) == seat:
            return toma["strength"]
    if shown_slots is None:
        return total_strength(player)
    return sum(shown_strength(s) for s in shown_slots)


def _seat_view(state: MatchState, seat: int, viewer: int | None) -> dict[str, Any]:
    """The board of ``seat`` as ``viewer`` may see it (module doc): the health stack as a
    count only, its order hidden from everyone, the owner included. RULINGS R-HEALTH-PRIVATE."""
    p = state.players[seat]
    own = viewer == seat
    revealed = state.factions_revealed or own
    # Only the Recruitment Phase is private (its seat events carry ``hidden``): in every other
    # phase each event is public at its version, so the board is shown as it is (e.g. Deep
    # Core's start-of-game Red Slot at the version of its RedSlotPlaced, ruling R-VIEW-VERSION)
    live = own or state.phase != "recruitment"
    public = p.public or {}
    view: dict[str, Any] = {
        "seat": seat,
        "faction": p.faction if revealed else None,
        "extra_factions": list(p.extra_factions)
        if live
        else list(public.get("extra_factions", [])),
        # before the first reveal the others know what Game Setup dealt: 6 cards, 6 health
        "hand_count": len(p.hand) if live else public.get("hand", HAND_SIZE),
        "health_count": len(p.health) if live else public.get("health", HEALTH_POINTS),
        "pool": list(p.pool) if live else list(public.get("pool", [])),
        "ammo": len(p.ammo) if live else public.get("ammo", 0),
        "slots": _slots(p.slots, own) if live else _shown_slots(public.get("slots", [])),
        "ready": p.ready,
        "eliminated": p.eliminated,
        "score": p.score,
        "packet_count": len(p.packet),
        "drafted_count": len(p.drafted),
        # Venus Colony's A.I.Lien lies face up (recruiting it is a private Recruitment move)
        "colony": p.colony if live else (public.get("colony") if p.public else p.colony_seen),
        "tucked_count": {k: len(v) for k, v in p.tucked.items()} if live else {},
        "megaton_count": len(p.megaton) if live else public.get("megaton", 0),
        "battle_stack": len(p.stack),
        "current": dump_fight(p.current),
        "beside": [[c if up else None, up] for c, up in p.beside],
        "total_strength": shown_total_strength(
            state, seat, p, None if live else public.get("slots", [])
        ),
    }
    if own:
        view.update(
            hand=list(p.hand),
            offered=list(p.offered),
            offer=list(p.offer),
            stash=list(p.stash),
            guess=p.guess,
            packet=list(p.packet),
            drafted=list(p.drafted),
            tucked={k: list(v) for k, v in p.tucked.items()},
            megaton=list(p.megaton),
        )
    return view


def _choice_view(state: MatchState, viewer: int | None) -> dict[str, Any] | None:
    """The open effect decision: its chooser sees the options; the others only who decides
    (and, outside the private Recruitment Phase, what kind of decision it is).

    RULINGS R-CHOICE-PRIVACY.
    """
    choice = state.choice
    if not choice:
        return None
    if viewer == choice["seat"]:
        return {
            "seat": choice["seat"],
            "kind": choice["kind"],
            "prompt": choice["prompt"],
            "options": list(choice["options"]),
            "decline": choice.get("decline"),
        }
    if state.phase == "recruitment" or (state.phase == "faction" and not state.factions_revealed):
        return {"seat": choice["seat"]}  # a kind could name a hidden board change or faction
    return {"seat": choice["seat"], "kind": choice["kind"]}


def view(state: MatchState, viewer: int | None) -> dict[str, Any]:
    """The table as ``viewer`` (a seat, or ``None`` for a spectator) may see it.

    RULINGS R-VIEW-VERSION.
    """
    table: dict[str, Any] = {
        "discard": list(state.discard),
        "draw": len(state.draw),
        "specials": len(state.specials),
        "ammo_deck": len(state.ammo_deck),
    }
    if state.phase == "recruitment" and state.table_public is not None:
        table = state.table_public  # shared piles as of the start of the phase
    return {
        "phase": state.phase,
        "round": state.round,
        "sudden_death": state.sudden_death,
        "mode": state.mode,
        "second_copy": bool(state.second_copy),
        "toma": toma_mod.view(state),
        "apocalypse": state.apocalypse,
        "draw_pile": table["draw"],
        "discard_pile": list(table["discard"]),
        "specials_deck": table["specials"],
        "ammo_deck": table["ammo_deck"],
        "battle": dump_battle(state.battle),
        "strengths": {str(k): v for k, v in strengths(state).items()}
        if state.phase == "battle"
        else {},
        "result": state.result,
        "viewer": viewer,
        "choice": _choice_view(state, viewer),
        "table_factions": list(state.players[0].table_factions),
        "seats": [_seat_view(state, s, viewer) for s in range(state.n)],
    }


HIDDEN_MOVE_TYPE = batching.HIDDEN_MOVE_TYPE


def redact_type(event: Event, viewer: int | None, state: Any = None) -> str:
    """The envelope type ``viewer`` may see: another seat's hidden Recruitment event
    (``hidden`` in its data, see :data:`.context.PUBLIC_IN_RECRUITMENT`) is shown as the
    neutral :data:`HIDDEN_MOVE_TYPE`, so not even the kind of the move leaks (RULINGS
    R-PRIVACY); every other event keeps its type."""
    if event.type == batching.BATCH_TYPE:  # one hidden command, one event (R-HIDDEN-BATCH)
        return batching.redact_batch(event, viewer, redact, redact_type)[0]
    if event.data.get("hidden") and not (
        viewer is not None and viewer in (event.seat, event.data.get("to"))
    ):
        return HIDDEN_MOVE_TYPE  # (AmmoGiven: the receiving partner sees it too)
    return event.type


def redact(event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
    """``event.data`` as ``viewer`` may see it (see module doc). RULINGS R-PRIVACY."""
    if event.type == batching.BATCH_TYPE:
        return batching.redact_batch(event, viewer, redact, redact_type)[1]
    d = dict(event.data)
    t = event.type
    own = viewer is not None and viewer == event.seat
    if t == "MatchStarted":
        toma = d.get("toma")
        return {
            "n": d["n"],
            "mode": d["mode"],
            "second_copy": bool(d.get("second_copy")),
            "toma": (
                {
                    "difficulty": toma["difficulty"],
                    "health": len(toma["health"]),
                    "piles": [list(p) for p in toma["piles"]],
                    "ignored": list(toma["ignored"]),
                }
                if toma
                else None
            ),
            "offered": [o if viewer == s else len(o) for s, o in enumerate(d["offered"])],
            "hands": [h if viewer == s else len(h) for s, h in enumerate(d["hands"])],
            "health": [len(h) for h in d["health"]],
            "draw": len(d["draw"]),
            "specials": len(d["specials"]),
            "ammo_deck": len(d["ammo_deck"]),
            "expert": bool(d.get("expert")),
            "table_factions": list(d.get("table_factions", [])),
            "packets": [k if viewer == s else len(k) for s, k in enumerate(d.get("packets", []))],
        }
    if t == "AmmoGiven" and viewer == d.get("to"):
        return {"to": d["to"], "count": 1}  # the partner learns it got one (not which faction)
    if d.get("hidden") and not own:
        return {"hidden": True}
    if t in ("SecondCopyAmmoAdded", "AmmoGiven"):
        return {k: v for k, v in d.items() if k != "cards" and k != "card"} | {
            "count": len(d.get("cards", [1]))
        }
    if t == "ChoiceRequested":  # the held command and its seed never leave the server
        return (
            {
                "kind": d["kind"],
                "prompt": d["prompt"],
                "options": list(d["options"]),
                **({"decline": d["decline"]} if "decline" in d else {}),
            }
            if own
            else {"kind": d["kind"]}
        )
    if t == "ChoiceMade" and not own:
        return {"kind": d["kind"]}
    if t == "HealthStackFormed" and (d.get("shuffled") or not own):
        return {"count": len(d["cards"])}  # face down: a shuffled order is nobody's to see
    if t == "HandCardTaken" and not (own or viewer == d["from_seat"]):
        return {"from_seat": d["from_seat"]}  # a hand card: only the two seats see which
    if t == "CardTucked" and not own:
        return {"under": d["under"]}  # the card lies face down under the pool card
    if t == "AmmoGained":
        return {"count": len(d["cards"])}  # ammo lies ammo side up: faction faces stay hidden
    if t in ("DrawPileReshuffled", "SpecialsShuffled"):
        return {"count": len(d["order"])}
    if t == "CardsDrawn" and (d["to"] == "stack" or not own):
        return {"count": len(d["cards"]), "to": d["to"]}
    if t == "UnitExhausted":
        return {"slot": d["slot"], "card": None}
    if t == "RedSlotExchanged" and not own:
        d["card"] = None
    if t == "FactionChosen" and not own:
        return {}
    if t == "SpecialGained" and d["to"] in ("hand", "health") and not own:
        return {"to": d["to"]}
    if t == "SpecialTaken" and d["from"] == "health" and not own:
        return {"from": "health"}
    if t in _OWNER_ONLY and not own:
        return {"count": len(d.get("cards", []))} if "cards" in d else {}
    if t == "SpecialsOffered" and own:
        return {"cards": d["cards"], "source": d["source"]}
    if t == "SlotOpened" and not own:
        d["card"] = None
    if t == "BoardsRevealed":
        d["boards"] = {
            k: dict(b, slots=_shown_slots(b["slots"], viewer == int(k)))
            for k, b in d["boards"].items()
        }
    return d
