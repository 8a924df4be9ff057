"""Issue 9, A.I.Pokalypse item 10: the factions of the rulebook's "Factions" notes
(``shared/rules/aipokalypse-rulebook.txt``) not pinned elsewhere, driven one by one against
their note (quoted) with concrete values; then the designed factions against their card text
(``cards/factions.json``, ``source: designed``)."""

from __future__ import annotations

import copy

import pytest

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.actions import legal_actions
from domain.games.aipokalypse.effects.resolve import origin_of, run
from domain.games.aipokalypse.spec import SCALE
from tests.unit.aipokalypse.helpers import (
    CAT,
    act,
    give_ammo,
    hand,
    ids,
    one,
    put,
    run_flow,
    table,
    take,
    types,
)
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def _s(state, seat, slot):
    return SCALE[state.players[seat].slots[slot].pos]


def _hand6(state, seat, exclude=()):
    """Fill ``seat``'s hand to 6 with fillers, so the draw at the phase start draws none."""
    fillers = [
        c
        for c in ids("Sniper", 3) + ids("Commander", 3) + ids("Heavy Tank", 3)
        if c not in exclude and c not in state.players[seat].hand
    ]
    hand(state, seat, *fillers[: 6 - len(state.players[seat].hand)])


def test_engineer_guild_trash_triggers_no_discard_or_gain_ammo_effects():
    """Engineer Guild: "The "trash" effect does neither trigger discard effects nor gain-ammo
    effects." Trashing a Painkiller (discard effect: draw 2) with Patchwork on a slot: no
    draws beyond the guild's 1 (hand 6 -> 5 -> 6), ammo stays 0."""
    state = table(2, phase="battle", factions=[one("Engineer Guild"), None])
    put(state, 0, one("Patchwork"), 0)
    pain = ids("Painkiller", 3)[0]
    hand(state, 0, pain)
    _hand6(state, 0)
    after, events = run_flow(state, flow.start_recruitment, answers=[pain])
    assert pain in after.discard and len(after.players[0].hand) == 6
    drawn = [e.data["cards"] for e in events if e.type == "CardsDrawn" and e.seat == 0]
    assert after.players[0].ammo == [] and len(drawn) == 1 and len(drawn[0]) == 1


def test_erit_lux_stored_cards_cannot_be_used_in_battle():
    """Erit Lux: "You can store two of your hand cards on this faction card. You cannot use
    them in battle. After drawing 6 hand cards ... take the stored cards into your hand."
    The stored Brute (5) would win the lost point (2 against 5) as a reaction: it is not
    offered — the battle runs through with no decision — and it returns after the draw of 6
    (7 cards). Kept in the hand instead, it is offered."""

    def setup(erit):
        state = table(2, factions=[one("Erit Lux") if erit else None, None])
        put(state, 0, ids("Brute", 3)[0], 0)
        put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(4))
        hand(state, 0, ids("Brute", 3)[1])
        state.draw = [ids("Zombie", 3)[0], ids("Zombie", 3)[1]] + state.draw
        state.players[1].ready = True
        return state

    stored = ids("Brute", 3)[1]
    state, events = act(setup(True), 0, {"type": "ready"}, answers=[stored, "stop"])
    assert [e.data["cards"] for e in events if e.type == "StashReturned"] == [[stored]]
    assert _points(events) == [([1], {"0": 2, "1": 5})] and state.phase == "recruitment"
    assert len(state.players[0].hand) == 7
    held, _ = act(setup(False), 0, {"type": "ready"})
    assert {"type": "react_card", "card": stored} in legal_actions(held, 0)


def test_lightbringers_swap_two_units_which_keep_their_strength():
    """Lightbringers: "Two units can swap their position. They retain their strength." The
    Veteran (7) on slot 2 and the Brute (2) on slot 0 swap: slot 0 Veteran 7, slot 2 Brute 2."""
    state = table(2, phase="battle", factions=[one("Lightbringers"), None])
    brute = put(state, 0, ids("Brute", 3)[0], SCALE.index(2))
    put(state, 0, ids("Heavy Tank", 3)[0], 0)
    vet = put(state, 0, ids("Veteran", 3)[0], SCALE.index(6))  # round bonus +1 -> 7
    _hand6(state, 0)
    after, _ = run_flow(state, flow.start_recruitment, answers=[vet, brute])
    slots = after.players[0].slots
    assert (slots[0].unit, SCALE[slots[0].pos]) == (ids("Veteran", 3)[0], 7)
    assert (slots[2].unit, SCALE[slots[2].pos]) == (ids("Brute", 3)[0], 2)


