"""The hidden-information checker itself (tests/support/secrecy.py): what it counts as a
card id inside free text."""
from tests.support.secrecy import AI_100_HUMAN


def test_a_version_number_in_a_problem_detail_is_not_a_card_id():
    """A version conflict's detail names versions ("… at version 120."); AI: 100% Human's
    card ids are 3-digit numbers, and a version number must not be read as card 120."""
    detail = {"detail": "Expected version 119 but the match is at version 120."}
    assert AI_100_HUMAN.ids(detail) == set()


def test_a_card_id_in_free_text_is_still_found():
    assert AI_100_HUMAN.ids({"detail": "Card 120 is not in your hand."}) == {"120"}
    assert AI_100_HUMAN.ids({"hand": ["120", "AI-7"]}) == {"120", "AI-7"}
