"""The ``expert`` bot (issue 3): legal in every decision kind, blind to hidden cards,
deterministic given its RNG, bounded by its rollout budget. Strength is measured by
``benchmarks/ai_100_human_tournament.py`` (too noisy for a small unit-test sample)."""

from __future__ import annotations

import math
import random
import time

import pytest

from domain.engine import Setup, fold
from domain.games.ai_100_human.actions import legal_actions
from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.expert import ExpertBot, determinize, unseen_cards
from domain.games.ai_100_human.views import view

from .test_flow_support import E, given, run, state_of

SMALL = ExpertBot(budget=8, candidates=3)


def test_expert_is_registered_as_a_bot_level():
    assert isinstance(E.bots["expert"], ExpertBot)
    assert E.bots["expert"].name == "expert"


def _states_along_a_match(seats: int, seed: int, watch: int):
    """Yield every state where seat ``watch`` owes a decision, in a match played by
    random/greedy bots (seat ``watch`` itself played by greedy)."""
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, {})), rng))
    while E.result(state) is None:
        pending = E.pending(state)
        if watch in pending:
            yield state
        seat = min(pending)
        level = "greedy" if seat == watch or seat % 2 else "random"
        command = E.bots[level].choose(state, seat, rng)
        state = fold(E, E.decide(state, seat, command, rng), state)


@pytest.mark.parametrize("seats,seed", [(3, 11), (4, 12), (5, 13)])
def test_expert_returns_a_legal_action_along_whole_matches(seats, seed):
    kinds = set()
    for i, state in enumerate(_states_along_a_match(seats, seed, watch=0)):
        choice = SMALL.choose(state, 0, random.Random(i))
        assert choice in legal_actions(state, 0)
        kinds.add(E.pending(state)[0])
    assert {"choose_ai_side", "keep_reserve", "draft", "place"} <= kinds


HANDS = {
    0: ["031", "033", "035", "037"],
    1: ["039", "041", "043", "045"],
    2: ["047", "049", "050", "051"],
}


def _place_all(state, placements):
    return run(
        state,
        [(s, {"type": "place", "card": c, "cell": list(p)}) for s, (c, p) in placements.items()],
    )


def _copy_state():
    state = state_of(
        given(
            seats=3,
            step="place",
            hands=HANDS,
            tableaux={1: {(1, 1): "052", (0, 2): "057"}, 2: {(1, 3): "048"}},
            reserves={0: ["103"], 1: ["001"], 2: ["003"]},
        )
    )
    state, _ = _place_all(state, {0: ("103", (1, 1)), 1: ("001", (1, 3)), 2: ("003", (1, 1))})
    return state


def _exchange_state():
    state = state_of(
        given(
            seats=3,
            phase=2,
            step="place",
            hands=HANDS,
            tableaux={0: {(1, 1): "052", (1, 0): "064"}},
            reserves={0: ["115", "056", "066"], 1: ["060"], 2: ["062"]},
        )
    )
    state, _ = _place_all(state, {0: ("115", (0, 2)), 1: ("060", (1, 1)), 2: ("062", (1, 1))})
    return state


def _move_state():
    state = state_of(
        given(
            seats=3,
            step="place",
            hands=HANDS,
            tableaux={0: {(1, 1): "001"}},
            reserves={0: ["119"], 1: ["003"], 2: ["005"]},
        )
    )
    state, _ = _place_all(state, {0: ("119", (1, 3)), 1: ("003", (1, 1)), 2: ("005", (1, 1))})
    return state


def _extra_state():
    from domain.games.ai_100_human.tableau import FRAME

    free = [p for p in FRAME if p not in ((1, 2), (2, 4))]
    used = {"052", "056", "058", "060", "062"}
    pool = [c for c in catalogue().phase_deck(2) if c not in used and int(c) < 99][:39]
    tableaux = {s: dict(zip(free, pool[13 * s : 13 * s + 13], strict=False)) for s in range(3)}
    state = state_of(
        given(
            seats=3,
            ai=["AI-2", "AI-3", "AI-1"],
            phase=2,
            turn=7,
            step="place",
            tableaux=tableaux,
            reserves={0: ["052", "056", "058"], 1: ["060"], 2: ["062"]},
        )
    )
    state, _ = _place_all(state, {0: ("052", (2, 4)), 1: ("060", (2, 4)), 2: ("062", (2, 4))})
    return state


