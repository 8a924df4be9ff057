"""Issue 17 (rules fidelity, round 3), A.I.Pokalypse items 1, 3, 4 and 5: Vault A.F.K.'s first
Recruitment Phase, Lieutenant Dan's ammo alternative, Big Benji's "at any time" and the
"take nothing" answers of Big Benji's steal and Scammer's swap. Each test quotes the book
(``shared/rules/aipokalypse-rulebook.txt``) and checks a concrete value. The timeout answers
(item 2) are in ``test_timeout_answers.py``."""

from __future__ import annotations

import copy
import random

import pytest

from domain.engine import IllegalMove
from domain.games.aipokalypse import battle, flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.context import Ctx, NeedChoice
from domain.games.aipokalypse.spec import SCALE
from tests.unit.aipokalypse.helpers import CAT, act, give_ammo, hand, ids, one, put, table, types
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def _ask(state, fn, *args):
    """The first decision ``fn`` asks on a scratch context."""
    with pytest.raises(NeedChoice) as need:
        fn(Ctx(copy.deepcopy(state), random.Random(0)), *args)
    return need.value


def _start_battle_with(ctx, cards_by_seat):
    order = [c for cards in cards_by_seat for c in cards]
    for c in order:
        for pile in (ctx.state.draw, ctx.state.discard):
            if c in pile:
                pile.remove(c)
    ctx.state.draw = order + ctx.state.draw
    flow.start_battle(ctx)


# ------------------------------------------------------------------ item 1: Vault A.F.K.


def _vault_round_1(*cards):
    state = table(2, round_=1, factions=[one("Vault A.F.K."), None])
    hand(state, 0, *cards)
    return state


def test_vault_afk_discarding_painkiller_in_round_1_draws_no_card():
    """Vault A.F.K.: "in the first Recruitment Phase, you can not do anything but decide
    which of the 6 cards you want to keep". Painkiller's discard effect ("draw 2 cards, then
    discard one") does not resolve: the hand goes from 3 cards to 2, no card is drawn, the
    draw pile keeps its cards."""
    painkiller = ids("Painkiller", 1)[0]
    state = _vault_round_1(painkiller, *ids("Sniper", 2))
    draw = len(state.draw)
    state, events = act(state, 0, {"type": "discard", "card": painkiller})
    assert len(state.players[0].hand) == 2
    assert "CardsDrawn" not in types(events) and len(state.draw) == draw
    assert state.discard == [painkiller]


def test_vault_afk_discarding_module_in_round_1_gains_no_red_slot():
    """Vault A.F.K.: "in the first Recruitment Phase, you can not do anything but decide
    which of the 6 cards you want to keep". Module's discard effect ("you may discard 2 more
    cards ...; if you do, gain a Red Slot") does not resolve: no decision is asked, the seat
    keeps 0 slots and the 2 other cards stay in the hand."""
    module = ids("Module", 1)[0]
    state = _vault_round_1(module, *ids("Sniper", 2))
    state, events = act(state, 0, {"type": "discard", "card": module}, defaults=False)
    assert state.choice is None and "ChoiceRequested" not in types(events)
    assert state.players[0].slots == [] and "RedSlotPlaced" not in types(events)
    assert sorted(state.players[0].hand) == sorted(ids("Sniper", 2))


def test_vault_afk_discards_resolve_again_from_round_2():
    """From the second Recruitment Phase on a discard is a discard: Painkiller draws 2 and
    discards 1 (3 hand cards -> 1 + 2 - 1 = 3)."""
    painkiller = ids("Painkiller", 1)[0]
    state = _vault_round_1(painkiller, *ids("Sniper", 2))
    state.round = 2
    state, events = act(state, 0, {"type": "discard", "card": painkiller})
    assert "CardsDrawn" in types(events) and len(state.players[0].hand) == 3


def test_vault_afk_round_1_offers_only_hand_discards_and_ready():
    state = _vault_round_1(ids("Module", 1)[0], *ids("Sniper", 2))
    kinds = {a["type"] for a in legal_actions(state, 0)}
    assert kinds == {"discard", "ready"}


