"""The choices the rulebook gives the player, which the engine used to make itself (issue 9,
A.I.Pokalypse item 6): each is a held command + ``ChoiceRequested`` of the owning seat, its
options are the legal actions, every option has its outcome, the idle bot (turn timeout) takes
the documented default (the first option) and the tactician / toma_hunter choose well.
RULINGS.md "Player decisions" lists where each lives."""

from __future__ import annotations

import copy
import random

import pytest

from domain.games.aipokalypse import ENGINE, flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.bot_decisions import decision_choice
from domain.games.aipokalypse.context import Ctx, NeedChoice
from domain.games.aipokalypse.spec import SCALE
from domain.games.aipokalypse.state import dump_slot
from tests.unit.aipokalypse.helpers import (
    act,
    empty_slot,
    give_ammo,
    hand,
    ids,
    one,
    put,
    run_flow,
    table,
    types,
)
from tests.unit.aipokalypse.test_rules_battle import _points

IDLE, TACTICIAN, RANDOM = (ENGINE.bots[n] for n in ("idle", "tactician", "random"))


def _strength(state, seat, slot):
    s = state.players[seat].slots[slot]
    return SCALE[s.pos] if s.unit else 0


def _choose_actions(options):
    return [{"type": "choose", "option": o} for o in options]


def _stack(state, cards_by_seat):
    """Put the battle cards of every seat on top of the draw pile (seat 0's first)."""
    order = [c for cards in cards_by_seat for c in cards]
    for c in order:
        for pile in (state.draw, state.discard):
            if c in pile:
                pile.remove(c)
    state.draw = order + state.draw


def _ready_all(state, answers=None, defaults=False):
    """Every seat but 0 ends its Recruitment, then seat 0 does (its ``ready`` starts the
    battle and is the command held by any decision asked on the way)."""
    for seat in range(1, state.n):
        state, _ = act(state, seat, {"type": "ready"})
    return act(state, 0, {"type": "ready"}, answers=answers, defaults=defaults)


def _ask(state, fn, *args, answers=()):
    """The decision ``fn`` asks next (after ``answers``) on a scratch context."""
    with pytest.raises(NeedChoice) as need:
        fn(Ctx(state, random.Random(0), list(answers)), *args)
    return need.value


# ------------------------------------------------------------------ Murderer


def _murderer_table(berserker_pos: int | None = None):
    """Seat 0: Murderer (1), Berserker (2, or ``berserker_pos``), Veteran (9) — all Humans;
    seat 1: Heavy Tank at 15 (+2 temporary). First point: Murderer 1+1 = 2 against 15+1+2 = 18."""
    state = table(2)
    put(state, 0, one("Murderer"), 0)
    put(state, 0, one("Berserker"), SCALE.index(2) if berserker_pos is None else berserker_pos)
    put(state, 0, one("Veteran"), SCALE.index(9))
    put(state, 1, one("Heavy Tank"), SCALE.index(15))
    _stack(state, [ids("Recruit", 3), [one("Goldfish")] + ids("Goldfish", 3)[1:]])
    return state


def test_murderer_asks_its_owner_whether_and_which_human_to_discard():
    """Murderer: "When Murderer fights, you can decide to discard an additional human from a
    slot to win the point." The owner is asked (kind ``sacrifice``) with the other Humans on
    its slots weakest first; keeping them loses the point (2 against 18), discarding the
    Berserker (2) or the Veteran (9) wins it."""
    state = _murderer_table()
    held, events = _ready_all(state)
    assert types(events)[-1] == "ChoiceRequested"
    assert pending(held) == {0: "choose"}
    assert held.choice["kind"] == "sacrifice"
    assert legal_actions(held, 0) == _choose_actions(["keep", 1, 2])
    assert legal_actions(held, 1) == []
    assert "options" not in ENGINE.view(held, 1)["choice"]

    kept, events = _ready_all(state, answers=["keep"], defaults=True)
    assert _points(events)[0] == ([1], {"0": 2, "1": 18})
    assert kept.players[0].slots[1].unit == one("Berserker")

    for slot, victim in ((1, one("Berserker")), (2, one("Veteran"))):
        done, events = _ready_all(state, answers=[slot], defaults=True)
        assert _points(events)[0] == ([0], {"0": 2, "1": 18})
        assert victim in done.discard and done.players[0].slots[slot].unit is None
        other = 3 - slot
        assert done.players[0].slots[other].unit is not None