def _power_state(ai: str, step: str):
    return state_of(
        given(
            seats=3,
            ai=[ai, "AI-3", "AI-1"],
            step=step,
            hands=HANDS,
            tableaux={0: {(1, 1): "001", (1, 3): "005"}},
            reserves={0: ["007", "009"], 1: ["011"], 2: ["013"]},
        )
    )


@pytest.mark.parametrize(
    "build,kind",
    [
        (_copy_state, "copy"),
        (_exchange_state, "exchange_reserve"),
        (_move_state, "move_card"),
        (_extra_state, "place_extra"),
        (lambda: _power_state("AI-6", "draft"), "draft"),
        (lambda: _power_state("AI-5", "place"), "place"),
    ],
)
def test_expert_returns_a_legal_action_in_every_resolution_and_power_step(build, kind):
    state = build()
    assert E.pending(state).get(0) == kind
    legal = legal_actions(state, 0)
    assert len(legal) > 1
    for seed in range(5):
        assert SMALL.choose(state, 0, random.Random(seed)) in legal
    assert E.bots["expert"].choose(state, 0, random.Random(0)) in legal


def _mid_match_state(seed: int, step: str, turn: int):
    """A 4-seat match played by random bots up to seat 0's decision of ``step`` in ``turn``."""
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(4, {"objectives": "random"}), rng))
    while not (state.step == step and state.turn == turn and 0 in E.pending(state)):
        seat = min(E.pending(state))
        state = fold(
            E, E.decide(state, seat, E.bots["random"].choose(state, seat, rng), rng), state
        )
    return state


def _twisted(state):
    """The same match with everything seat 0 cannot see rearranged."""
    other = E.load_state(E.dump_state(state))
    other.deck.reverse()
    other.seats[1].hand, other.seats[2].hand = other.seats[2].hand, other.seats[1].hand
    other.seats[3].reserve, other.seats[1].reserve = other.seats[1].reserve, other.seats[3].reserve
    return other


@pytest.mark.parametrize("step,turn", [("draft", 2), ("place", 3)])
def test_expert_does_not_read_hidden_cards(step, turn):
    state = _mid_match_state(5, step, turn)
    twisted = _twisted(state)
    assert E.view(twisted, 0) == E.view(state, 0)
    assert (twisted.deck, twisted.seats[1].hand) != (state.deck, state.seats[1].hand)
    bot = ExpertBot(budget=12, candidates=3)
    assert bot.choose(twisted, 0, random.Random(7)) == bot.choose(state, 0, random.Random(7))


def test_expert_ignores_other_seats_hidden_placements():
    state = _mid_match_state(6, "place", 2)
    # seat 1 decides its face-down placement first; seat 0 must not be able to tell which
    state1 = E.load_state(E.dump_state(state))
    state2 = E.load_state(E.dump_state(state))
    options = [o for o in legal_actions(state, 1) if o["type"] == "place"]
    first, last = options[0], options[-1]
    assert (first["card"], first["cell"]) != (last["card"], last["cell"])
    state1 = fold(E, E.decide(state1, 1, first, random.Random(0)), state1)
    state2 = fold(E, E.decide(state2, 1, last, random.Random(0)), state2)
    assert E.view(state1, 0) == E.view(state2, 0)
    bot = ExpertBot(budget=12, candidates=3)
    assert bot.choose(state1, 0, random.Random(3)) == bot.choose(state2, 0, random.Random(3))


def test_determinized_worlds_hold_only_unseen_cards_in_hidden_places():
    state = _mid_match_state(8, "draft", 3)
    v = view(state, 0)
    hidden = set(unseen_cards(v))
    assert not hidden & (set(state.seats[0].hand) | set(state.seats[0].reserve))
    world = determinize(v, 0, random.Random(1))
    for i in (1, 2, 3):
        assert len(world.seats[i].hand) == len(state.seats[i].hand)
        assert len(world.seats[i].reserve) == len(state.seats[i].reserve)
        assert set(world.seats[i].hand) <= hidden and set(world.seats[i].reserve) <= hidden
        assert world.seats[i].tableau == state.seats[i].tableau
    assert world.seats[0].hand == state.seats[0].hand
    assert len(world.deck) == len(state.deck) and set(world.deck) <= hidden
    # the same real cards are hidden, but a sample deals them differently
    assert world.deck != state.deck or world.seats[1].hand != state.seats[1].hand