# ------------------------------------------------------------------ item 5: take nothing


def _benji_point_table():
    """Seat 0: a Veteran at 10 and Big Benji; seat 1: a Sniper and 1 pool card. Seat 0's
    Veteran wins point 1 (Big Benji: "When you win a point")."""
    state = table(2)
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(10))
    put(state, 0, one("Big Benji"), 0)
    put(state, 1, ids("Sniper", 3)[0], 0)
    theirs = state.specials.pop(0)
    state.players[1].pool.append(theirs)
    return state, theirs


def test_big_benji_steal_may_take_nothing():
    """Big Benji: "When you win a point, you can choose a special unit from a neighboring
    player's pool". "can": the options are the neighbour's pool card and "skip"; with "skip"
    seat 1's pool keeps its 1 card and seat 0's stays empty."""
    state, theirs = _benji_point_table()
    need = _ask(
        state,
        _start_battle_with,
        [[ids("Recruit", 3)[0], ids("Recruit", 3)[2]], [ids("Recruit", 3)[1], ids("Brute", 3)[0]]],
    )
    assert (need.seat, need.kind, need.options, need.decline) == (
        0,
        "steal",
        [theirs, "skip"],
        "skip",
    )
    after, events = _battle(
        state,
        [[ids("Recruit", 3)[0], ids("Recruit", 3)[2]], [ids("Recruit", 3)[1], ids("Brute", 3)[0]]],
        answers=["skip"],
    )
    assert _points(events)[0][0] == [0] and "PoolCardMoved" not in types(events)
    assert theirs in after.players[1].pool and theirs not in after.players[0].pool


def test_scammer_may_swap_nothing():
    """Scammer: "You can place Scammer in the pool of one of your neighboring opponents and
    take a Special Unit from that pool." "can": options seat 1's pool card and "skip"; with
    "skip" seat 1's pool keeps its card, seat 0's stays empty and Scammer lies under the
    Special deck, where every discarded Special Unit goes."""
    state = table(2)
    theirs = state.specials.pop(0)
    state.players[1].pool = [theirs]
    hand(state, 0, one("Scammer"))
    held, _ = act(
        copy.deepcopy(state), 0, {"type": "discard", "card": one("Scammer")}, defaults=False
    )
    assert held.choice["options"] == [theirs, "skip"] and held.choice["decline"] == "skip"
    after, events = act(state, 0, {"type": "discard", "card": one("Scammer")}, answers=["skip"])
    assert after.players[1].pool == [theirs] and after.players[0].pool == []
    assert after.specials[-1] == one("Scammer") and "PoolCardMoved" not in types(events)


def test_scammer_with_empty_pools_may_stay_home():
    """With empty pools Scammer's owner chooses the neighbour that receives it — or "skip":
    Scammer stays under the Special deck, seat 1's pool stays empty."""
    state = table(2)
    hand(state, 0, one("Scammer"))
    held, _ = act(
        copy.deepcopy(state), 0, {"type": "discard", "card": one("Scammer")}, defaults=False
    )
    assert (held.choice["kind"], held.choice["options"]) == ("seat", [1, "skip"])
    after, _ = act(state, 0, {"type": "discard", "card": one("Scammer")}, answers=["skip"])
    assert after.players[1].pool == [] and after.specials[-1] == one("Scammer")


# ------------------------------------------------------------------ item 3: Lieutenant Dan


def _dan_recruitment(ammo=3):
    """Seat 0: Lieutenant Dan (1) and a Berserker (4) — Humans — and a Heavy Tank (3), a Mech."""
    state = table(2)
    put(state, 0, one("Lieutenant Dan"), 0)
    put(state, 0, one("Berserker"), SCALE.index(4))
    put(state, 0, one("Heavy Tank"), SCALE.index(3))
    give_ammo(state, 0, ammo)
    return state


