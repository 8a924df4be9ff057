"""Issue 9 (rules review): counting discarded cards (Finisher, Tokamak, Patchwork, Blue Helix,
Patient Zero), Tokamak's first sentence, Faceless T, Astronomer — each with the book's value."""

from __future__ import annotations

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.spec import SCALE
from domain.games.aipokalypse.state import total_strength
from tests.unit.aipokalypse.helpers import act, hand, ids, one, put, run_flow, table, take
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def _strength(state, seat, slot):
    return SCALE[state.players[seat].slots[slot].pos]


def _module_table(*listeners, factions=None):
    """Seat 0 with ``listeners`` on slots (strength 1) and Module + 2 Snipers in hand."""
    state = table(2, factions=factions)
    slots = [put(state, 0, one(name), 0) for name in listeners]
    hand(state, 0, ids("Module", 3)[0], *ids("Sniper", 2))
    return state, slots


def _discard_module(state, more):
    """Discard Module from the hand; its effect discards ``more`` (hand card ids) or stops."""
    answers = list(more) if more else ["stop"]
    return act(state, 0, {"type": "discard", "card": ids("Module", 3)[0]}, answers=answers)


def test_finisher_counts_every_card_discarded_for_one_discard_effect():
    """Finisher: "For example, if you discard 3 cards for one discard effect (e.g. Module), the
    Finisher bonus is 3 strength." Module itself plus its 2 more cards: 1 -> 4; Module alone: 1 -> 2."""
    state, (fin,) = _module_table("Finisher")
    three, events = _discard_module(state, ids("Sniper", 2))
    assert [e.type for e in events].count("CardDiscarded") == 3
    assert _strength(three, 0, fin) == 4
    alone, _ = _discard_module(state, [])
    assert _strength(alone, 0, fin) == 2


def test_tokamak_counts_discarded_cards_like_finisher():
    """Tokamak: "discard 3 cards for a discard effect [e.g. effect of unit "Module"], the bonus
    is 3 strength"."""
    state, (tok,) = _module_table("Tokamak")
    state, _ = _discard_module(state, ids("Sniper", 2))
    assert _strength(state, 0, tok) == 4


def test_patchwork_and_blue_helix_take_one_ammo_per_card_discarded_for_a_discard_effect():
    """Patchwork: "Only effects declared with a discard-effect symbol to the left of the text
    count" — the sentence Finisher's note explains with "discard 3 cards for one discard effect
    (e.g. Module), the Finisher bonus is 3": 3 ammo for Module with 2 more cards (Blue Helix,
    the designed faction with Patchwork's effect, the same)."""
    state, _ = _module_table("Patchwork")
    state, _ = _discard_module(state, ids("Sniper", 2))
    assert len(state.players[0].ammo) == 3
    helix, _ = _module_table(factions=[one("Blue Helix"), None])
    helix, _ = _discard_module(helix, ids("Sniper", 2))
    assert len(helix.players[0].ammo) == 3


def test_patient_zero_draws_once_per_discard_effect_and_each_card_counts_once():
    """Patient Zero: "The effect is only triggered when it is explicitly a discard effect" — one
    card per discard effect that resolves. Module discarding Hydra (its own discard effect: draw 2)
    and a Sniper: two discard effects (Patient Zero draws 2, Hydra 2) and 3 cards (Finisher +3:
    Hydra counts for its own effect, not twice)."""
    state = table(2)
    fin = put(state, 0, one("Finisher"), 0)
    put(state, 0, one("Patient Zero"), 0)
    hand(state, 0, ids("Module", 3)[0], ids("Sniper", 3)[0], one("Hydra"))
    state, _ = act(
        state,
        0,
        {"type": "discard", "card": ids("Module", 3)[0]},
        answers=[one("Hydra"), ids("Sniper", 3)[0]],
    )
    assert _strength(state, 0, fin) == 4
    assert len(state.players[0].hand) == 2 + 2  # Hydra's 2 + Patient Zero's 2


def _journalist_battle(opponent_unit):
    state = table(2)
    put(state, 0, ids("Journalist", 3)[0], SCALE.index(3))
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(4))
    put(state, 1, one(opponent_unit), SCALE.index(15))
    return _battle(state, [ids("Recruit", 3)[:2], ids("Hive Mind", 3)[:2]], answers=[1])