def test_murderer_timeout_keeps_the_humans_and_the_tactician_gives_only_a_weak_one():
    """Timeout default: ``keep`` (a timeout is a pass: nothing is given up; before, the engine
    discarded the weakest Human automatically, even a strength-9 one). The tactician discards
    a Human of at most 3 strength for the point, never a strong one."""
    state = _murderer_table()
    held, _ = _ready_all(state)
    assert IDLE.choose(held, 0, random.Random(0)) == {"type": "choose", "option": "keep"}
    assert TACTICIAN.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 1}
    assert RANDOM.choose(held, 0, random.Random(0)) in legal_actions(held, 0)
    strong, _ = _ready_all(_murderer_table(berserker_pos=SCALE.index(6)))
    assert legal_actions(strong, 0) == _choose_actions(["keep", 1, 2])
    assert TACTICIAN.choose(strong, 0, random.Random(0)) == {"type": "choose", "option": "keep"}


def test_murderer_is_not_asked_when_its_seat_scores_the_point_alone_but_is_when_tied():
    """ "to win the point": with the point won alone there is nothing to decide; tied, the
    sacrifice makes the seat the only scorer (a "you win the point" effect: exactly those
    seats score, ruling R-WIN-POINT)."""
    state = table(2)
    put(state, 0, one("Murderer"), SCALE.index(15))
    put(state, 0, one("Berserker"), 0)
    put(state, 1, one("Veteran"), 0)
    _stack(state, [ids("Recruit", 3)[:2], ids("Recruit", 3)[2:] + [ids("Commander", 3)[0]]])
    done, events = _ready_all(state)
    assert "ChoiceRequested" not in types(events)
    assert _points(events)[0][0] == [0]

    tied = table(2)
    put(tied, 0, one("Murderer"), SCALE.index(4))
    put(tied, 0, one("Berserker"), 0)
    put(tied, 1, one("Heavy Tank"), SCALE.index(2))  # 2 + 2 temporary
    _stack(tied, [ids("Recruit", 3)[:2], ids("Goldfish", 3)[:2]])
    held, _ = _ready_all(tied)
    assert legal_actions(held, 0) == _choose_actions(["keep", 1])
    _, events = _ready_all(tied, answers=["keep"], defaults=True)
    assert _points(events)[0] == ([0, 1], {"0": 5, "1": 5})
    _, events = _ready_all(tied, answers=[1], defaults=True)
    assert _points(events)[0] == ([0], {"0": 5, "1": 5})


# ------------------------------------------------------------------ Lieutenant Dan


def _dan_table(ammo=3):
    """Seat 0: Lieutenant Dan (1) and a Veteran (4) — Humans — and a Heavy Tank (3), a Mech;
    ``ammo`` ammo."""
    state = table(2)
    put(state, 0, one("Lieutenant Dan"), 0)
    put(state, 0, one("Berserker"), SCALE.index(4))
    put(state, 0, one("Heavy Tank"), SCALE.index(3))
    give_ammo(state, 0, ammo)
    return state


def test_lieutenant_dan_spends_as_much_ammo_as_its_owner_chooses():
    """Lieutenant Dan: "Instead of giving a unit strength, you can also spend your ammo to give
    strength to all your humans." Round bonus, kind ``ammo``: 1 (the default), 0, 2, 3 of its
    3 ammo; each gives both Humans 1 strength, the Mech none."""
    state = _dan_table()
    need = _ask(state, flow.start_recruitment)
    assert (need.seat, need.kind, need.options) == (0, "ammo", [1, 0, 2, 3])
    for count in (0, 1, 2, 3):
        done, _ = run_flow(copy.deepcopy(state), flow.start_recruitment, answers=[count])
        assert len(done.players[0].ammo) == 3 - count
        assert [_strength(done, 0, i) for i in range(3)] == [1 + count, 4 + count, 3]
    default, events = run_flow(copy.deepcopy(state), flow.start_recruitment)  # the first option
    assert len(default.players[0].ammo) == 2 and _strength(default, 0, 0) == 2
    assert types(events).count("AmmoSpent") == 1