def _strengths(state, seat=0):
    return [SCALE[s.pos] if s.unit else 0 for s in state.players[seat].slots]


def test_lieutenant_dan_offers_every_recruitment_ammo_spend_to_all_humans():
    """Lieutenant Dan: "Instead of giving a unit strength, you can also spend your ammo to give
    strength to all your humans." Wherever ``spend_ammo`` is offered (any time in the Recruitment Phase, not
    only at the round bonus) ``spend_ammo_humans`` is too: 1 of 3 ammo gives Dan 1 -> 2 and
    the Berserker 4 -> 5, the Heavy Tank stays 3, 2 ammo are left."""
    state = _dan_recruitment()
    actions = legal_actions(state, 0)
    assert {"type": "spend_ammo", "slot": 0} in actions and {"type": "spend_ammo_humans"} in actions
    state, events = act(state, 0, {"type": "spend_ammo_humans"})
    assert _strengths(state) == [2, 5, 3] and len(state.players[0].ammo) == 2
    assert [e.data for e in events if e.type == "AmmoSpent"] == [
        {"count": 1, "slot": None, "battle": False, "hidden": True}
    ]


def test_without_lieutenant_dan_ammo_goes_to_one_unit_only():
    """Without Lieutenant Dan on a slot there is no such spend: not offered, refused with
    ``no_lieutenant_dan``; with Dan but no ammo: not offered."""
    state = table(2)
    put(state, 0, one("Berserker"), SCALE.index(4))
    give_ammo(state, 0, 1)
    assert {"type": "spend_ammo_humans"} not in legal_actions(state, 0)
    with pytest.raises(IllegalMove) as err:
        act(state, 0, {"type": "spend_ammo_humans"})
    assert err.value.code == "no_lieutenant_dan"
    assert {"type": "spend_ammo_humans"} not in legal_actions(_dan_recruitment(ammo=0), 0)


def _dan_battle():
    """Seat 0: Lieutenant Dan (1) and a Veteran (4), 2 ammo; seat 1: a Brute at 4. Point 1:
    a Recruit (blue, card value 1) makes Dan fight, 1 + 1 = 2 against 4 + 1 = 5."""
    state = table(2)
    put(state, 0, one("Lieutenant Dan"), 0)
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(4))
    put(state, 1, ids("Brute", 3)[0], SCALE.index(4))
    give_ammo(state, 0, 2)
    yellow = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 1]
    return _battle(state, [ids("Recruit", 3)[:2], yellow[:2]])


def test_lieutenant_dan_battle_ammo_may_strengthen_all_humans():
    """Lieutenant Dan: "Instead of giving a unit strength, you can also spend your ammo to give
    strength to all your humans." In battle ("Each ammo temporarily strengthens any unit by 2 strength") the
    ammo spent while Dan fights may go to all Humans: ``react_ammo_humans`` is offered
    beside ``react_ammo`` for the same counts (2: 2 + 4 = 6 against 5); 2 ammo give Dan and
    the Veteran +4 temporary strength each: point 1 is Dan's, 2 + 4 = 6, and point 2 the
    Veteran's, 4 + 1 + 4 = 9 (without it 5 against 5); both ammo are back on the ammo deck."""
    state, _ = _dan_battle()
    assert state.players[0].current.slot == 0 and pending(state) == {0: "react"}
    assert battle.strengths(state) == {0: 2, 1: 5}
    actions = legal_actions(state, 0)
    assert [a for a in actions if a["type"] in ("react_ammo", "react_ammo_humans")] == [
        {"type": "react_ammo", "count": 2},
        {"type": "react_ammo_humans", "count": 2},
    ]
    deck = len(state.ammo_deck)
    state, events = act(state, 0, {"type": "react_ammo_humans", "count": 2})
    assert [e.data for e in events if e.type == "TempAdded"] == [
        {"slot": 0, "n": 4},
        {"slot": 1, "n": 4},
    ]
    assert state.players[0].ammo == [] and len(state.ammo_deck) == deck + 2
    while state.phase == "battle" and pending(state):
        state, more = act(state, min(pending(state)), {"type": "pass"})
        events = events + more
    assert [(w, st["0"]) for w, st in _points(events)] == [([0], 6), ([0], 9)]