def test_expert_is_deterministic_given_its_rng():
    state = _mid_match_state(9, "draft", 1)
    bot = ExpertBot(budget=16, candidates=4)
    assert bot.choose(state, 0, random.Random(42)) == bot.choose(state, 0, random.Random(42))


def test_expert_respects_its_rollout_budget():
    state = _mid_match_state(10, "place", 4)
    assert len(legal_actions(state, 0)) > 3
    bot = ExpertBot(budget=9, candidates=3)
    bot.choose(state, 0, random.Random(0))
    # successive halving, 2 rounds: 1 sample x 3 candidates, then 3 samples x the best 2
    assert bot.last_rollouts == 3 + 6
    bot = ExpertBot(budget=11, candidates=4)
    bot.choose(state, 0, random.Random(0))
    assert bot.last_rollouts == 4 + 6  # whole samples only: 1 x 4, 3 x 2
    bot = ExpertBot(budget=0)
    choice = bot.choose(state, 0, random.Random(0))
    assert bot.last_rollouts == 0 and choice in legal_actions(state, 0)


def test_expert_stops_at_its_wall_clock_cap():
    state = _mid_match_state(11, "draft", 1)
    bot = ExpertBot(budget=10_000, candidates=4, time_cap_s=0.05)
    started = time.perf_counter()
    bot.choose(state, 0, random.Random(0))
    assert time.perf_counter() - started < 2.0
    assert 4 <= bot.last_rollouts < 10_000


def test_expert_rejects_a_seat_without_a_decision():
    state = _mid_match_state(13, "draft", 1)
    E.decide(state, 0, legal_actions(state, 0)[0], random.Random(0))
    waiting = [s for s in range(4) if s not in E.pending(state)]
    if not waiting:
        state = fold(E, E.decide(state, 0, legal_actions(state, 0)[0], random.Random(0)), state)
        waiting = [0]
    with pytest.raises(ValueError):
        E.bots["expert"].choose(state, waiting[0], random.Random(0))


def test_invalid_options_are_rejected():
    with pytest.raises(ValueError):
        ExpertBot(budget=-1)
    with pytest.raises(ValueError):
        ExpertBot(candidates=0)


# ---------------------------------------------------------------- 2-player and solo modes


def _mode_state(seats: int, seed: int, stop):
    """A ``seats``-seat match (1: solo, 2: 2-player mode) played by greedy bots up to the
    first state where ``stop(state)`` holds and seat 0 owes a decision."""
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, {})), rng))
    while not (0 in E.pending(state) and stop(state)):
        seat = min(E.pending(state))
        state = fold(
            E, E.decide(state, seat, E.bots["greedy"].choose(state, seat, rng), rng), state
        )
    return state


@pytest.mark.parametrize("seats,seed", [(1, 21), (1, 22), (2, 23)])
def test_expert_plays_whole_solo_and_2_player_matches_with_rollouts(seats, seed):
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, {})), rng))
    bot = ExpertBot(budget=4, candidates=2)
    kinds, rolled = set(), set()
    while E.result(state) is None:
        seat = min(E.pending(state))
        legal = legal_actions(state, seat)
        choice = bot.choose(state, seat, rng)
        assert choice in legal
        kind = E.pending(state)[seat]
        kinds.add(kind)
        if len(legal) > 1 and bot.last_rollouts:
            rolled.add(kind)
        state = fold(E, E.decide(state, seat, choice, rng), state)
    expected = {"choose_ai_side", "keep_reserve", "draft", "place"} | (
        {"discard"} if seats == 2 else set()
    )
    assert expected <= kinds
    assert expected <= rolled  # every such decision was looked ahead, none fell back


def test_solo_side_choice_weighs_several_sides_to_the_end_of_the_match():
    state = _mode_state(1, 24, lambda s: s.step == "setup")
    assert len(legal_actions(state, 0)) == 12
    bot = ExpertBot(budget=6, candidates=2, time_cap_s=60, cpu_cap_s=60)
    choice = bot.choose(state, 0, random.Random(0))
    assert choice["type"] == "choose_ai_side"
    # solo budget 4 x 6 = 24 rollouts, 6 sides, 3 halving rounds of 8:
    # 1 sample x 6 sides, 3 x the best 3, 4 x the best 2
    assert bot.last_rollouts == 6 + 9 + 8