def test_lieutenant_dan_asks_nothing_without_ammo_and_the_tactician_spends_all_for_two_humans():
    """No ammo, no decision; with 2 Humans each ammo is 2 permanent strength: the tactician
    spends all 3; with Dan the only Human it keeps 2 for battle."""
    state = _dan_table(ammo=0)
    done, events = run_flow(state, flow.start_recruitment)
    assert "AmmoSpent" not in types(events) and _strength(done, 0, 0) == 1
    slots = [dump_slot(s) for s in _dan_table().players[0].slots]  # (boards as shown)
    assert decision_choice("ammo", [1, 0, 2, 3], slots, [], 3, lambda c: 0) == 3
    alone = [s for s in slots if s["unit"] != one("Berserker")]
    assert decision_choice("ammo", [1, 0, 2, 3], alone, [], 3, lambda c: 0) == 1


def test_lieutenant_dan_decision_is_held_in_the_command_that_starts_the_recruitment():
    """The round bonus runs in the batch of the battle's last command: that command is held,
    only Dan's owner decides, the options are the legal actions, the timeout spends nothing
    (0, issue 17: "A seat whose turn timer runs out takes the answer that uses nothing")."""
    state = _dan_table()
    put(state, 1, one("Commander"), 0)
    state.players[0].slots[1].pos = SCALE.index(15)  # seat 0 wins every point
    _stack(state, [ids("Veteran", 3)[:3], ids("Recruit", 3)])
    held, _ = _ready_all(state)
    assert held.choice["kind"] == "ammo" and pending(held) == {0: "choose"}
    assert legal_actions(held, 0) == _choose_actions([1, 0, 2, 3])
    assert IDLE.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 0}
    assert TACTICIAN.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 3}
    done, _ = act(held, 0, {"type": "choose", "option": 2})
    assert done.phase == "recruitment" and len(done.players[0].ammo) == 1
    assert _strength(done, 0, 0) == 1 + 2


# ------------------------------------------------------------------ Red Slots


def _six_slots(empties=(), strengths=(4, 4, 1, 4, 4, 4)):
    """Seat 0 with 6 slots (units at ``strengths`` scale indexes, ``empties`` left empty) and
    a Module plus 2 cards in hand (discarding Module and 2 more gains a Red Slot)."""
    state = table(2)
    names = ("Sniper", "Heavy Tank", "Commander", "Veteran", "Brute", "Hive Mind")
    for k, name in enumerate(names):
        if k in empties:
            empty_slot(state, 0)
        else:
            put(state, 0, ids(name, 3)[-1], strengths[k])
    hand(state, 0, ids("Module", 3)[0], *ids("Sniper", 2))
    return state, {"type": "discard", "card": ids("Module", 3)[0]}


def test_a_red_slot_replaces_the_empty_slot_its_owner_chooses():
    """Red Slots: "If you already have 6 slots, replace any empty slot with the Red Slot." Kind
    ``red_slot``: the empty slots 1 and 4, the leftmost first (the default)."""
    state, cmd = _six_slots(empties=(1, 4))
    held, _ = act(state, 0, cmd, answers=ids("Sniper", 2), defaults=False)
    assert held.choice["kind"] == "red_slot"
    assert legal_actions(held, 0) == _choose_actions([1, 4])
    assert IDLE.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 1}
    for pick in (1, 4):
        done, _ = act(state, 0, cmd, answers=[*ids("Sniper", 2), pick])
        assert [s.red for s in done.players[0].slots] == [i == pick for i in range(6)]
        assert len(done.players[0].slots) == 6


def test_a_red_slot_goes_under_the_unit_its_owner_chooses():
    """Red Slots: "If you have no empty slots left, you can place the Red Slot under any unit."
    All 6 units are offered, weakest first (the Commander at 2, the default), then rightmost
    first among equals; the unit keeps its strength. Under a unit at 15 the Red Slot is
    exchanged at once for a normal slot and a Special Unit to the hand — the tactician's pick."""
    state, cmd = _six_slots(strengths=(4, 4, 1, 4, SCALE.index(15), 4))
    held, _ = act(state, 0, cmd, answers=ids("Sniper", 2), defaults=False)
    assert legal_actions(held, 0) == _choose_actions([2, 5, 3, 1, 0, 4])
    assert IDLE.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 2}
    assert TACTICIAN.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 4}
    under, _ = act(state, 0, cmd, answers=[*ids("Sniper", 2), 0])
    slot = under.players[0].slots[0]
    assert slot.red and slot.unit == ids("Sniper", 3)[-1] and SCALE[slot.pos] == 5
    top = state.specials[1]  # [0] becomes the Red Slot
    exchanged, events = act(state, 0, cmd, answers=[*ids("Sniper", 2), 4])
    assert "RedSlotExchanged" in types(events)
    assert not exchanged.players[0].slots[4].red and top in exchanged.players[0].hand


