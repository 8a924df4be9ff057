"""The hidden-information checker (tests/support/leaks.py) on A.I.Pokalypse's
``RecruitmentMoves`` batches: each inner event is the knowledge of its own seat, and a
real leak — in an answer or in a seat's own event — is still caught.

The e2e report it settles ("new events to seat 2: ['card B073', 'card B091', ...]", about
1 run in 6): the automatic batch opening a Recruitment Phase (envelope seat ``None``) held
a seat's own ``CardsMilled`` (a search — Shadow Fortress, Roko's Basilisk, Enclave M87 —
draws until a card of a kind turns up and discards the others: shown to the searching seat
only, while the discard pile the others see stays as the phase began).
The checker credited a batch to its envelope seat, so the searching seat's own cards
counted as another's secret; the server's answer was right.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.engine import Event, Setup, derive_rng
from domain.games.aipokalypse import ENGINE
from tests.support.leaks import Knowledge

SEATS = 3
SECRET = b"leak-checker"


def _envelope(event: Event, version: int) -> dict[str, Any]:
    return {**event.to_dict(), "version": version}


def _to_recruitment(engine: Any = ENGINE) -> Knowledge:
    """A 3-seat match played with seeded random legal actions until its first Recruitment
    Phase, folded into a :class:`Knowledge`."""
    rng = random.Random(7)
    events = ENGINE.new_match(
        Setup(SEATS, ENGINE.validate_options(SEATS, {})), derive_rng(SECRET, 0)
    )
    knowledge = Knowledge(engine, SEATS)
    knowledge.advance([_envelope(e, i + 1) for i, e in enumerate(events)])
    while knowledge.state.phase != "recruitment":
        seat = rng.choice(sorted(ENGINE.pending(knowledge.state)))
        command = rng.choice(ENGINE.legal_actions(knowledge.state, seat))
        new = ENGINE.decide(knowledge.state, seat, command, derive_rng(SECRET, knowledge.version))
        knowledge.advance([_envelope(e, knowledge.version + 1 + i) for i, e in enumerate(new)])
    return knowledge


def _milled_by_seat_0(knowledge: Knowledge) -> tuple[Event, str]:
    """An automatic batch (envelope seat ``None``) in which seat 0 mills the draw pile's top."""
    top = knowledge.state.draw[0]
    batch = Event(
        "RecruitmentMoves",
        {
            "hidden": True,
            "events": [
                {"type": "CardsMilled", "seat": 0, "data": {"cards": [top], "hidden": True}}
            ],
        },
        None,
    )
    return batch, top


def test_a_seats_own_event_inside_an_automatic_batch_is_its_knowledge():
    knowledge = _to_recruitment()
    batch, top = _milled_by_seat_0(knowledge)
    assert top in knowledge.forbidden(0)  # face down in the draw pile until now
    knowledge.advance([_envelope(batch, knowledge.version + 1)])
    to_seat_0 = {
        "events": [
            {
                "type": ENGINE.redact_type(batch, 0),
                "seat": None,
                "data": ENGINE.redact(batch, 0, knowledge.state),
            }
        ]
    }
    assert top in str(to_seat_0)  # seat 0 was shown the card it milled ...
    assert knowledge.leaks(to_seat_0, 0) == []  # ... and knows it
    # the others see the discard pile as the phase began: the card is still secret to them
    assert top in knowledge.forbidden(1) and top in knowledge.forbidden(None)


def test_seat_0s_milled_card_in_an_answer_to_another_seat_is_a_leak():
    knowledge = _to_recruitment()
    batch, top = _milled_by_seat_0(knowledge)
    knowledge.advance([_envelope(batch, knowledge.version + 1)])
    leaked = {
        "events": [
            {
                "type": "RecruitmentMoves",
                "seat": None,
                "data": ENGINE.redact(batch, 0, knowledge.state),
            }
        ]
    }  # seat 0's copy
    assert knowledge.leaks(leaked, 1) == [f"card {top}"]
    assert knowledge.leaks(leaked, None) == [f"card {top}"]
    # what the server really sends seat 1 and a spectator shows nothing of it
    for viewer in (1, None):
        assert (
            knowledge.leaks(
                {
                    "data": ENGINE.redact(batch, viewer, knowledge.state),
                    "type": ENGINE.redact_type(batch, viewer),
                },
                viewer,
            )
            == []
        )


class _PeekingEngine:
    """ENGINE whose redaction of a ``CardsMilled`` also shows seat 1's hand to its owner."""

    def __getattr__(self, name: str) -> Any:
        return getattr(ENGINE, name)

    def redact(self, event: Event, viewer: int | None, state: Any = None) -> dict[str, Any]:
        data = ENGINE.redact(event, viewer, state)
        if event.type == "CardsMilled" and state is not None:
            data = {**data, "peek": list(state.players[1].hand)}
        return data


def test_another_seats_hand_in_a_seats_own_event_inside_a_batch_is_caught():
    knowledge = _to_recruitment(_PeekingEngine())
    assert knowledge.state.players[1].hand
    batch, _ = _milled_by_seat_0(knowledge)
    with pytest.raises(
        AssertionError, match=r"seat 0's own v\d+ RecruitmentMoves \(CardsMilled\) shows"
    ):
        knowledge.advance([_envelope(batch, knowledge.version + 1)])
