"""Issue 17, item 2: a timeout never spends for the player. Shared RULINGS: "A seat whose turn
timer runs out takes the answer that uses nothing and changes least: pass, keep, decline
every optional ("may", "can") effect, spend no card, ammo or health". Every optional effect
decision of A.I.Pokalypse is answered here by the turn-timeout policy (the ``idle`` bot, the
engine's ``timeout_bot``) and the test checks, with the book's values, that nothing was
spent: before issue 17 it prayed with Prayers of Elex (3 hand cards), spent 1 ammo for
Lieutenant Dan, renewed a Hacker pool, discarded 2 more cards for Module, and so on.

The mechanism: ``Ctx.ask(..., decline=...)`` names the option that declines an optional
effect; it travels in ``ChoiceRequested`` into the open choice, and the idle bot answers it
(:func:`domain.games.aipokalypse.context.timeout_option`); a decision the effect forces
(which card to discard) keeps its first option."""

from __future__ import annotations

import ast
import copy
import pathlib
import random

from domain.games.aipokalypse import ENGINE, flow
from domain.games.aipokalypse.actions import pending
from domain.games.aipokalypse.context import Ctx, NeedChoice
from domain.games.aipokalypse.spec import SCALE
from tests.support.pysource import parse_module
from tests.unit.aipokalypse.helpers import CAT, act, empty_slot, hand, ids, one, put, table, types
from tests.unit.aipokalypse.test_player_decisions import (
    _dan_table,
    _murderer_table,
    _ready_all,
    _stack,
)
from tests.unit.aipokalypse.test_rules_battle import _points

IDLE = ENGINE.bots[ENGINE.timeout_bot]
PACKAGE = pathlib.Path(__file__).resolve().parents[3] / "domain" / "games" / "aipokalypse"


def _s(state, seat, slot):
    s = state.players[seat].slots[slot]
    return SCALE[s.pos] if s.unit else 0


def timeout_act(state, seat, cmd):
    """``cmd`` of ``seat``, then every open effect decision answered by the timeout policy
    through the engine (``ChoiceRequested`` -> idle bot -> ``choose``). Returns the state,
    the atomic events and the ``(kind, option)`` answers."""
    state, events = act(state, seat, cmd, defaults=False)
    answered = []
    while state.choice:
        chooser, kind = state.choice["seat"], state.choice["kind"]
        answer = IDLE.choose(state, chooser, random.Random(0))
        answered.append((kind, answer["option"]))
        state, more = act(state, chooser, answer, defaults=False)
        events = events + more
    return state, events, answered


def timeout_flow(state, fn, *args):
    """An automatic step (round bonuses, a battle) on a scratch context; each decision it asks
    is shown to the timeout policy as the open choice the engine would fold from its
    ``ChoiceRequested`` and answered with what the policy picks."""
    answers, answered = [], []
    while True:
        ctx = Ctx(state, random.Random(0), answers)
        try:
            fn(ctx, *args)
        except NeedChoice as need:
            held = copy.deepcopy(state)
            held.choice = {
                "seat": need.seat,
                "kind": need.kind,
                "options": need.options,
                "prompt": need.prompt,
                "decline": need.decline,
            }
            option = IDLE.choose(held, need.seat, random.Random(0))["option"]
            answers.append(option)
            answered.append((need.kind, option))
            continue
        return ctx.state, ctx.events, answered


def _hand6(state, seat, exclude=()):
    fillers = [
        c
        for c in ids("Sniper", 3) + ids("Commander", 3) + ids("Heavy Tank", 3)
        if c not in exclude and c not in state.players[seat].hand
    ]
    hand(state, seat, *fillers[: 6 - len(state.players[seat].hand)])


def _battle_cards(state, cards_by_seat):
    order = [c for cards in cards_by_seat for c in cards]
    for c in order:
        for pile in (state.draw, state.discard):
            if c in pile:
                pile.remove(c)
    state.draw = order + state.draw


# ------------------------------------------------------------------ the four of the issue


def test_prayers_of_elex_timeout_keeps_the_6_hand_cards():
    """Prayers of Elex: "You can only execute this effect at the beginning of the Recruitment
    Phase ... You have to discard the cards from your hand". Timeout: "skip" — the hand keeps
    its 6 cards, no Special Unit is searched, the Special deck keeps its order."""
    state = table(2, phase="battle", factions=[one("Prayers of Elex"), None])
    _hand6(state, 0)
    before = list(state.players[0].hand), list(state.specials)
    after, events, answered = timeout_flow(state, flow.start_recruitment)
    assert answered == [("pray", "skip")]
    assert after.players[0].hand == before[0] and after.specials == before[1]
    assert "SpecialSearched" not in types(events)


