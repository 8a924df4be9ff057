"""Issue 17 (rules fidelity, round 3), A.I.Pokalypse items 1, 3, 4 and 5: Vault A.F.K.'s first
Recruitment Phase, Lieutenant Dan's ammo alternative, Big Benji's "at any time" and the
"take nothing" answers of Big Benji's steal and Scammer's swap. Each test quotes the book
(``shared/rules/aipokalypse-rulebook.txt``) and checks a concrete value. The timeout answers
(item 2) are in ``test_timeout_answers.py``."""
from __future__ import annotations

import copy
import random

import pytest

from domain.games.aipokalypse import flow
from domain.games.aipokalypse.actions import legal_actions
from domain.games.aipokalypse.context import Ctx, NeedChoice
from domain.games.aipokalypse.spec import SCALE
from tests.unit.aipokalypse.helpers import act, hand, ids, one, put, table, types
from tests.unit.aipokalypse.test_rules_battle import _battle, _points


def _ask(state, fn, *args):
    """The first decision ``fn`` asks on a scratch context."""
    with pytest.raises(NeedChoice) as need:
        fn(Ctx(copy.deepcopy(state), random.Random(0)), *args)
    return need.value


def _start_battle_with(ctx, cards_by_seat):
    order = [c for cards in cards_by_seat for c in cards]
    for c in order:
        for key in ("draw", "discard"):
            if c in ctx.state[key]:
                ctx.state[key].remove(c)
    ctx.state["draw"] = order + ctx.state["draw"]
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
    draw = len(state["draw"])
    state, events = act(state, 0, {"type": "discard", "card": painkiller})
    assert len(state["players"][0]["hand"]) == 2
    assert "CardsDrawn" not in types(events) and len(state["draw"]) == draw
    assert state["discard"] == [painkiller]


def test_vault_afk_discarding_module_in_round_1_gains_no_red_slot():
    """Vault A.F.K.: "in the first Recruitment Phase, you can not do anything but decide
    which of the 6 cards you want to keep". Module's discard effect ("you may discard 2 more
    cards ...; if you do, gain a Red Slot") does not resolve: no decision is asked, the seat
    keeps 0 slots and the 2 other cards stay in the hand."""
    module = ids("Module", 1)[0]
    state = _vault_round_1(module, *ids("Sniper", 2))
    state, events = act(state, 0, {"type": "discard", "card": module}, defaults=False)
    assert state["choice"] is None and "ChoiceRequested" not in types(events)
    assert state["players"][0]["slots"] == [] and "RedSlotPlaced" not in types(events)
    assert sorted(state["players"][0]["hand"]) == sorted(ids("Sniper", 2))


def test_vault_afk_discards_resolve_again_from_round_2():
    """From the second Recruitment Phase on a discard is a discard: Painkiller draws 2 and
    discards 1 (3 hand cards -> 1 + 2 - 1 = 3)."""
    painkiller = ids("Painkiller", 1)[0]
    state = _vault_round_1(painkiller, *ids("Sniper", 2))
    state["round"] = 2
    state, events = act(state, 0, {"type": "discard", "card": painkiller})
    assert "CardsDrawn" in types(events) and len(state["players"][0]["hand"]) == 3


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
    theirs = state["specials"].pop(0)
    state["players"][1]["pool"].append(theirs)
    return state, theirs


def test_big_benji_steal_may_take_nothing():
    """Big Benji: "When you win a point, you can choose a special unit from a neighboring
    player's pool". "can": the options are the neighbour's pool card and "skip"; with "skip"
    seat 1's pool keeps its 1 card and seat 0's stays empty."""
    state, theirs = _benji_point_table()
    need = _ask(state, _start_battle_with, [[ids("Recruit", 3)[0], ids("Recruit", 3)[2]],
                                            [ids("Recruit", 3)[1], ids("Brute", 3)[0]]])
    assert (need.seat, need.kind, need.options, need.decline) == (0, "steal", [theirs, "skip"], "skip")
    after, events = _battle(state, [[ids("Recruit", 3)[0], ids("Recruit", 3)[2]],
                                    [ids("Recruit", 3)[1], ids("Brute", 3)[0]]], answers=["skip"])
    assert _points(events)[0][0] == [0] and "PoolCardMoved" not in types(events)
    assert theirs in after["players"][1]["pool"] and theirs not in after["players"][0]["pool"]


def test_scammer_may_swap_nothing():
    """Scammer: "You can place Scammer in the pool of one of your neighboring opponents and
    take a Special Unit from that pool." "can": options seat 1's pool card and "skip"; with
    "skip" seat 1's pool keeps its card, seat 0's stays empty and Scammer lies under the
    Special deck, where every discarded Special Unit goes."""
    state = table(2)
    theirs = state["specials"].pop(0)
    state["players"][1]["pool"] = [theirs]
    hand(state, 0, one("Scammer"))
    held, _ = act(copy.deepcopy(state), 0, {"type": "discard", "card": one("Scammer")}, defaults=False)
    assert held["choice"]["options"] == [theirs, "skip"] and held["choice"]["decline"] == "skip"
    after, events = act(state, 0, {"type": "discard", "card": one("Scammer")}, answers=["skip"])
    assert after["players"][1]["pool"] == [theirs] and after["players"][0]["pool"] == []
    assert after["specials"][-1] == one("Scammer") and "PoolCardMoved" not in types(events)


def test_scammer_with_empty_pools_may_stay_home():
    """With empty pools Scammer's owner chooses the neighbour that receives it — or "skip":
    Scammer stays under the Special deck, seat 1's pool stays empty."""
    state = table(2)
    hand(state, 0, one("Scammer"))
    held, _ = act(copy.deepcopy(state), 0, {"type": "discard", "card": one("Scammer")}, defaults=False)
    assert (held["choice"]["kind"], held["choice"]["options"]) == ("seat", [1, "skip"])
    after, _ = act(state, 0, {"type": "discard", "card": one("Scammer")}, answers=["skip"])
    assert after["players"][1]["pool"] == [] and after["specials"][-1] == one("Scammer")