def _solo_twisted(state):
    """The same solo match with the timer stack and the deck in another order."""
    other = E.load_state(E.dump_state(state))
    other.timer.reverse()
    other.deck.reverse()
    return other


@pytest.mark.parametrize("step,turn", [("draft", 2), ("place", 4)])
def test_solo_expert_does_not_read_the_timer_stack_order(step, turn, monkeypatch):
    from domain.games.ai_100_human import expert as X

    monkeypatch.setattr(X, "HORIZON_BUDGET_MODES", frozenset())  # fixed count below
    state = _mode_state(1, 25, lambda s: s.step == step and s.turn == turn)
    twisted = _solo_twisted(state)
    assert E.view(twisted, 0) == E.view(state, 0)
    assert twisted.timer != state.timer
    bot = ExpertBot(budget=12, candidates=3, time_cap_s=60, cpu_cap_s=60)
    assert bot.choose(twisted, 0, random.Random(5)) == bot.choose(state, 0, random.Random(5))
    assert bot.last_rollouts == 48  # solo 4 x 12: 8 x 3, then 12 x 2


@pytest.mark.parametrize("step,turn", [("draft", 2), ("discard", 3), ("place", 3)])
def test_2_player_expert_does_not_read_the_opponents_hand(step, turn):
    state = _mode_state(2, 26, lambda s: s.step == step and s.turn == turn)
    other = E.load_state(E.dump_state(state))
    hand, deck = other.seats[1].hand, other.deck
    k = min(2, len(hand))
    other.seats[1].hand = deck[:k] + hand[k:]  # opponent's hand swapped with the deck
    other.deck = hand[:k] + deck[k:]
    other.seats[1].reserve = list(reversed(other.seats[1].reserve))
    assert E.view(other, 0) == E.view(state, 0)
    assert other.seats[1].hand != state.seats[1].hand
    bot = ExpertBot(budget=12, candidates=3, time_cap_s=60, cpu_cap_s=60)
    assert bot.choose(other, 0, random.Random(6)) == bot.choose(state, 0, random.Random(6))
    assert bot.last_rollouts > 0


def test_solo_determinized_world_keeps_the_public_grid_and_deals_the_timer_stack():
    state = _mode_state(1, 27, lambda s: s.step == "draft" and s.turn == 3)
    v = view(state, 0)
    hidden = set(unseen_cards(v))
    assert not hidden & set(state.grid.values())
    assert set(state.timer) <= hidden and set(state.deck) <= hidden
    world = determinize(v, 0, random.Random(2))
    assert world.grid == state.grid and world.standee == state.standee
    assert world.dividers == state.dividers and world.tilted == state.tilted
    assert world.seats[0].reserve == state.seats[0].reserve
    assert len(world.timer) == len(state.timer) == 12  # 18 - 2 refills of 3 cards
    assert len(world.deck) == len(state.deck)
    assert set(world.timer) <= hidden and set(world.deck) <= hidden
    assert not set(world.timer) & set(world.deck)
    assert world.timer != state.timer


def test_2_player_determinized_world_keeps_the_neutral_grid_and_deals_the_opponents_hand():
    state = _mode_state(2, 28, lambda s: s.step == "draft" and s.turn == 2)
    v = view(state, 0)
    world = determinize(v, 0, random.Random(3))
    hidden = set(unseen_cards(v))
    assert world.mode == "duo" and world.neutral == state.neutral
    assert len(world.seats[1].hand) == len(state.seats[1].hand) == 6
    assert set(world.seats[1].hand) <= hidden and set(world.seats[1].reserve) <= hidden
    assert not set(world.seats[1].hand) & set(state.seats[0].hand)
    assert world.seats[0].hand == state.seats[0].hand


def test_apply_unchecked_then_advance_gives_the_events_of_decide():
    from domain.games.ai_100_human import flow, rules
    from domain.games.ai_100_human.recorder import Recorder
    from domain.games.ai_100_human.state import clone

    state = _mode_state(1, 29, lambda s: s.step == "place" and s.turn == 2)
    command = legal_actions(state, 0)[0]
    rec = Recorder(clone(state))
    rules.apply_unchecked(rec, 0, command)
    flow.advance(rec, random.Random(4))
    assert rec.events == E.decide(state, 0, command, random.Random(4))
    assert rec.events[0].type == "PlacementChosen"