def test_lieutenant_dan_battle_alternative_needs_a_fighting_human():
    """Only "your humans" take the ammo: with a Mech fighting (Heavy Tank) nothing goes to the
    Humans, so ``react_ammo_humans`` is not offered."""
    state = table(2)
    put(state, 0, one("Lieutenant Dan"), 0)
    put(state, 0, ids("Heavy Tank", 3)[0], 0)
    put(state, 1, ids("Brute", 3)[0], SCALE.index(4))
    give_ammo(state, 0, 2)
    red = [c for c in CAT.basic if CAT[c].color == "red" and CAT[c].value == 1]
    yellow = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 1]
    state, _ = _battle(state, [red[:2], yellow[:2]])
    actions = legal_actions(state, 0)
    assert any(a["type"] == "react_ammo" for a in actions)
    assert not any(a["type"] == "react_ammo_humans" for a in actions)


# ------------------------------------------------------------------ item 4: Big Benji any time


def _benji_ahead(riddickules=False):
    """Seat 0: Big Benji at 10 (and Riddickules), 1 pool card, no ammo; seat 1: Brutes at 1.
    Point 1: Big Benji fights with a Recruit, 10 + 1 = 11 against 1 + 1 = 2 — seat 0 is ahead."""
    state = table(2)
    put(state, 0, one("Big Benji"), SCALE.index(10))
    if riddickules:
        put(state, 0, one("Riddickules"), 0)
    for k in range(3 if riddickules else 1):
        put(state, 1, ids("Brute", 3)[k], 0)
    pool = state.specials.pop(0)
    state.players[0].pool.append(pool)
    yellow = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 1]
    n = 3 if riddickules else 1
    state, events = _battle(state, [ids("Recruit", 3)[:n], yellow[:n]])
    return state, events, pool


def test_big_benji_cashes_while_its_seat_is_ahead_in_battle():
    """Big Benji: "You can discard as many Special Units from your pool as you like. You
    receive one ammo for each unit. You can do this at any time, even during battle." Seat 0
    leads 11 to 2, yet it has a decision window with ``cash_pool`` and ``pass``: cashing its 1
    pool card gives 0 -> 1 ammo (before issue 17 the window opened only while behind: the
    point resolved at once and the pool card stayed)."""
    state, _, pool = _benji_ahead()
    assert battle.strengths(state) == {0: 11, 1: 2}
    assert pending(state) == {0: "react"}
    assert legal_actions(state, 0) == [{"type": "cash_pool", "card": pool}, {"type": "pass"}]
    state, events = act(state, 0, {"type": "cash_pool", "card": pool})
    assert len(state.players[0].ammo) == 1 and pool not in state.players[0].pool
    assert _points(events)[0][0] == [0]  # no more to cash: the point resolves


def test_big_benji_cash_while_ahead_triggers_riddickules():
    """ "It matters with effects that trigger on ammo gains": Riddickules (every ammo gain in
    battle makes each opponent exhaust an active unit). Riddickules' own preparation ammo
    exhausted seat 1's Brute on slot 2; cashing while ahead (11 to 2) makes seat 1 exhaust
    its Brute on slot 1 too, so its third battle card finds no active Brute."""
    state, events, pool = _benji_ahead(riddickules=True)
    assert [e.data["slot"] for e in events if e.type == "UnitExhausted"] == [2]
    assert pending(state) == {0: "react"} and battle.strengths(state) == {0: 11, 1: 2}
    assert {"type": "cash_pool", "card": pool} in legal_actions(state, 0)
    state, events = act(state, 0, {"type": "cash_pool", "card": pool})
    assert [(e.seat, e.data["slot"]) for e in events if e.type == "UnitExhausted"] == [(1, 1)]