def test_a_red_slot_below_six_slots_is_a_new_slot_without_a_decision():
    """ "If you ... have not yet 6 slots, place the Red Slot as a new slot": no choice."""
    state, cmd = _six_slots(empties=(5,))
    state.players[0].slots.pop()
    _, events = act(state, 0, cmd, answers=ids("Sniper", 2), defaults=False)
    assert [e.data["kind"] for e in events if e.type == "ChoiceRequested"] == ["discard", "discard"]
    assert [e.data["mode"] for e in events if e.type == "RedSlotPlaced"] == ["new"]


# ------------------------------------------------------------------ Triples


def _triple_table():
    """Seat 0: a Heavy Tank (slot 0), two Veterans at 3 and 5 (slots 1, 2), an empty slot 3,
    the third Veteran in hand."""
    state = table(2)
    v = ids("Veteran", 3)
    put(state, 0, one("Heavy Tank"), 0)
    put(state, 0, v[0], SCALE.index(3))
    put(state, 0, v[1], SCALE.index(5))
    empty_slot(state, 0)
    hand(state, 0, v[2])
    return state, {"type": "triple", "cards": sorted(v), "source": "health"}


def test_a_triple_from_the_health_stack_draws_the_2_or_1_cards_its_owner_chooses():
    """Special Units and Triples: "draw up to 2 Special Units from your health point stack. In
    this case, you must choose one and place the other Special Unit face down back under the
    stack." Kind ``health_draw``: 2 (the default) or 1 — drawing none would recruit none."""
    state, cmd = _triple_table()
    top2 = state.players[0].health[:2]
    held, events = act(state, 0, cmd, defaults=False)
    assert types(events) == ["ChoiceRequested"] and held.choice["kind"] == "health_draw"
    assert legal_actions(held, 0) == _choose_actions([2, 1])
    assert IDLE.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 2}
    assert TACTICIAN.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 2}
    two, _ = act(state, 0, cmd, answers=[2])
    assert two.players[0].offer == top2 and len(two.players[0].health) == 4
    one_card, _ = act(state, 0, cmd, answers=[1])
    assert one_card.players[0].offer == top2[:1] and len(one_card.players[0].health) == 5
    assert legal_actions(one_card, 0) == [{"type": "choose_special", "special": top2[0]}]
    last = copy.deepcopy(state)
    last.players[0].health = last.players[0].health[:1]
    _, events = act(last, 0, cmd, defaults=False)  # 1 left: nothing to decide
    assert "ChoiceRequested" not in types(events)


def test_a_triple_special_unit_enters_the_available_slot_its_owner_chooses():
    """ "you must immediately play the Special Unit into an available slot": kind
    ``special_slot`` — the leftmost slot the Triple freed (1, the default), then every other
    empty slot (2 freed, 3 empty); it carries 3 + 5 = 8 strength wherever it goes."""
    state, cmd = _triple_table()
    drawn, _ = act(state, 0, cmd, answers=[2])
    special = drawn.players[0].offer[1]
    choose = {"type": "choose_special", "special": special}
    held, _ = act(drawn, 0, choose, defaults=False)
    assert held.choice["kind"] == "special_slot" and pending(held) == {0: "choose"}
    assert legal_actions(held, 0) == _choose_actions([1, 2, 3])
    assert IDLE.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 1}
    assert TACTICIAN.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 1}
    for slot in (1, 2, 3):
        done, _ = act(drawn, 0, choose, answers=[slot])
        slots = done.players[0].slots
        assert slots[slot].unit == special and SCALE[slots[slot].pos] == 8
        assert [i for i, s in enumerate(slots) if s.unit] == sorted({0, slot})


