"""Hidden information in the 2-player and solo modes (R-HIDDEN-MODES, R-DUO-DISCARD,
R-DUO-DRAW, R-SOLO-SETUP): the discarded card and the drawn card stay with their seat;
no view or redacted event shows the deck order or the solo timer stack."""

from __future__ import annotations

import pytest

from domain.engine import Event

from .test_flow_support import E, play_match, run, state_of
from .test_hidden_info import strings
from .test_mode_duo import NEUTRAL
from .test_mode_support import given_duo


def test_discard_and_draw_are_private_to_their_seat():
    hands = {
        0: ["001", "005", "007", "009", "011", "013", "015"],
        1: ["017", "025", "027", "029", "031", "035", "037"],
    }
    state = state_of(
        given_duo(
            neutral=NEUTRAL,
            hands=hands,
            reserves={0: ["047"], 1: ["049"]},
            deck=["021", "023", "039"],
        )
    )
    state, _ = run(
        state, [(0, {"type": "draft", "card": "015"}), (1, {"type": "draft", "card": "037"})]
    )
    state, events = run(
        state, [(0, {"type": "discard", "card": "001"}), (1, {"type": "discard", "card": "017"})]
    )
    discard = next(e for e in events if e.type == "CardDiscarded" and e.seat == 0)
    draw = next(e for e in events if e.type == "CardsDrawn" and e.seat == 0)
    assert E.redact(discard, 0, state) == {"card": "001", "forced": False}
    assert E.redact(draw, 0, state)["cards"] == ["021"]
    for viewer in (1, None):
        assert E.redact(discard, viewer, state) == {"forced": False}
        assert E.redact(draw, viewer, state) == {"count": 1, "reason": "draft_draw", "to": "hand"}
        seen = strings(E.view(state, viewer))
        assert not seen & {"001", "021", "015", "005"}, viewer  # seat 0's discard/draw/cards
    assert "021" in E.view(state, 0)["you"]["hand"]
    assert E.view(state, 1)["seats"][0]["hand_count"] == 6


class Checker:
    """After every event, no viewer's redacted event or view names a card it must not
    know: other seats' hands/reserves/dealt cards/choices, discards, the deck, the timer."""

    def __init__(self, seats: int):
        self.seats = seats
        self.public: set[str] = set()
        self.discarded: dict[int, set[str]] = {s: set() for s in range(seats)}
        self.checked = 0

    def __call__(self, event: Event, state) -> None:
        for s in state.seats:
            self.public |= set(s.tableau.values())
        self.public |= set(state.neutral.values()) | set(state.grid.values())
        if event.type == "CardDiscarded":
            self.discarded[event.seat].add(event.data["card"])
        for viewer in [None, *range(self.seats)]:
            secret = set(state.deck) | set(state.timer)
            for seat, s in enumerate(state.seats):
                if seat != viewer:
                    secret |= set(s.hand) | set(s.reserve) | set(s.dealt) | self.discarded[seat]
                    if (
                        s.choice
                        and s.choice.get("card")
                        and s.choice.get("type") in (None, "exchange_reserve")
                    ):
                        secret.add(s.choice["card"])
            secret -= self.public
            red = E.redact(event, viewer, state)
            assert not strings(red) & secret, (event.type, viewer, strings(red) & secret)
            assert "order" not in red
            view = E.view(state, viewer)
            assert not strings(view) & secret, ("view", event.type, viewer)
            self.checked += 1


@pytest.mark.parametrize("seats, seed", [(2, 1), (2, 2), (1, 3), (1, 4)])
def test_full_matches_leak_nothing(seats, seed):
    check = Checker(seats)
    state, events = play_match(seats, seed, bots="random", on_event=check)
    assert E.result(state) is not None and check.checked == len(events) * (seats + 1)
    if seats == 1:
        formed = [e for e in events if e.type == "TimerStackFormed"]
        assert [E.redact(e, 0, state) for e in formed] == [
            {"phase": 1, "count": 18},
            {"phase": 2, "count": 18},
        ]