def test_lieutenant_dan_timeout_spends_no_ammo_through_the_engine():
    """Lieutenant Dan: "you can also spend your ammo to give strength to all your humans".
    The round bonus held in the battle's last command, answered by the timeout policy:
    0 ammo — 3 ammo stay 3, Dan stays 1 and the Veteran 4."""
    state = _dan_table()
    put(state, 1, one("Commander"), 0)
    state.players[0].slots[1].pos = SCALE.index(15)  # seat 0 wins every point
    _stack(state, [ids("Veteran", 3)[:3], ids("Recruit", 3)])
    held, _ = _ready_all(state)
    assert held.choice["kind"] == "ammo" and held.choice["decline"] == 0
    assert ENGINE.view(held, 0)["choice"]["decline"] == 0
    assert IDLE.choose(held, 0, random.Random(0)) == {"type": "choose", "option": 0}
    done, events = act(held, 0, IDLE.choose(held, 0, random.Random(0)))
    assert done.phase == "recruitment" and "AmmoSpent" not in types(events)
    assert len(done.players[0].ammo) == 3 and (_s(done, 0, 0), _s(done, 0, 1)) == (1, 15)


def test_hacker_timeout_keeps_the_pool():
    """Hacker: "If you want to renew your pool, you must discard all Special Units in your
    pool". Timeout: "keep" — the 2 pool cards stay, the Special deck keeps its cards."""
    state = table(2)
    pool = [state.specials.pop(0), state.specials.pop(0)]
    state.players[0].pool = list(pool)
    slot = empty_slot(state, 0)
    hacker = ids("Hacker", 3)[0]
    hand(state, 0, hacker)
    deck = list(state.specials)
    after, events, answered = timeout_act(
        state, 0, {"type": "recruit", "card": hacker, "slot": slot}
    )
    assert answered == [("renew", "keep")]
    assert after.players[0].pool == pool and after.specials == deck


def test_module_timeout_discards_nothing_more():
    """Module: "you may discard 2 more cards of your choice; if you do, gain a Red Slot"
    (Module: "you still need to discard two more cards ... to get a second Red Slot").
    Timeout: "stop" — the 2 other hand cards stay, no Red Slot (0 slots stay 0)."""
    state = table(2)
    module, others = ids("Module", 3)[0], ids("Sniper", 3)[:2]
    hand(state, 0, module, *others)
    after, events, answered = timeout_act(state, 0, {"type": "discard", "card": module})
    assert answered == [("discard", "stop")]
    assert sorted(after.players[0].hand) == sorted(others) and after.players[0].slots == []


# ------------------------------------------------------------------ every other optional effect


def test_scrap_collector_timeout_discards_no_hand_card():
    """Scrap Collector (recruit: discard up to 2 hand cards, 1 strength each). Timeout: "stop"
    — 2 hand cards stay, Scrap Collector stays 1."""
    state = table(2)
    slot = empty_slot(state, 0)
    scrap, others = one("Scrap Collector"), ids("Sniper", 3)[:2]
    hand(state, 0, scrap, *others)
    after, _, answered = timeout_act(state, 0, {"type": "recruit", "card": scrap, "slot": slot})
    assert answered == [("discard", "stop")]
    assert sorted(after.players[0].hand) == sorted(others) and _s(after, 0, slot) == 1


def test_bookkeeper_timeout_trashes_nothing():
    """Bookkeeper: "You can execute the effect as many times as you want". Timeout: "stop" at
    once — 6 hand cards stay, Bookkeeper stays 1."""
    state = table(2, phase="battle")
    book = put(state, 0, one("Bookkeeper"), 0)
    _hand6(state, 0)
    before = sorted(state.players[0].hand)
    after, _, answered = timeout_flow(state, flow.start_recruitment)
    assert answered == [("discard", "stop")]
    assert sorted(after.players[0].hand) == before and _s(after, 0, book) == 1


def test_engineer_guild_timeout_trashes_nothing_and_draws_nothing():
    """Engineer Guild (round bonus: you may trash a hand card and draw 1). Timeout: "stop" —
    the same 6 hand cards."""
    state = table(2, phase="battle", factions=[one("Engineer Guild"), None])
    _hand6(state, 0)
    before = sorted(state.players[0].hand)
    after, _, answered = timeout_flow(state, flow.start_recruitment)
    assert answered == [("discard", "stop")] and sorted(after.players[0].hand) == before