def test_a_triple_from_the_pool_asks_the_slot_too():
    """The same decision when the Special Unit comes from the pool (no draw)."""
    state, cmd = _triple_table()
    special = state.specials.pop(0)
    state.players[0].pool.append(special)
    cmd = dict(cmd, source="pool", special=special)
    held, _ = act(state, 0, cmd, defaults=False)
    assert legal_actions(held, 0) == _choose_actions([1, 2, 3])
    done, _ = act(state, 0, cmd, answers=[3])
    assert done.players[0].slots[3].unit == special and SCALE[done.players[0].slots[3].pos] == 8


# ------------------------------------------------------------------ Enclave M87


def _enclave_table(draw, discard):
    """Enclave M87's seat before Recruitment 1 (no cards are drawn first)."""
    state = table(2, round_=0, draw=list(draw), factions=[one("Enclave M87"), None])
    state.discard = list(discard)
    return state


def test_enclave_m87_may_shuffle_the_discard_pile_when_the_draw_pile_has_no_human():
    """Enclave M87: "If you don't find a human in the draw pile, you can shuffle the discard
    pile." Kind ``reshuffle``: ``reshuffle`` (the default) finds the Recruit in the discard
    pile; ``stop`` ends the search with the draw pile milled and no Human."""
    mechs, human = ids("Goldfish", 3), ids("Recruit", 3)[0]
    state = _enclave_table(draw=mechs[:2], discard=[mechs[2], human])
    need = _ask(state, flow.start_recruitment)
    assert (need.seat, need.kind, need.options) == (0, "reshuffle", ["reshuffle", "stop"])
    found, events = run_flow(copy.deepcopy(state), flow.start_recruitment, answers=["reshuffle"])
    assert human in found.players[0].hand and "DrawPileReshuffled" in types(events)
    stopped, events = run_flow(copy.deepcopy(state), flow.start_recruitment, answers=["stop"])
    assert stopped.players[0].hand == [] and "DrawPileReshuffled" not in types(events)
    assert stopped.draw == [] and sorted(stopped.discard) == sorted(mechs + [human])
    default, _ = run_flow(copy.deepcopy(state), flow.start_recruitment)
    assert human in default.players[0].hand
    assert (
        decision_choice("reshuffle", ["reshuffle", "stop"], [], [], 0, lambda c: 0) == "reshuffle"
    )


def test_enclave_m87_asks_nothing_when_the_draw_pile_has_a_human_and_roko_always_reshuffles():
    """A Human in the draw pile: no decision. Roko's Basilisk's search ("Shuffle the discard
    pile if necessary") is not optional."""
    human = ids("Recruit", 3)[0]
    state = _enclave_table(draw=[ids("Goldfish", 3)[0], human], discard=[ids("Recruit", 3)[1]])
    done, events = run_flow(state, flow.start_recruitment, answers=["stop"])
    assert human in done.players[0].hand and "DrawPileReshuffled" not in types(events)
    roko = table(2, draw=[ids("Goldfish", 3)[0]])
    roko.discard = [one("A.I.Lien Beta")]
    slot = empty_slot(roko, 0)
    roko.draw = [ids("Goldfish", 3)[0]]
    hand(roko, 0, one("Roko's Basilisk"))
    done, events = act(
        roko, 0, {"type": "recruit", "card": one("Roko's Basilisk"), "slot": slot}, defaults=False
    )
    assert "ChoiceRequested" not in types(events) and one("A.I.Lien Beta") in done.players[0].hand


# ------------------------------------------------------------------ Mechatron


def _mechatron_table():
    """Seat 0: a Veteran at 4 (slot 0), a Brute at 2 with a Goldfish attached (slot 1), an
    empty slot 2; Mechatron, a Recruit and a Commander in hand."""
    state = table(2)
    put(state, 0, one("Veteran"), SCALE.index(4))
    put(state, 0, one("Brute"), SCALE.index(2))
    state.players[0].slots[1].attached = [ids("Goldfish", 3)[0]]
    state.draw.remove(ids("Goldfish", 3)[0]) if ids("Goldfish", 3)[0] in state.draw else None
    slot = empty_slot(state, 0)
    hand(state, 0, one("Mechatron"), ids("Recruit", 3)[0], ids("Commander", 3)[0])
    return state, {"type": "recruit", "card": one("Mechatron"), "slot": slot}