# ---------------------------------------------------------------- solo look-ahead details


def _solo_with_side(side: str, seed: int, stop):
    """A solo match with AI side ``side``, played by greedy (never using AI-5) up to the
    first state where ``stop(state)`` holds."""
    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(1, E.validate_options(1, {})), rng))
    state = fold(E, E.decide(state, 0, {"type": "choose_ai_side", "card": side}, rng), state)
    while not stop(state):
        command = E.bots["greedy"].choose(state, 0, rng)
        if command["type"] == "use_ai5":
            command = next(o for o in legal_actions(state, 0) if o["type"] != "use_ai5")
        state = fold(E, E.decide(state, 0, command, rng), state)
    return state


def test_rollout_card_vp_cache_gives_the_scoring_engines_values():
    from domain.games.ai_100_human.expert import _card_vp_now
    from domain.games.ai_100_human.scoring import score_effect
    from domain.games.ai_100_human.tableau import placement_cells

    state = _mode_state(1, 31, lambda s: s.step == "place" and s.phase == 2 and s.turn == 3)
    own = state.seats[0].tableau
    nbrs = state.neighbour_tableaux(0)
    plain = [c for c in catalogue().phase_deck(2) if int(c) < 99][:12]
    checked = 0
    for card in plain + ["107", "111"]:
        for pos in placement_cells(own):
            expected = score_effect(card, {**own, pos: card}, pos, nbrs)
            assert _card_vp_now(state, 0, card, pos) == expected
            assert _card_vp_now(state, 0, card, pos) == expected  # cached answer
            checked += 1
    assert checked > 20


def test_solo_rollout_uses_ai5_on_the_last_turn_for_the_best_end_gain(monkeypatch):
    from domain.games.ai_100_human import expert as X
    from domain.games.ai_100_human.expert import _own_ai5
    from domain.games.ai_100_human.hacking import swap
    from domain.games.ai_100_human.scoring import score_ai_card, score_objective
    from domain.games.ai_100_human.state import cell

    early = _solo_with_side(
        "AI-5", 32, lambda s: s.phase == 2 and s.turn == 6 and s.step == "place"
    )
    assert _own_ai5(early, 0, random.Random(0)) is None  # only on the last turn
    state = _solo_with_side(
        "AI-5", 32, lambda s: s.phase == 2 and s.turn == 7 and s.step == "place"
    )
    s = state.seats[0]
    objective = state.objectives["2"]

    def end(tableau):
        return score_objective(objective, tableau) + score_ai_card("AI-5", tableau)

    gains = {
        tuple(map(tuple, o["cells"])): end(swap(s.tableau, *(cell(x) for x in o["cells"])))
        - end(s.tableau)
        for o in legal_actions(state, 0)
        if o["type"] == "use_ai5"
    }
    assert gains
    monkeypatch.setattr(X, "AI5_ROLLOUT_SWAPS", 10_000)  # every swap weighed
    chosen = _own_ai5(state, 0, random.Random(0))
    if max(gains.values()) <= 0:
        assert chosen is None
    else:
        assert chosen in legal_actions(state, 0)
        assert gains[tuple(map(tuple, chosen["cells"]))] == max(gains.values())
    # a rollout weighs AI5_ROLLOUT_SWAPS swaps drawn by its RNG: the best of those
    monkeypatch.setattr(X, "AI5_ROLLOUT_SWAPS", 3)
    options = [o for o in legal_actions(state, 0) if o["type"] == "use_ai5"]
    assert len(options) > 3
    drawn = random.Random(7).sample(options, 3)
    best_drawn = max(gains[tuple(map(tuple, o["cells"]))] for o in drawn)
    chosen = _own_ai5(state, 0, random.Random(7))
    if best_drawn <= 0:
        assert chosen is None
    else:
        assert chosen in drawn and gains[tuple(map(tuple, chosen["cells"]))] == best_drawn


