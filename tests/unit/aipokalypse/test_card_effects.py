"""One test per card effect: the card's effect changes the game compared with a control card
in the same situation (concrete situations in ``probes.py``), plus concrete before/after
values for the cards the rulebook's card notes name."""

from __future__ import annotations

import pytest

from tests.unit.aipokalypse.helpers import CAT
from tests.unit.aipokalypse.probes import control_for, outcome, probe_for

TIE_PROBES = {"Last Light"}  # only acts on a tie
DEDICATED = {
    "Droid Army": "test_rules_battle.py::test_droid_army_refunds_ammo_of_a_mech_that_lost",
    # their effect is a decision the default (a timeout) does not take:
    "Illusionists": "test_choices.py::test_illusionists_let_a_weaker_unit_lose_the_point_instead",
    "Kollektah": "test_choices.py::test_kollektah_keeps_cards_under_a_pool_unit_until_it_is_recruited",
    # a faction discarded itself: no other faction can be discarded as a control
    "Fallout Boyz": "test_exact_notes.py::test_fallout_boyz_is_no_round_bonus_but_its_faction_card_can_be_discarded",
    # needs cards loaded in an earlier Recruitment Phase
    "Megaton": "test_exact_notes.py::test_megaton_boom_uses_only_the_loaded_cards",
}


@pytest.mark.parametrize("cid", [c for c in CAT.cards if CAT[c].name not in DEDICATED])
def test_card_effect_is_not_a_no_op(cid):
    card = CAT[cid]
    probe = probe_for(cid)
    tie = card.name in TIE_PROBES
    mine = outcome(cid, probe, tie)
    control = outcome(control_for(cid, probe), probe, tie)
    assert mine != control, f"{cid} {card.name} ({probe}) changed nothing"
