"""Hidden information (DESIGN "Hidden information", ruling R-HIDDEN): for every event and
view of seeded full matches, a seat never sees another seat's hand, reserve, dealt or
face-down cards, nor the deck order; spectators see none of them."""

from __future__ import annotations

from typing import Any

import pytest

from .test_flow_support import E, play_match


def strings(obj: Any) -> set[str]:
    """Every string value (and key) in a JSON-like object."""
    out: set[str] = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(str(k))
            out |= strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= strings(v)
    return out


def hidden_from(state, viewer, public: set[str]) -> set[str]:
    """Card ids ``viewer`` must not see now: other seats' hands, reserves, dealt cards and
    placement choices, and the deck - minus cards that were public once (in a tableau)."""
    secret = set(state.deck)
    for seat, s in enumerate(state.seats):
        if seat == viewer:
            continue
        secret |= set(s.hand) | set(s.reserve) | set(s.dealt)
        if s.choice and "card" in s.choice and s.choice.get("type") in (None, "exchange_reserve"):
            secret.add(s.choice["card"])
    return secret - public


class Checker:
    def __init__(self, seats: int):
        self.seats = seats
        self.public: set[str] = set()
        self.checked_events = 0
        self.own_cards_seen = 0

    def __call__(self, event, state):
        for s in state.seats:
            self.public |= set(s.tableau.values())
        viewers = [None, *range(self.seats)]
        for viewer in viewers:
            secret = hidden_from(state, viewer, self.public)
            red = E.redact(event, viewer, state)
            leaked = strings(red) & secret
            assert not leaked, (event.type, viewer, leaked)
            assert "order" not in red
            v = E.view(state, viewer)
            leaked = strings(v) & secret
            assert not leaked, ("view", event.type, viewer, leaked)
            for seat, public_seat in enumerate(v["seats"]):
                if seat != viewer and not state.seats[seat].ai_revealed:
                    assert public_seat["ai_card"] is None
            if event.type == "AISideChosen" and viewer != event.seat:
                assert red == {}
            if viewer is not None and event.seat == viewer and event.type == "CardsDealt":
                assert red["cards"] == list(event.data["cards"])  # the owner does see them
                self.own_cards_seen += 1
            if viewer is not None:
                you = v["you"]
                assert you["hand"] == state.seats[viewer].hand
                assert you["reserve"] == state.seats[viewer].reserve
            else:
                assert v["you"] is None
        self.checked_events += 1


@pytest.mark.parametrize(
    "seats, seed, bots",
    [
        (3, 101, "random"),
        (4, 202, "greedy"),
        (5, 303, ["random", "greedy"] * 3),
        (6, 404, "random"),
        (6, 505, "greedy"),
    ],
)
def test_no_view_or_event_shows_another_seats_private_cards(seats, seed, bots):
    check = Checker(seats)
    state, events = play_match(
        seats, seed, bots if isinstance(bots, str) else bots[:seats], on_event=check
    )
    assert check.checked_events == len(events)
    assert check.own_cards_seen == 4 * seats  # 2 reserve deals + 2 hand deals per seat


def test_powers_and_draws_are_redacted_to_counts():
    from domain.engine import Event

    power = Event(
        "AIPowerUsed",
        {
            "power": "draw_two",
            "ai_card": "AI-6",
            "drawn": ["061", "063"],
            "discarded": ["031", "035"],
        },
        0,
    )
    assert E.redact(power, 1) == {
        "power": "draw_two",
        "ai_card": "AI-6",
        "drawn_count": 2,
        "discarded_count": 2,
    }
    assert E.redact(power, 0) == dict(power.data)
    drawn = Event("CardsDrawn", {"cards": ["041"], "reason": "117"}, 2)
    assert E.redact(drawn, None) == {"count": 1, "reason": "117"}
    shuffle = Event("DeckShuffled", {"phase": 1, "reason": "phase", "order": ["001", "002"]})
    assert E.redact(shuffle, 0) == {"phase": 1, "reason": "phase", "count": 2}
    chosen = Event("PlacementChosen", {"card": "001", "cell": [1, 1]}, 1)
    assert E.redact(chosen, 0) == {} and E.redact(chosen, 1) == {"card": "001", "cell": [1, 1]}
    drafted = Event("CardDrafted", {"card": "001", "forced": False}, 1)
    assert E.redact(drafted, 2) == {"forced": False}


def test_view_shows_who_decided_but_not_what():
    from .test_flow_support import given, run, state_of

    state = state_of(
        given(
            step="place",
            hands={0: ["031", "033"], 1: ["035", "037"], 2: ["039", "041"]},
            reserves={0: ["019", "021"], 1: ["023", "025"], 2: ["027", "029"]},
        )
    )
    state, _ = run(state, [(0, {"type": "place", "card": "019", "cell": [1, 1]})])
    other = E.view(state, 1)
    assert [s["decided"] for s in other["seats"]] == [True, False, False]
    assert "019" not in strings(other)
    own = E.view(state, 0)
    assert own["you"]["choice"] == {"card": "019", "cell": [1, 1]}
    assert [s["reserve_count"] for s in other["seats"]] == [2, 2, 2]