def test_enclave_m87_timeout_does_not_shuffle_the_discard_pile():
    """Enclave M87: "If you don't find a human in the draw pile, you can shuffle the discard
    pile." Timeout: "stop" — the discard pile (a Veteran among 3 cards) stays, no Human
    drawn."""
    state = table(2, phase="battle", factions=[one("Enclave M87"), None], draw=ids("Brute", 3)[:2])
    _hand6(state, 0)
    state.players[1].hand = (
        ids("Hive Mind", 3)[:3]
        + ids("Brute", 3)[2:3]
        + ids("Sniper", 3)[2:3]
        + [ids("Heavy Tank", 3)[2]]
    )
    state.discard = [ids("Veteran", 3)[0], ids("Recruit", 3)[0], ids("Recruit", 3)[1]]
    after, events, answered = timeout_flow(state, flow.start_recruitment)
    assert answered == [("reshuffle", "stop")]
    assert (
        "DrawPileReshuffled" not in types(events)
        and ids("Veteran", 3)[0] not in after.players[0].hand
    )


def test_outer_wilds_timeout_gives_no_strength():
    """Outer Wilds: "You can give 2 strength to one unit whose adjacent units are stronger".
    Timeout: "skip" — the valley Sniper stays 2."""
    state = table(2, phase="battle", factions=[one("Outer Wilds"), None])
    put(state, 0, ids("Heavy Tank", 3)[0], SCALE.index(4))
    sniper = put(state, 0, ids("Sniper", 3)[0], SCALE.index(2))
    put(state, 0, ids("Heavy Tank", 3)[1], SCALE.index(4))
    _hand6(state, 0, exclude=ids("Sniper", 3) + ids("Heavy Tank", 3))
    after, _, answered = timeout_flow(state, flow.start_recruitment)
    assert answered == [("strength", "skip")] and _s(after, 0, sniper) == 2


def test_lightbringers_timeout_swaps_nothing():
    """Lightbringers: "Two units can swap their position." Timeout: "skip" — the Brute stays
    on slot 0, the Veteran on slot 2."""
    state = table(2, phase="battle", factions=[one("Lightbringers"), None])
    put(state, 0, ids("Brute", 3)[0], SCALE.index(2))
    put(state, 0, ids("Heavy Tank", 3)[0], 0)
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(6))
    _hand6(state, 0)
    after, events, answered = timeout_flow(state, flow.start_recruitment)
    assert answered == [("swap", "skip")] and "UnitsSwapped" not in types(events)
    assert [s.unit for s in after.players[0].slots] == [
        ids("Brute", 3)[0],
        ids("Heavy Tank", 3)[0],
        ids("Veteran", 3)[0],
    ]


def test_chrome_discard_effect_timeout_makes_nothing_permanent():
    """C.H.R.O.M.E.: "you can discard C.H.R.O.M.E. permanently to that unit". Timeout: "skip"
    — the Sniper (3 temporary) stays 1."""
    state = table(2)
    put(state, 0, one("C.H.R.O.M.E."), SCALE.index(5))
    sniper = put(state, 0, ids("Sniper", 3)[0], 0)
    after, _, answered = timeout_act(state, 0, {"type": "discard", "card": one("C.H.R.O.M.E.")})
    assert answered == [("strength", "skip")] and _s(after, 0, sniper) == 1


def test_chrome_double_damage_timeout_keeps_chrome():
    """C.H.R.O.M.E.: "You can discard C.H.R.O.M.E. if you won the last battle to deal double
    damage". Timeout: "keep" — C.H.R.O.M.E. stays on its slot, seat 1 loses 1, not 2."""
    state = table(2)
    chrome = put(state, 0, one("C.H.R.O.M.E."), SCALE.index(10))
    put(state, 1, one("Sniper"), 0)
    _battle_cards(state, [[ids("Brute", 3)[0]], [ids("Recruit", 3)[0]]])
    after, events, answered = timeout_flow(state, flow.start_battle)
    assert answered == [("chrome", "keep")]
    assert [e.data["damage"] for e in events if e.type == "BattleEnded"] == [{"0": 0, "1": 1}]
    assert after.players[0].slots[chrome].unit == one("C.H.R.O.M.E.")


def test_erit_lux_timeout_stores_no_card():
    """Erit Lux: "You can store two of your hand cards on this faction card." Timeout:
    "stop" — 3 hand cards stay in the hand, nothing stored."""
    state = table(2, factions=[one("Erit Lux"), None])
    cards = [ids("Commander", 3)[0], ids("Sniper", 3)[0], ids("Recruit", 3)[0]]
    hand(state, 0, *cards)
    after, _, answered = timeout_act(state, 0, {"type": "ready"})
    assert answered == [("store", "stop")]
    assert sorted(after.players[0].hand) == sorted(cards) and not after.players[0].stash