def test_megagneto_unit_taken_back_triggers_no_discard_effect():
    """Megagneto: "The strength remains the same, and no recruit effects are triggered. A
    card that you take back on hand does not trigger discard effects." The Painkiller (its
    discard effect draws 2) goes back to the hand: no cards drawn; the Brute takes slot 0 at
    4 without its recruit effect (+2)."""
    state = table(2, factions=[one("Megagneto"), None])
    pain = ids("Painkiller", 3)[0]
    slot = put(state, 0, pain, SCALE.index(4))
    pay, new = ids("Recruit", 3)[0], ids("Brute", 3)[0]
    hand(state, 0, pay, new)
    state, events = act(state, 0, {"type": "exchange_unit", "card": pay, "slot": slot, "unit": new})
    assert "CardsDrawn" not in types(events)
    assert state.players[0].hand == [pain] and _s(state, 0, slot) == 4


def test_outer_wilds_valley_by_printed_strength_and_only_with_two_neighbours():
    """Outer Wilds: "You can give 2 strength to one unit whose adjacent units are stronger
    than themselves. Temporary effects do not count. If a unit does not have two direct
    adjacent units on the slots next to it, it cannot receive the bonus." Veteran 4, Sniper
    2 (+3 temporary when fighting), Veteran 4: the Sniper is the valley, 2 -> 4. The
    leftmost unit (1, next to stronger units) is never offered."""
    state = table(2, phase="battle", factions=[one("Outer Wilds"), None])
    put(state, 0, ids("Brute", 3)[0], 0)
    put(state, 0, ids("Heavy Tank", 3)[0], SCALE.index(4))
    sniper = put(state, 0, ids("Sniper", 3)[0], SCALE.index(2))
    put(state, 0, ids("Heavy Tank", 3)[1], SCALE.index(4))
    _hand6(state, 0, exclude=ids("Sniper", 3) + ids("Heavy Tank", 3))
    import random

    from domain.games.aipokalypse.context import Ctx, NeedChoice

    ctx = Ctx(copy.deepcopy(state), random.Random(0))
    with pytest.raises(NeedChoice) as need:
        flow.start_recruitment(ctx)
    assert need.value.options == [sniper, "skip"]
    after, _ = run_flow(state, flow.start_recruitment)
    assert _s(after, 0, sniper) == 4


def test_prayers_of_elex_discards_trigger_no_discard_effects():
    """Prayers of Elex: "You have to discard the cards from your hand and no discard effects
    are triggered." Three Painkillers (discard effect: draw 2) paid: no draws, hand 6 -> 4
    (3 paid, the searched Special Unit added)."""
    elex = one("Prayers of Elex")
    state = table(2, phase="battle", factions=[elex, None])
    pains = ids("Painkiller", 3)
    hand(state, 0, *pains)
    _hand6(state, 0)
    wanted = sorted(state.specials)[3]
    after, events = run_flow(state, flow.start_recruitment, answers=["pray", *pains, wanted])
    assert not [e for e in events if e.type == "CardsDrawn" and e.seat == 0]
    assert len(after.players[0].hand) == 4 and wanted in after.players[0].hand


def test_shadow_fortress_without_an_ailien_gets_none_and_discards_the_drawn_cards():
    """Shadow Fortress: "Shuffle the discard pile if necessary and discard the remaining
    drawn cards. If there is no A.I.Lien, you don't get one." Draw pile Recruit, Sniper, then
    the A.I.Lien Alpha: hand gets the Alpha, the two others are discarded. No A.I.Lien
    anywhere: the hand stays empty."""
    fortress = one("Shadow Fortress")
    state = table(2, factions=[fortress, None])
    first = [take(state, ids("Recruit", 3)[0]), take(state, ids("Sniper", 3)[0])]
    alpha = take(state, one("A.I.Lien Alpha"))
    for c in CAT.basic:
        if CAT[c].kind == "ailien":
            take(state, c)
    state.draw = first + [alpha] + state.draw
    after, _ = run_flow(
        copy.deepcopy(state),
        lambda ctx: run(ctx, 0, CAT[fortress].ops("start"), origin_of(fortress)),
    )
    assert after.players[0].hand == [alpha] and set(first) <= set(after.discard)
    state.draw.remove(alpha)
    after, _ = run_flow(
        state, lambda ctx: run(ctx, 0, CAT[fortress].ops("start"), origin_of(fortress))
    )
    assert after.players[0].hand == []


