"""The hidden-information checker itself (tests/support/secrecy.py): what it counts as a
card id inside free text, and its one walk over an answer."""

import random
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType

from domain.games.ai_100_human.testing import SECRECY as AI_100_HUMAN
from tests.support.leaks import Knowledge, Walk, strings


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


def _recursive_walk(value, texts, lists, objects) -> None:
    """The walk's definition, written recursively (as the checker was)."""
    if isinstance(value, str):
        texts.append(value)
    elif isinstance(value, Mapping):
        if "seat" in value:
            objects.append(value)
        for key, item in value.items():
            if isinstance(key, str):
                texts.append(key)
            _recursive_walk(item, texts, lists, objects)
    elif isinstance(value, (list, tuple)):
        listed = [item for item in value if isinstance(item, str)]
        if len(listed) >= 2:
            lists.append(listed)
        for item in value:
            _recursive_walk(item, texts, lists, objects)


def _random_json(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 5 or roll < 0.4:
        return rng.choice(["AI-5", "120", "seat", "x", 3, 2.5, None, True, ""])
    if roll < 0.7:
        keys = rng.sample(["seat", "hand", "AI-7", "deck", "data", "019"], rng.randrange(4))
        made = {key: _random_json(rng, depth + 1) for key in keys}
        return MappingProxyType(made) if rng.random() < 0.2 else made
    items = [_random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    return tuple(items) if rng.random() < 0.2 else items


def test_the_iterative_walk_finds_what_the_recursive_definition_finds():
    """Walk (one iterative pass) and strings find every string, every list of two or more
    strings (in order) and every object with a "seat" of 500 random nested values (dicts,
    mappings, lists, tuples, scalars), as the recursive definition does."""
    rng = random.Random("walk")
    for _ in range(500):
        value = _random_json(rng)
        texts: list[str] = []
        lists: list[list[str]] = []
        objects: list[Mapping] = []
        _recursive_walk(value, texts, lists, objects)
        walk = Walk(value)
        assert Counter(walk.texts) == Counter(texts) == Counter(strings(value)), value
        assert sorted(walk.lists) == sorted(lists), value
        assert sorted(map(id, walk.seat_objects)) == sorted(map(id, objects)), value