def test_journalist_timeout_exhausts_no_other_human():
    """Journalist: "you can decide how many more humans you want to exhaust". Timeout: "stop"
    — no Human exhausted for the fight, point 1 is Journalist 3 + Recruit 1 alone (before:
    the Commander's 2 was added and the Commander exhausted)."""
    state = table(2)
    put(state, 0, ids("Journalist", 3)[0], SCALE.index(3))
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(4))
    put(state, 0, ids("Commander", 3)[0], SCALE.index(2))
    put(state, 1, ids("Brute", 3)[0], SCALE.index(15))
    _battle_cards(state, [ids("Recruit", 3), ids("Hive Mind", 3)])
    after, events, answered = timeout_flow(state, flow.start_battle)
    assert answered and {a for a in answered if a[0] == "rally"} == {("rally", "stop")}
    assert not [e for e in events if e.type == "FightBonus"]
    assert _points(events)[0][1]["0"] == 3 + CAT[ids("Recruit", 3)[0]].value


def test_lich_queen_timeout_reactivates_nothing():
    """Lich Queen: "You can reactivate a previously exhausted mutant." Timeout: "skip" — the
    Brute stays exhausted."""
    state = table(2)
    put(state, 0, one("Brute"), SCALE.index(4))
    put(state, 0, one("Lich Queen"), SCALE.index(4))
    put(state, 1, ids("Hive Mind", 3)[0], SCALE.index(15))
    put(state, 1, ids("Hive Mind", 3)[1], SCALE.index(15))
    y = [c for c in CAT.basic if CAT[c].color == "yellow" and CAT[c].value == 3]
    _battle_cards(state, [y[:2], y[2:4]])
    _, events, answered = timeout_flow(state, flow.start_battle)
    assert ("reactivate", "skip") in answered and "UnitReactivated" not in types(events)


def test_murderer_timeout_keeps_its_humans():
    """Murderer: "you can decide to discard an additional human from a slot to win the
    point". Timeout: "keep" — the Berserker stays on its slot, seat 0 does not win point 1."""
    state = _murderer_table()
    _battle_cards(state, [ids("Recruit", 3), ids("Brute", 3)])
    after, events, answered = timeout_flow(state, flow.start_battle)
    assert ("sacrifice", "keep") in answered
    assert after.players[0].slots[1].unit == one("Berserker")
    assert _points(events)[0][0] == [1]


def test_megaton_timeout_loads_nothing_and_never_booms():
    """Megaton: the seat may place hand cards on it; the Boom is its decision. Timeout: "stop"
    (2 hand cards stay) — and with cards loaded, "wait" (no Boom: seat 1's 9 stays)."""
    state = table(2, factions=[one("Megaton"), None])
    put(state, 0, ids("Commander", 3)[0], SCALE.index(15))
    middle = put(state, 1, ids("Sniper", 3)[1], SCALE.index(9))
    cards = ids("Brute", 3)[0], ids("Veteran", 3)[0]
    hand(state, 0, *cards)
    state.players[1].ready = True
    after, _, answered = timeout_act(copy.deepcopy(state), 0, {"type": "ready"})
    assert answered[0] == ("load", "stop") and not after.players[0].megaton
    assert set(cards) <= set(after.players[0].hand)
    state.players[0].hand = []
    state.players[0].megaton = list(cards)
    state.phase = "battle"
    _battle_cards(state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]])
    after, events, answered = timeout_flow(state, flow.start_battle)
    assert ("boom", "wait") in answered and "MegatonBoom" not in types(events)
    assert after.players[1].slots[middle].unit == ids("Sniper", 3)[1]


def test_kollektah_timeout_tucks_nothing():
    """Kollektah: "If you have cards left after the battle, you can place them under any
    Special Units in your pool". Timeout: "stop" — the Sniper stays in the hand."""
    state = table(2, factions=[one("Kollektah"), None])
    put(state, 0, ids("Brute", 3)[0], 0)
    put(state, 1, ids("Veteran", 3)[0], 0)
    state.players[0].pool.append(state.specials.pop(0))
    keep = ids("Sniper", 3)[0]
    hand(state, 0, keep)
    _battle_cards(state, [[ids("Brute", 3)[1]], [ids("Recruit", 3)[0]]])
    after, events, answered = timeout_flow(state, flow.start_battle)
    assert ("tuck", "stop") in answered and "CardTucked" not in types(events)
    assert keep in after.players[0].hand


