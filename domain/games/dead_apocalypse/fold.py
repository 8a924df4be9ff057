"""``evolve``: fold one event into the state. Total and deterministic (no RNG, no I/O).

Each handler moves cards exactly as the event says; shuffles and draws carry their
outcomes (``order``, ``cards``), so replaying the log never needs the seed. The fold is
total over the handlers of :data:`HANDLERS` (:class:`domain.modular.FoldHandlers`): an
unknown event type, or a first event other than ``MatchStarted``, raises ``ValueError``
(a corrupt or foreign log, not a rule violation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine import Event
from domain.modular import FoldHandlers

from .cards import catalogue
from .conditions import refresh
from .state import MatchState, SeatState, new_help

Handler = Callable[[MatchState, dict[str, Any], "int | None"], None]
HANDLERS = FoldHandlers("Dead Apocalypse")
_on: Callable[[str], Callable[[Handler], Handler]] = HANDLERS.on


def evolve(state: MatchState | None, event: Event) -> MatchState:
    """Apply ``event`` to ``state`` (``None`` only before ``MatchStarted``); returns the state.
    Raises ValueError for an unknown event type or a first event other than MatchStarted."""
    data = dict(event.data)
    if event.type == "MatchStarted":
        cat = catalogue()
        return MatchState(
            seat_count=data["seats"],
            options=dict(data["options"]),
            first_seat=data["first_seat"],
            active=data["first_seat"],
            seats=[SeatState() for _ in range(data["seats"])],
            infection_stack=cat.stack_instances("infection"),
            adept_stack=cat.stack_instances("adept"),
            help=new_help(),
        )
    HANDLERS.handler(state, event)(state, data, event.seat)
    assert state is not None  # handler() raised for an event before MatchStarted
    if state.damage:
        refresh(state)  # conditions are read when damage is spent (R-CONDITION)
    return state


def _pop_top(stack: list[str], card: str) -> None:
    top = stack.pop(0)
    assert top == card, f"expected {card} on top, found {top}"


@_on("DeckShuffled")
def _deck_shuffled(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    if d["reason"] == "reshuffle":
        assert sorted(me.discard) == sorted(d["order"]), "a reshuffle takes the whole discard pile"
        me.discard = []
    me.deck = list(d["order"]) + me.deck


@_on("ZombieStackFormed")
def _zombie_stack(s: MatchState, d: dict, seat: int | None) -> None:
    s.zombie_stack = list(d["order"])


@_on("ResourceStackFormed")
def _resource_stack(s: MatchState, d: dict, seat: int | None) -> None:
    s.resource_stack = list(d["order"])


@_on("ZombieStackReformed")
@_on("ResourceStackReformed")
def _stack_reformed(s: MatchState, d: dict, seat: int | None) -> None:
    taken = set(d["order"])
    s.ditch = [c for c in s.ditch if c not in taken]
    if "zombie" in d["stack"]:
        s.zombie_stack = s.zombie_stack + list(d["order"])
    else:
        s.resource_stack = s.resource_stack + list(d["order"])


@_on("CardsDrawn")
def _drawn(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    for card in d["cards"]:
        _pop_top(me.deck, card)
        me.hand.append(card)


@_on("TurnStarted")
def _turn_started(s: MatchState, d: dict, seat: int | None) -> None:
    s.active, s.turn = d["seat"], d["turn"]
    s.damage, s.attackers, s.repeat_used = [], [], []
    s.help, s.prompt, s.defeated = new_help(), None, 0


@_on("ResourceRevealed")
def _resource_revealed(s: MatchState, d: dict, seat: int | None) -> None:
    _pop_top(s.resource_stack, d["card"])
    s.resource_row[d["column"]] = d["card"]


@_on("ZombieRevealed")
def _zombie_revealed(s: MatchState, d: dict, seat: int | None) -> None:
    _pop_top(s.zombie_stack, d["card"])
    s.zombie_row[d["column"]] = d["card"]


@_on("EventRevealed")
def _event_revealed(s: MatchState, d: dict, seat: int | None) -> None:
    _pop_top(s.zombie_stack, d["card"])
    s.events_aside.append(d["card"])


@_on("CdcRevealed")
def _cdc_revealed(s: MatchState, d: dict, seat: int | None) -> None:
    _pop_top(s.zombie_stack, d["card"])
    if d["ditched"] is not None:
        s.ditch.append(d["ditched"])
    s.resource_row[d["column"]] = d["card"]


@_on("HumansStoodUp")
def _stood_up(s: MatchState, d: dict, seat: int | None) -> None:
    for loc in s.seats[d["seat"]].locations:
        for occ in loc["occupants"]:
            occ["upright"] = True


@_on("ZombiesAttacked")
def _attacked(s: MatchState, d: dict, seat: int | None) -> None:
    s.attackers = list(d["columns"])


@_on("DamageGained")
def _damage(s: MatchState, d: dict, seat: int | None) -> None:
    s.damage.append(
        {
            k: d[k]
            for k in (
                "seat",
                "source",
                "title",
                "kind",
                "faction",
                "amount",
                "ally",
                "cond",
                "spent",
            )
            if k in d
        }
    )


@_on("InfectionGained")
def _infection(s: MatchState, d: dict, seat: int | None) -> None:
    s.infection_stack.remove(d["card"])
    s.seats[d["seat"]].discard.append(d["card"])


@_on("ResourceStackDitched")
def _stack_ditched(s: MatchState, d: dict, seat: int | None) -> None:
    for card in d["cards"]:
        _pop_top(s.resource_stack, card)
        s.ditch.append(card)


@_on("ResourceRowDitched")
def _row_ditched(s: MatchState, d: dict, seat: int | None) -> None:
    assert s.resource_row[d["column"]] == d["card"]
    s.resource_row[d["column"]] = None
    s.ditch.append(d["card"])


@_on("CardDiscarded")
def _discarded(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    me.hand.remove(d["card"])
    me.discard.append(d["card"])


@_on("CardDitched")
def _ditched(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    zone = {"hand": me.hand, "discard": me.discard, "played": me.played}.get(d["from"])
    if d["from"] == "deck":
        _pop_top(me.deck, d["card"])
    else:
        assert zone is not None, d["from"]  # "hand", "discard", "played" or "deck"
        zone.remove(d["card"])
    (s.infection_stack if d["to"] == "infection_stack" else s.ditch).append(d["card"])


@_on("LocationDitched")
def _location_ditched(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    me.locations = [loc for loc in me.locations if loc["card"] != d["card"]]
    s.ditch.append(d["card"])
    me.discard.extend(d["occupants"])


@_on("InfectionCured")
def _cured(s: MatchState, d: dict, seat: int | None) -> None:
    s.seats[d["seat"]].hand.remove(d["card"])
    s.infection_stack.append(d["card"])


@_on("CardPlayed")
def _played(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    me.hand.remove(d["card"])
    if catalogue().of(d["card"]).kind == "location":
        me.locations.append({"card": d["card"], "occupants": []})
    else:
        me.played.append(d["card"])


@_on("HumanOccupied")
def _occupied(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    me.hand.remove(d["card"])
    loc = next(loc for loc in me.locations if loc["card"] == d["location"])
    loc["occupants"].append({"card": d["card"], "upright": d["upright"]})


@_on("RepeatUsed")
def _repeat_used(s: MatchState, d: dict, seat: int | None) -> None:
    s.repeat_used.append(d["card"])


@_on("PromptOpened")
def _prompt_opened(s: MatchState, d: dict, seat: int | None) -> None:
    s.prompt = dict(d["prompt"])


@_on("PromptClosed")
def _prompt_closed(s: MatchState, d: dict, seat: int | None) -> None:
    s.prompt = None


@_on("HelpCalled")
def _help_called(s: MatchState, d: dict, seat: int | None) -> None:
    s.help = {"called": True, "queue": list(d["queue"]), "assisting": None, "assisted": []}


@_on("HelpAnswered")
def _help_answered(s: MatchState, d: dict, seat: int | None) -> None:
    assert s.help["queue"][0] == d["seat"]
    s.help["queue"].pop(0)
    if d["assist"]:
        s.help["assisting"] = d["seat"]
        s.help["assisted"].append(d["seat"])


@_on("AssistEnded")
def _assist_ended(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    for card in d["discarded"]:
        me.played.remove(card)
        me.discard.append(card)
    s.help["assisting"] = None


@_on("ZombieDefeated")
def _defeated(s: MatchState, d: dict, seat: int | None) -> None:
    col = d["column"]
    assert s.zombie_row[col] == d["card"]
    s.zombie_row[col] = None
    s.ditch.append(d["card"])
    for index, amount in d["spent"]:
        s.damage[index]["amount"] -= amount
        if s.damage[index].get("cond"):
            s.damage[index]["spent"] += amount
    if col in s.attackers:
        s.attackers.remove(col)
    s.defeated += 1


@_on("CardGained")
def _gained(s: MatchState, d: dict, seat: int | None) -> None:
    card = d["card"]
    if d["from"] == "resource_row":
        assert s.resource_row[d["column"]] == card
        s.resource_row[d["column"]] = None
    else:
        s.adept_stack.remove(card)
    s.seats[d["seat"]].discard.append(card)
    if card == "cdc#1":
        s.cdc_holder = d["seat"]


@_on("TurnEnded")
def _turn_ended(s: MatchState, d: dict, seat: int | None) -> None:
    me = s.seats[d["seat"]]
    for card in d["discarded"]:
        (me.hand if card in me.hand else me.played).remove(card)
        me.discard.append(card)


@_on("EventsDitched")
def _events_ditched(s: MatchState, d: dict, seat: int | None) -> None:
    for card in d["cards"]:
        s.events_aside.remove(card)
        s.ditch.append(card)


@_on("SeatResigned")
def _resigned(s: MatchState, d: dict, seat: int | None) -> None:
    """RULINGS R-RESIGN: the seat's timeout bot plays on."""
    s.resigned.append(d["seat"])


@_on("MatchEnded")
def _ended(s: MatchState, d: dict, seat: int | None) -> None:
    s.result = {
        k: d[k] for k in ("outcome", "reason", "scores", "ranking", "winners", "resigned") if k in d
    }
    s.prompt = None