def test_solo_rollout_uses_ai6_discarding_the_two_weakest_offered_cards():
    """AI-6: "you may draw 2 cards and add them to your reserve. Then discard any 2 cards
    from your hand." A solo rollout starts it (step 1) at its first own draft, then (step 2,
    the drawn cards in the reserve) discards the 2 offered cards of lowest immediate VP."""
    import random as _random

    from domain.games.ai_100_human.expert import _card_vp, _own_ai6, _own_ai6_discard
    from domain.games.ai_100_human.solo import ai6_offer
    from domain.games.ai_100_human.tableau import placement_cells

    state = _solo_with_side("AI-6", 33, lambda s: s.phase == 1 and s.step == "draft")
    offer = ai6_offer(state)
    assert len(offer) == 3
    memo = {}
    cells = placement_cells(state.seats[0].tableau)
    best = {c: max(_card_vp(state, 0, c, p, memo) for p in cells) for c in offer}
    chosen = _own_ai6(state, 0, memo)
    assert chosen == {"type": "use_ai6"} and chosen in legal_actions(state, 0)
    reserve = len(state.seats[0].reserve)
    drawn = fold(E, E.decide(state, 0, chosen, _random.Random(0)), state)
    assert E.pending(drawn) == {0: "ai6_discard"}
    assert len(drawn.seats[0].reserve) == reserve + 2
    assert _own_ai6(drawn, 0, memo) is None  # step 1 is done
    second = _own_ai6_discard(drawn, 0, _random.Random(0), memo)
    assert second in legal_actions(drawn, 0) and second["type"] == "ai6_discard"
    kept = next(c for c in offer if c not in second["cards"])
    assert best[kept] == max(best.values())
    used = fold(E, E.decide(drawn, 0, second, _random.Random(0)), drawn)
    assert E.pending(used) == {0: "draft"}
    assert _own_ai6(used, 0, {}) is None  # once per phase


def test_default_shortlist_and_cap_follow_the_mode(monkeypatch):
    from domain.games.ai_100_human import expert as X

    monkeypatch.setattr(X, "HORIZON_BUDGET_MODES", frozenset())  # fixed counts below
    from domain.games.ai_100_human.expert import DEFAULT_CANDIDATES, MODE_CANDIDATES

    assert MODE_CANDIDATES["solo"] > DEFAULT_CANDIDATES
    state = _mode_state(1, 35, lambda s: s.step == "place" and s.turn == 3)
    assert len(legal_actions(state, 0)) > MODE_CANDIDATES["solo"]
    bot = ExpertBot(budget=6, time_cap_s=60, cpu_cap_s=60)  # solo: 4 x 6 = 24 rollouts
    bot.choose(state, 0, random.Random(0))
    assert bot.last_rollouts == 6 + 9 + 8  # 6 candidates: 1x6, 3x3, 4x2
    bot = ExpertBot(budget=6, candidates=3, time_cap_s=60, cpu_cap_s=60)
    bot.choose(state, 0, random.Random(0))
    assert bot.last_rollouts == 12 + 12  # 3 candidates: 4x3, 6x2
    bot = ExpertBot(budget=5, time_cap_s=60, cpu_cap_s=60)  # 20 rollouts: 1x6, 2x3, 4x2
    bot.choose(state, 0, random.Random(0))
    assert bot.last_rollouts == 6 + 6 + 8


def test_successive_halving_keeps_the_better_half_each_round(monkeypatch):
    # 5 commands whose rollouts are worth 10, 50, 30, 40, 20 VP: 3 rounds of 40 rollouts
    # (ceil(log2 5)); the survivors are {1, 3, 2} after round 1 (best 3 of 5), {1, 3} after 2.
    from domain.games.ai_100_human import expert as X

    worth = {f"c{i}": v for i, v in enumerate((10, 50, 30, 40, 20))}
    played: list[str] = []
    monkeypatch.setattr(X, "determinize", lambda v, seat, rng: None)

    def fake_rollout(world, seat, command, rng, to_end=False):
        played.append(command["card"])
        return float(worth[command["card"]])

    monkeypatch.setattr(X, "rollout", fake_rollout)
    bot = ExpertBot(budget=120, time_cap_s=60, cpu_cap_s=60)
    values = bot._rollouts({}, 0, [{"card": c} for c in worth], random.Random(0), 120, 60, False)
    assert values[1] == 50 and values[3] == 40
    assert values[0] == values[2] == values[4] == float("-inf")
    # round 1: 40 // 5 = 8 samples of all 5; round 2: 40 // 3 = 13 samples of 3;
    # round 3: (120 - 40 - 39) // 2 = 20 samples of the last 2
    assert played.count("c0") == played.count("c4") == 8
    assert played.count("c2") == 8 + 13
    assert played.count("c1") == played.count("c3") == 8 + 13 + 20
    assert bot.last_rollouts == len(played) == 40 + 39 + 40