def test_mechatron_attaches_a_card_from_the_hand_or_a_slot_as_its_owner_chooses():
    """Mechatron: "The card that you attach may come from your hand." Kind ``attach``: the
    hand cards, highest card value first (the Commander, the default), then the other units
    on slots, weakest first (the Brute at 2, the Veteran at 4). Mechatron gains 2 strength
    (1 -> 3) whichever it is; a unit from a slot leaves it empty, its attached card with it."""
    state, cmd = _mechatron_table()
    held, _ = act(state, 0, cmd, defaults=False)
    assert held.choice["kind"] == "attach"
    assert legal_actions(held, 0) == _choose_actions(
        [ids("Commander", 3)[0], ids("Recruit", 3)[0], one("Brute"), one("Veteran")]
    )
    assert IDLE.choose(held, 0, random.Random(0)) == {
        "type": "choose",
        "option": ids("Commander", 3)[0],
    }
    assert TACTICIAN.choose(held, 0, random.Random(0)) == {
        "type": "choose",
        "option": ids("Recruit", 3)[0],
    }
    for card in (ids("Commander", 3)[0], ids("Recruit", 3)[0]):
        done, _ = act(state, 0, cmd, answers=[card])
        me = done.players[0]
        assert me.slots[2].attached == [card] and _strength(done, 0, 2) == 3
        assert card not in me.hand and me.slots[1].unit == one("Brute")
    done, events = act(state, 0, cmd, answers=[one("Brute")])
    me = done.players[0]
    assert me.slots[1].unit is None and me.slots[1].attached == []
    assert (
        me.slots[2].attached == [ids("Goldfish", 3)[0], one("Brute")] and _strength(done, 0, 2) == 3
    )
    assert "CardDiscarded" not in types(events)  # moved, not discarded
    assert sorted(me.hand) == sorted([ids("Recruit", 3)[0], ids("Commander", 3)[0]])


def test_mechatron_with_an_empty_hand_attaches_one_of_the_units():
    """No hand card: the units on the other slots are the options."""
    state, cmd = _mechatron_table()
    state.players[0].hand = [one("Mechatron")]
    held, _ = act(state, 0, cmd, defaults=False)
    assert legal_actions(held, 0) == _choose_actions([one("Brute"), one("Veteran")])
    assert TACTICIAN.choose(held, 0, random.Random(0)) == {"type": "choose", "option": one("Brute")}


# ------------------------------------------------------------------ hidden information


def test_recruitment_decisions_show_other_seats_neither_kind_nor_options():
    """During the private Recruitment Phase another seat or a spectator sees only who decides:
    no kind, no options, a neutral ``RecruitmentMoveMade`` for the request (R-CHOICE-PRIVACY)."""
    state, cmd = _mechatron_table()
    held, events = act(state, 0, cmd, defaults=False)
    request = events[-1]
    for viewer in (1, None):
        assert ENGINE.view(held, viewer)["choice"] == {"seat": 0}
        assert ENGINE.redact(request, viewer) == {"hidden": True}
        assert ENGINE.redact_type(request, viewer) == "RecruitmentMoveMade"
        assert one("Brute") not in str(ENGINE.view(held, viewer)["choice"])
    assert ENGINE.redact(request, 0)["kind"] == "attach"
    state, cmd = _triple_table()
    held, events = act(state, 0, cmd, defaults=False)
    assert ENGINE.view(held, 1)["choice"] == {"seat": 0} and ENGINE.redact(events[-1], 1) == {
        "hidden": True
    }


def test_the_bots_rate_an_option_they_cannot_see_as_unknown():
    """A held command's options come from its scratch state: a slot opened earlier in the
    same command (Walter White's 7th) is not in the chooser's state. The bots take the
    default instead of looking it up (found by the 4-tactician simulation)."""
    state, _ = _six_slots(strengths=(4, 4, 1, 4, SCALE.index(15), 4))
    slots = [dump_slot(s) for s in state.players[0].slots]  # (the bots read boards as shown)
    assert decision_choice("red_slot", [6, 2], slots, [], 0, lambda c: 0) == 6
    assert decision_choice("sacrifice", ["keep", 6], slots, [], 0, lambda c: 0) == "keep"
