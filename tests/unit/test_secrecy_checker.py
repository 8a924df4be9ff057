"""The hidden-information checker itself (tests/support/secrecy.py): what it counts as a
card id inside free text."""

from domain.games.ai_100_human.testing import SECRECY as AI_100_HUMAN
from tests.support.leaks import Knowledge


def test_a_version_number_in_a_problem_detail_is_not_a_card_id():
    """A version conflict's detail names versions ("… at version 120."); AI: 100% Human's
    card ids are 3-digit numbers, and a version number must not be read as card 120."""
    detail = {"detail": "Expected version 119 but the match is at version 120."}
    assert AI_100_HUMAN.ids(detail) == set()


def test_a_card_id_in_free_text_is_still_found():
    assert AI_100_HUMAN.ids({"detail": "Card 120 is not in your hand."}) == {"120"}
    assert AI_100_HUMAN.ids({"hand": ["120", "AI-7"]}) == {"120", "AI-7"}


def _bound_to_seat_0() -> Knowledge:
    """A Knowledge whose seat 0 keeps ``AI-5`` secretly tied to it (a chosen AI side)."""
    import re

    from tests.support.secrecy import Secrecy

    secrecy = Secrecy(
        card=re.compile(r"AI-\d{1,2}"),
        private=lambda state, seat: set(),
        unseen=lambda state: {},
        owner=lambda event: None,
        bound=lambda state, seat: {"AI-5"} if seat == 0 else set(),
    )
    return Knowledge(engine=None, seats=3, secrecy=secrecy)


def test_the_viewers_own_seat_state_on_another_seats_sse_event_does_not_tie_an_id_to_it():
    """An SSE event with ``views=true``: ``seat`` is the acting seat 0, ``seat_state`` is
    seat 1's own representation, listing the dealt AI cards; AI-5 is not shown tied to
    seat 0 (the e2e report "SSE views to seat 1: ["seat 0's AI-5"]" was the checker's)."""
    knowledge = _bound_to_seat_0()
    event = {
        "version": 8,
        "type": "AISideChosen",
        "seat": 0,
        "data": {},
        "seat_state": {"view": {"ai_cards_dealt": ["AI-5", "AI-2"]}, "legal_actions": None},
    }
    assert knowledge.leaks([event], 1) == []


def test_an_id_tied_to_its_seat_is_still_caught_in_the_event_and_inside_a_seat_state():
    knowledge = _bound_to_seat_0()
    assert knowledge.leaks({"seat": 0, "data": {"side": "AI-5"}}, 1) == ["seat 0's AI-5"]
    nested = {
        "seat": 2,
        "data": {},
        "seat_state": {"view": {"players": [{"seat": 0, "ai": "AI-5"}]}},
    }
    assert knowledge.leaks(nested, 1) == ["seat 0's AI-5"]