def test_sic_mundus_stored_card_is_not_counted_for_the_draw_to_six():
    """Sic Mundus: "The card stored here does not count towards your limit when you draw 6
    cards at the start of the Recruitment Phase." One card stored, empty hand: 6 drawn, then
    the stored card: 7 in hand."""
    state = table(2, factions=[one("Sic Mundus"), None])
    stored = ids("Brute", 3)[0]
    hand(state, 0, stored)
    state, _ = act(state, 0, {"type": "ready"}, answers=[stored])
    assert state.players[0].stash == [stored] and state.players[0].hand == []
    state.phase = "battle"
    after, _ = run_flow(state, flow.start_recruitment)
    assert len(after.players[0].hand) == 7 and stored in after.players[0].hand


def test_the_corporation_bonus_only_for_the_unit_the_ammo_is_played_on():
    """The Corporation: "The strength bonus is received only by the unit onto which you also
    play the ammo." One ammo on the Veteran: 1 -> 3; the Brute stays 1."""
    state = table(2, factions=[one("The Corporation"), None])
    vet = put(state, 0, ids("Veteran", 3)[0], 0)
    brute = put(state, 0, ids("Brute", 3)[0], 0)
    give_ammo(state, 0, 1)
    state, _ = act(state, 0, {"type": "spend_ammo", "slot": vet})
    assert (_s(state, 0, vet), _s(state, 0, brute)) == (3, 1)


def test_vault_afk_free_special_unit_only_at_the_start_of_rounds_2_and_3():
    """Vault A.F.K.: "At the beginning of Recruitment Phase 2 and 3 you can recruit a
    Special Unit for free." Round 3 (state round 2 before it starts): the pool card goes to
    the hand; round 4: no offer, the pool card stays."""
    for before, free in ((2, True), (3, False)):
        state = table(2, phase="battle", round_=before, factions=[one("Vault A.F.K."), None])
        pool = state.specials.pop(0)
        state.players[0].pool.append(pool)
        after, _ = run_flow(state, flow.start_recruitment, answers=[pool])
        assert (pool in after.players[0].hand) == free
        assert (pool in after.players[0].pool) == (not free)


# ------------------------------------------------------------------ designed factions


@pytest.mark.parametrize(
    "name,color", [("Iron Covenant", "blue"), ("Red Dawn", "red"), ("Yellow Plague", "yellow")]
)
def test_designed_colour_factions_give_their_colour_1_strength_each_round(name, color):
    """Card text: "Round bonus: each of your Humans/Mechs/Mutants gains 1 strength." The
    unit of that colour 1 -> 2, the others stay 1."""
    state = table(2, phase="battle", factions=[one(name), None])
    slots = {
        c: put(state, 0, ids(u, 3)[0], 0)
        for c, u in (("blue", "Recruit"), ("red", "Goldfish"), ("yellow", "Zombie"))
    }
    _hand6(state, 0)
    after, _ = run_flow(state, flow.start_recruitment)
    assert {c: _s(after, 0, i) for c, i in slots.items()} == {
        c: 2 if c == color else 1 for c in slots
    }


def test_designed_resource_factions_follow_their_card_text():
    """Rust Nomads "Round bonus: take 1 ammo" (0 -> 1); Night Market "Round bonus: draw 1
    card" (6 -> 7 cards); Sky Harbor "Start: take 3 ammo" (0 -> 3)."""
    rust = table(2, phase="battle", factions=[one("Rust Nomads"), None])
    _hand6(rust, 0)
    after, _ = run_flow(rust, flow.start_recruitment)
    assert len(after.players[0].ammo) == 1
    market = table(2, phase="battle", factions=[one("Night Market"), None])
    after, _ = run_flow(market, flow.start_recruitment)
    assert len(after.players[0].hand) == 7
    sky = one("Sky Harbor")
    harbor = table(2, factions=[sky, None])
    after, _ = run_flow(harbor, lambda ctx: run(ctx, 0, CAT[sky].ops("start"), origin_of(sky)))
    assert len(after.players[0].ammo) == 3


def test_neon_saints_give_each_unit_1_temporary_strength_this_battle():
    """Neon Saints "Preparation: each of your units has +1 temporary strength this battle":
    Veteran 3 + card 1 + 1 = 5 in the point."""
    state = table(2, factions=[one("Neon Saints"), None])
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(3))
    put(state, 1, ids("Veteran", 3)[1], 0)
    _, events = _battle(state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]])
    assert _points(events)[0][1]["0"] == 5


def test_last_light_wins_every_tie():
    """Last Light "Passive: you win every tie": 4 against 4, only seat 0 scores."""
    state = table(2, factions=[one("Last Light"), None])
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(3))
    put(state, 1, ids("Veteran", 3)[1], SCALE.index(3))
    _, events = _battle(state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]])
    assert _points(events)[0] == ([0], {"0": 4, "1": 4})