def test_tokamak_denies_opponents_the_strength_of_their_additional_units():
    """Tokamak: "Your opponents may not add the strength of their additionally discarded units to
    their battle strength." Journalist's "how many more humans you want to exhaust. Add their
    strength to the battle strength" (ruling R-TOKAMAK): against Tokamak the Veteran's 4 is not
    added — Journalist 3 + card 1 = 4 (plus its 1 strength gain after the exhaust), not 9."""
    _, free = _journalist_battle("Brute")
    assert _points(free)[0][1]["0"] == 1 + (3 + 1) + 4
    state, denied = _journalist_battle("Tokamak")
    assert not [e for e in denied if e.type == "FightBonus"]
    assert _points(denied)[0][1]["0"] == 1 + (3 + 1)
    assert any(e.type == "UnitExhausted" and e.seat == 0 and e.data["slot"] == 1 for e in denied)


def test_faceless_t_copies_the_strongest_mutant_with_its_temporary_strength():
    """Faceless T: "This can copy the strength of your strongest Mutant, counting temporary
    effects." A Mutant at 3 with +4 temporary strength is copied as 7 (not 3): Faceless T 1 +
    Zombie card 1 + 7 = 9."""
    state = table(2)
    put(state, 0, one("Faceless T"), 0)
    mutant = put(state, 0, ids("Chain Reactor", 3)[0], SCALE.index(3))
    state.players[0].slots[mutant].temp = 4
    put(state, 1, ids("Brute", 3)[0], 0)
    _, events = _battle(
        state,
        [[ids("Zombie", 3)[0], ids("Zombie", 3)[1]], [ids("Recruit", 3)[0], ids("Recruit", 3)[1]]],
    )
    assert _points(events)[0][1]["0"] == 1 + 1 + (3 + 4)


def test_astronomer_keeps_the_ailien_behind_it_in_later_fights_and_in_total_strength():
    """Astronomer: "If Astronomer fights with an A.I.Lien, slide the A.I.Lien card behind the
    Astronomer, revealing only the card value. The A.I.Lien's card value is added to Astronomer's
    combat strength temporarily. Remember that the added strength also counts in the
    A.I.Pokalypse!" With A.I.Lien Alpha (5): 1 + 5 + 5 = 11; the card stays behind the
    Astronomer after the battle (not discarded), total strength 1 + 5 = 6, and the next fight
    with a Recruit (1) is 1 + 1 + 5 = 7."""
    state = table(2)
    astro = put(state, 0, one("Astronomer"), 0)
    put(state, 1, ids("Brute", 3)[0], 0)
    alien = ids("A.I.Lien Alpha", 1)[0]
    state, events = _battle(state, [[alien], [ids("Recruit", 3)[0]]])
    assert _points(events)[0][1]["0"] == 1 + 5 + 5
    assert [e.data for e in events if e.type == "AILienSlid"] == [{"slot": astro, "card": alien}]
    slot = state.players[0].slots[astro]
    assert slot.attached == [alien] and alien not in state.discard
    assert total_strength(state.players[0]) == 1 + 5
    assert total_strength(state.players[0], with_ailien_hand=True) == 1 + 5
    state, events = _battle(state, [[ids("Recruit", 3)[1]], [ids("Recruit", 3)[2]]])
    assert _points(events)[0][1]["0"] == 1 + 1 + 5
    assert state.players[0].slots[astro].attached == [alien]


def test_the_astronomer_ailien_counts_in_the_aipokalypse_total_strength():
    """ "Remember that the added strength also counts in the A.I.Pokalypse!" — the end by total
    strength: Astronomer 1 with A.I.Lien Gamma (7) behind it beats a unit at 7 (8 against 7)."""
    state = table(2)
    astro = put(state, 0, one("Astronomer"), 0)
    state.players[0].slots[astro].attached.append(take(state, ids("A.I.Lien Gamma", 1)[0]))
    put(state, 1, ids("Brute", 3)[0], SCALE.index(7))
    state, _ = run_flow(state, flow.finish_by_strength, [0, 1], "aipokalypse", True)
    assert state.result["winners"] == [0]