def test_affordable_cuts_the_budget_to_the_cpu_cap_at_the_rate_so_far():
    from domain.games.ai_100_human.expert import affordable

    assert affordable(120, 0, 0.0, 1.0) == 120  # nothing measured yet
    assert affordable(120, 5, 0.05, 0.505) == 50  # 10 ms per rollout, 0.505 s
    assert affordable(120, 5, 0.001, 1.0) == 120  # the cap does not bind
    assert affordable(120, 10, 5.0, 1.0) == 10  # never fewer than already spent
    assert affordable(120, 5, 0.05, math.inf) == 120  # no cap


def test_cpu_cap_shrinks_the_budget_and_every_halving_round_still_plays(monkeypatch):
    # the same 5 commands as above; a fake CPU clock advancing 10 ms per rollout and a
    # 0.505 s cap: after the first sample the budget becomes 50 (not 120), shared by the
    # 3 rounds: 3 samples of 5, then (50 - 15) // 2 // 3 = 5 of 3, then 10 of the last 2
    from domain.games.ai_100_human import expert as X

    worth = {f"c{i}": v for i, v in enumerate((10, 50, 30, 40, 20))}
    played: list[str] = []
    clock = [0.0]
    monkeypatch.setattr(X, "determinize", lambda v, seat, rng: None)
    monkeypatch.setattr(X.time, "thread_time", lambda: clock[0])

    def fake_rollout(world, seat, command, rng, to_end=False):
        played.append(command["card"])
        clock[0] += 0.01
        return float(worth[command["card"]])

    monkeypatch.setattr(X, "rollout", fake_rollout)
    bot = ExpertBot(budget=120, time_cap_s=60, cpu_cap_s=60)
    commands = [{"card": c} for c in worth]
    values = bot._rollouts({}, 0, commands, random.Random(0), 120, 60, False, 0.505)
    assert values[1] == 50 and values[3] == 40
    assert values[0] == values[2] == values[4] == float("-inf")
    assert played.count("c0") == played.count("c4") == 3
    assert played.count("c2") == 3 + 5
    assert played.count("c1") == played.count("c3") == 3 + 5 + 10
    assert bot.last_rollouts == len(played) == 50


def test_horizon_factor_gives_late_decisions_more_rollouts_for_the_same_work(monkeypatch):
    from domain.games.ai_100_human import expert as X

    monkeypatch.setattr(X, "HORIZON_BUDGET_MODES", frozenset({"solo"}))
    monkeypatch.setattr(X, "HORIZON_BUDGET_MAX", 6.0)
    solo = {"mode": "solo"}
    # rollouts to the end of the match: 14 turns from Phase 1 turn 1
    assert X.horizon_factor({**solo, "phase": 1, "turn": 1}, True) == 1.0
    assert X.horizon_factor({**solo, "phase": 1, "turn": 0}, True) == 1.0  # set-up
    assert X.horizon_factor({**solo, "phase": 1, "turn": 7}, True) == 14 / 8
    assert X.horizon_factor({**solo, "phase": 2, "turn": 1}, True) == 2.0
    assert X.horizon_factor({**solo, "phase": 2, "turn": 4}, True) == 3.5
    assert X.horizon_factor({**solo, "phase": 2, "turn": 7}, True) == 6.0  # capped (14)
    # a mode outside HORIZON_BUDGET_MODES keeps its budget
    assert X.horizon_factor({"mode": "standard", "phase": 2, "turn": 7}, False) == 1.0


def test_solo_expert_spends_the_horizon_budget():
    # Phase 2 turn 4: 4 turns left of 14 -> 3.5 x (4 x 6) = 84 rollouts, 6 candidates in
    # 3 halving rounds: 28 // 6 = 4 samples x 6, 30 // 3 = 10 x 3, 30 // 2 = 15 x 2
    from domain.games.ai_100_human import expert as X

    state = _mode_state(1, 36, lambda s: s.phase == 2 and s.step == "place" and s.turn == 4)
    assert "solo" in X.HORIZON_BUDGET_MODES
    assert len(legal_actions(state, 0)) > 6
    bot = ExpertBot(budget=6, time_cap_s=60, cpu_cap_s=60)
    bot.choose(state, 0, random.Random(0))
    assert bot.last_rollouts == 24 + 30 + 30