def test_vault_afk_timeout_takes_no_free_special_unit():
    """Vault A.F.K.: "At the beginning of Recruitment Phase 2 and 3 you can recruit a Special
    Unit for free." Timeout: "skip" — the pool card stays in the pool, the health stack keeps
    its 6 cards."""
    state = table(2, phase="battle", round_=1, factions=[one("Vault A.F.K."), None])
    pool = state.specials.pop(0)
    state.players[0].pool.append(pool)
    after, _, answered = timeout_flow(state, flow.start_recruitment)
    assert answered == [("special", "skip")]
    assert after.players[0].pool == [pool] and len(after.players[0].health) == 6


def test_a_forced_decision_still_takes_its_first_option():
    """Painkiller: "When you draw a card, you must also discard one immediately" — no
    decline; the timeout discards the first option (the lowest card value)."""
    state = table(2)
    pain = ids("Painkiller", 3)[0]
    hand(state, 0, pain, ids("Veteran", 3)[0])
    held, _ = act(state, 0, {"type": "discard", "card": pain}, defaults=False)
    assert held.choice["decline"] is None
    assert IDLE.choose(held, 0, random.Random(0))["option"] == held.choice["options"][0]


def test_the_timeout_never_cashes_big_benji_pool_cards():
    """Big Benji may cash pool cards "at any time"; the timeout never does: in its battle
    window it passes (1 pool card stays, ammo stays 0)."""
    state = table(2)
    put(state, 0, one("Big Benji"), SCALE.index(10))
    put(state, 1, ids("Sniper", 3)[0], 0)
    state.players[0].pool.append(state.specials.pop(0))
    state.players[0].ready = True
    _battle_cards(state, [[ids("Recruit", 3)[0]], [ids("Recruit", 3)[1]]])
    after, _ = act(state, 1, {"type": "ready"})
    while after.phase == "battle" and pending(after):
        seat = min(pending(after))
        cmd = IDLE.choose(after, seat, random.Random(0))
        assert cmd["type"] != "cash_pool"
        after, _ = act(after, seat, cmd, defaults=False)
    assert len(after.players[0].pool) == 1 and after.players[0].ammo == []


def test_every_ask_with_a_declining_option_names_its_decline():
    """A guard on the mechanism: every ``ctx.ask`` in the game whose options list a literal
    "skip", "stop", "keep" or "wait" (an optional effect's way out) passes ``decline=``, so a
    new optional effect cannot fall back to spending on a timeout."""
    missing = []
    for path in PACKAGE.rglob("*.py"):
        tree = parse_module(path)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "ask"
                and len(node.args) >= 3
            ):
                continue
            words = {c.value for c in ast.walk(node.args[2]) if isinstance(c, ast.Constant)}
            if words & {"skip", "stop", "keep", "wait"} and "decline" not in {
                k.arg for k in node.keywords
            }:
                missing.append(f"{path.name}:{node.lineno}")
    assert missing == []


def test_big_benji_steal_timeout_takes_nothing():
    """Big Benji: "When you win a point, you can choose a special unit from a neighboring
    player's pool". Timeout: "skip" — the neighbour's pool card stays with it."""
    state = table(2)
    put(state, 0, ids("Veteran", 3)[0], SCALE.index(10))
    put(state, 0, one("Big Benji"), 0)
    put(state, 1, ids("Sniper", 3)[0], 0)
    theirs = state.specials.pop(0)
    state.players[1].pool.append(theirs)
    _battle_cards(
        state,
        [[ids("Recruit", 3)[0], ids("Recruit", 3)[2]], [ids("Recruit", 3)[1], ids("Brute", 3)[0]]],
    )
    after, events, answered = timeout_flow(state, flow.start_battle)
    assert ("steal", "skip") in answered and "PoolCardMoved" not in types(events)
    assert theirs in after.players[1].pool and theirs not in after.players[0].pool


def test_scammer_timeout_swaps_nothing():
    """Scammer: "You can place Scammer in the pool of one of your neighboring opponents and
    take a Special Unit from that pool." Timeout: "skip" — seat 1 keeps its pool card,
    Scammer lies under the Special deck."""
    state = table(2)
    theirs = state.specials.pop(0)
    state.players[1].pool = [theirs]
    hand(state, 0, one("Scammer"))
    after, _, answered = timeout_act(state, 0, {"type": "discard", "card": one("Scammer")})
    assert answered == [("steal", "skip")]
    assert after.players[1].pool == [theirs] and after.specials[-1] == one("Scammer")
