"""``evolve``: fold one event into the match state (total, deterministic, no randomness).

One handler per event type (:class:`domain.modular.FoldHandlers`, shared by every game),
and the fold is total over them (docs/CONTRACTS.md "Fold"): the first event must be
``MatchStarted`` and an event type without a handler raises ``ValueError`` (a corrupt or
foreign log, not a rule violation).
Every random outcome (shuffle order, dealt and drawn cards) is read from the event itself.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Event
from domain.modular import FoldHandlers

from .roles import COPY_POINTS, DRAW_TWO, EXCHANGE_TWO, role
from .state import MatchState, SeatState, breakdown, cell, vp_source
from .tableau import AI_POS

HANDLERS = FoldHandlers("AI: 100% Human")
_on = HANDLERS.on


def evolve(state: MatchState | None, event: Event) -> MatchState:
    """Apply ``event`` to ``state`` (mutated and returned); ``None`` before ``MatchStarted``.

    Raises ValueError when the first event is not ``MatchStarted``, or for an event type
    this game does not know."""
    if event.type == "MatchStarted":
        d = event.data
        return MatchState(
            seat_count=d["seats"],
            options=dict(d["options"]),
            objectives=dict(d["objectives"]),
            mode=d.get("mode", "standard"),
            seats=[SeatState() for _ in range(d["seats"])],
        )
    HANDLERS.handler(state, event)(state, event)
    assert state is not None  # handler() raised for an event before MatchStarted
    return state


def _seat(state: MatchState, event: Event) -> SeatState:
    assert event.seat is not None  # an event of one seat
    return state.seats[event.seat]


@_on("AICardsDealt")
def _ai_dealt(state: MatchState, event: Event) -> None:
    for seat, pair in zip(state.seats, event.data["cards"], strict=False):
        seat.ai_pair = list(pair)


@_on("PhaseStarted")
def _phase_started(state: MatchState, event: Event) -> None:
    state.phase, state.turn, state.step = event.data["phase"], 0, "setup"
    state.tilted = []
    state.last_reveal = []
    for seat in state.seats:
        seat.done, seat.choice, seat.played, seat.need, seat.locked = False, None, None, None, None
        seat.ai6_used = False  # AI-6: "return your AI token to its active side"
        seat.ai6_discarding = False
        seat.turn_vp = 0


@_on("DeckShuffled")
def _deck_shuffled(state: MatchState, event: Event) -> None:
    state.deck = list(event.data["order"])


@_on("CardsDealt")
def _cards_dealt(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    cards = list(event.data["cards"])
    _take_from_deck(state, cards)
    if event.data["purpose"] == "reserve":
        seat.dealt = cards
    else:
        seat.hand.extend(cards)


@_on("AISideChosen")
def _ai_side(state: MatchState, event: Event) -> None:
    _seat(state, event).ai_card = event.data["card"]


@_on("ReserveKept")
def _reserve_kept(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    kept = list(event.data["kept"])
    returned = [c for c in seat.dealt if c not in kept]
    seat.reserve.extend(kept)
    seat.dealt = []
    state.deck.extend(returned)  # A.1: shuffled back by the next DeckShuffled


@_on("AISidesRevealed")
def _ai_revealed(state: MatchState, event: Event) -> None:
    for seat, card in zip(state.seats, event.data["cards"], strict=False):
        seat.ai_card, seat.ai_revealed = card, True
        seat.tableau[AI_POS] = card


@_on("StepStarted")
def _step_started(state: MatchState, event: Event) -> None:
    d = event.data
    state.phase, state.turn, state.step = d["phase"], d["turn"], d["step"]
    needs = {int(k): v for k, v in (d.get("needs") or {}).items()}
    for index, seat in enumerate(state.seats):
        seat.done, seat.choice = False, None
        if d["step"] == "draft":
            seat.played, seat.need, seat.locked, seat.turn_vp = None, None, None, 0
        if d["step"] in ("resolve", "extra"):
            seat.need = needs.get(index)


@_on("CardDrafted")
def _drafted(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    card = event.data["card"]
    seat.hand.remove(card)
    seat.reserve.append(card)
    seat.done = True


@_on("AIPowerUsed")
def _power(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    d = event.data
    if d["power"] == DRAW_TWO:  # AI-6 step 1 (R-AI6-STEPS): the draw
        _take_from_deck(state, d["drawn"])
        seat.reserve.extend(d["drawn"])
        seat.ai6_used = True
        if "discarded" in d:  # a log of the former one-step AI-6
            _discard_for_power(state, seat, d["discarded"])
        else:
            seat.ai6_discarding = True
    elif d["power"] == EXCHANGE_TWO:
        _swap(seat, cell(d["cells"][0]), cell(d["cells"][1]))
        seat.ai5_used = True


@_on("PowerCardsDiscarded")
def _power_discarded(state: MatchState, event: Event) -> None:
    """AI-6 step 2: "Then discard any 2 cards from your hand"."""
    seat = _seat(state, event)
    _discard_for_power(state, seat, event.data["cards"])
    seat.ai6_discarding = False


def _discard_for_power(state: MatchState, seat: SeatState, cards: list[str]) -> None:
    for card in cards:
        if state.mode == "solo":  # R-SOLO-AI6: discarded from the standee's line
            pos = next(p for p, c in state.grid.items() if c == card)
            del state.grid[pos]
            state.tilted.append([pos[0], pos[1]])
        else:
            seat.hand.remove(card)


@_on("HandsPassed")
def _passed(state: MatchState, event: Event) -> None:
    n = state.seat_count
    step = 1 if event.data["direction"] == "left" else -1
    hands = [s.hand for s in state.seats]
    for index, seat in enumerate(state.seats):
        seat.hand = hands[(index - step) % n]


@_on("PlacementChosen")
def _placement_chosen(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    seat.choice = {"card": event.data["card"], "cell": list(event.data["cell"])}
    seat.done = True


@_on("PlacementsRevealed")
def _revealed(state: MatchState, event: Event) -> None:
    placements = event.data["placements"]
    for p in placements:
        seat = state.seats[p["seat"]]
        seat.reserve.remove(p["card"])
        seat.tableau[cell(p["cell"])] = p["card"]
        seat.played = {"card": p["card"], "cell": list(p["cell"])}
        seat.choice = None
    state.last_reveal = [
        {"seat": p["seat"], "card": p["card"], "cell": list(p["cell"])} for p in placements
    ]


@_on("ResolutionChosen")
def _resolution(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    seat.choice = dict(event.data["command"])
    seat.done = True


@_on("ReserveExchanged")
def _reserve_exchanged(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    d = event.data
    seat.reserve.remove(d["from_reserve"])
    seat.reserve.append(d["to_reserve"])
    seat.tableau[cell(d["cell"])] = d["from_reserve"]
    seat.locked = d["to_reserve"]


@_on("TableauCardsSwapped")
def _swapped(state: MatchState, event: Event) -> None:
    a, b = event.data["cells"]
    _swap(_seat(state, event), cell(a), cell(b))


@_on("VPScored")
def _vp(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    d = event.data
    seat.score += d["vp"]
    source = vp_source(d, state.phase)
    seat.vp_by[source] = seat.vp_by.get(source, 0) + d["vp"]
    if d["reason"] == "card" and role(d["card"]) != COPY_POINTS:
        seat.turn_vp += d["vp"]


@_on("CardsDrawn")
def _drawn(state: MatchState, event: Event) -> None:
    cards = list(event.data["cards"])
    _take_from_deck(state, cards)
    seat = _seat(state, event)
    (seat.hand if event.data.get("to") == "hand" else seat.reserve).extend(cards)


@_on("ReservesDiscarded")
def _discarded(state: MatchState, event: Event) -> None:
    keep = set(event.data.get("kept_by", []))
    for index, seat in enumerate(state.seats):
        if index not in keep:
            seat.reserve = []


@_on("ExtraCardPlaced")
def _extra(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    seat.reserve.remove(event.data["card"])
    seat.tableau[cell(event.data["cell"])] = event.data["card"]
    seat.done = True


@_on("SeatResigned")
def _resigned(state: MatchState, event: Event) -> None:
    """RULINGS R-RESIGN: the seat plays on by the timeout policy and ranks last."""
    state.resigned.append(event.data["seat"])


@_on("MatchEnded")
def _ended(state: MatchState, event: Event) -> None:
    state.result = {
        k: event.data[k]
        for k in ("scores", "ranking", "winners", "rating", "outcome", "reason", "resigned")
        if k in event.data
    }
    # The score breakdown per seat and source is a projection of the folded seats, not part
    # of the event: MatchEnded keeps the shape every verified log already has (log@1/@2
    # exports re-fold to the same events).
    state.result["breakdown"] = [breakdown(s) for s in state.seats]
    state.step = "finished"
    for seat in state.seats:
        seat.done, seat.need = False, None


# ---------------------------------------------------------------- 2-player mode


@_on("NeutralGridRevealed")
def _neutral(state: MatchState, event: Event) -> None:
    for entry in event.data["cards"]:
        _take_from_deck(state, [entry["card"]])
        state.neutral[cell(entry["cell"])] = entry["card"]


@_on("CardDiscarded")
def _card_discarded(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    seat.hand.remove(event.data["card"])
    seat.done = True


# ---------------------------------------------------------------- solo mode


@_on("DividersPlaced")
def _dividers(state: MatchState, event: Event) -> None:
    state.dividers = {"rows": list(event.data["rows"]), "columns": list(event.data["columns"])}


@_on("DraftGridBuilt")
def _grid_built(state: MatchState, event: Event) -> None:
    state.grid, state.tilted = {}, []
    for entry in event.data["cards"]:
        _take_from_deck(state, [entry["card"]])
        state.grid[cell(entry["cell"])] = entry["card"]


@_on("TimerStackFormed")
def _timer(state: MatchState, event: Event) -> None:
    count = event.data["count"]
    state.timer, state.deck = state.deck[:count], state.deck[count:]


@_on("StandeeMoved")
def _standee(state: MatchState, event: Event) -> None:
    state.standee = {k: event.data[k] for k in ("color", "line", "index")}


@_on("GridCardTaken")
def _grid_taken(state: MatchState, event: Event) -> None:
    seat = _seat(state, event)
    del state.grid[cell(event.data["cell"])]
    seat.reserve.append(event.data["card"])
    state.tilted.extend([list(p) for p in event.data["tilted"]])
    seat.done = True


@_on("GridRefilled")
def _grid_refilled(state: MatchState, event: Event) -> None:
    for pos in state.tilted:
        state.grid.pop(cell(pos), None)
    state.tilted = []
    for entry in event.data["cards"]:
        state.timer.remove(entry["card"])
        state.grid[cell(entry["cell"])] = entry["card"]


@_on("DraftGridDiscarded")
def _grid_discarded(state: MatchState, event: Event) -> None:
    state.grid, state.tilted = {}, []


def _take_from_deck(state: MatchState, cards: list[str]) -> None:
    for card in cards:
        state.deck.remove(card)


def _swap(seat: SeatState, a: Any, b: Any) -> None:
    ca, cb = seat.tableau.pop(a, None), seat.tableau.pop(b, None)
    if ca is not None:
        seat.tableau[b] = ca
    if cb is not None:
        seat.tableau[a] = cb
