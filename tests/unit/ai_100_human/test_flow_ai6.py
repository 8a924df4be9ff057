"""AI-6 in two steps (rulebook "AI Cards Details" AI-6: "Each phase, you may draw 2 cards and
add them to your reserve. Then discard any 2 cards from your hand. Flip over your AI token;
you can only trigger this effect once per phase. At the start of phase 2, return your AI
token to its active side."). Rulings R-AI6-STEPS, R-AI6-HAND, R-AI6-TIMEOUT, R-HIDDEN."""

from __future__ import annotations

import random

import pytest

from domain.engine import Event, fold
from domain.games.ai_100_human.bots import GreedyBot
from domain.games.ai_100_human.expert import ExpertBot

from .test_flow_support import E, given, play_match, run, state_of, types, when

HANDS = {
    0: ["031", "033", "035", "037"],
    1: ["039", "041", "043", "045"],
    2: ["047", "049", "050", "051"],
}
DECK = ["061", "063", "065"]


def ai6_state(hands=None, deck=None, **kw):
    return state_of(
        given(
            ai=["AI-6", "AI-3", "AI-1"],
            hands=hands or HANDS,
            reserves={0: ["001", "003"], 1: ["005"], 2: ["007"]},
            deck=list(DECK if deck is None else deck),
            **kw,
        )
    )


def test_step_one_draws_2_cards_into_the_reserve_before_any_discard():
    """ "you may draw 2 cards and add them to your reserve": ``use_ai6`` names no discard;
    the 2 top cards of the phase deck are recorded in the event and go to the reserve."""
    state = ai6_state()
    assert {"type": "use_ai6"} in E.legal_actions(state, 0)
    assert {"type": "use_ai6"} not in E.legal_actions(state, 1)  # AI-3 has no power
    state, out = run(state, [(0, {"type": "use_ai6"})])
    assert [(e.type, e.seat, dict(e.data)) for e in out] == [
        ("AIPowerUsed", 0, {"power": "draw_two", "ai_card": "AI-6", "drawn": ["061", "063"]})
    ]
    assert state.seats[0].reserve == ["001", "003", "061", "063"]
    assert state.seats[0].hand == HANDS[0]  # nothing discarded yet
    assert state.deck == ["065"]
    assert E.pending(state)[0] == "ai6_discard"


def test_step_two_lists_every_pair_of_hand_cards_and_nothing_else():
    """ "Then discard any 2 cards from your hand": the choice comes after the draw, from
    the hand only (the drawn cards are in the reserve, not the hand)."""
    state, _ = run(ai6_state(), [(0, {"type": "use_ai6"})])
    legal = E.legal_actions(state, 0)
    assert legal == [
        {"type": "ai6_discard", "cards": [a, b]}
        for i, a in enumerate(HANDS[0])
        for b in HANDS[0][i + 1 :]
    ]
    assert len(legal) == 6  # C(4, 2)
    for command, code in [
        ({"type": "draft", "card": "031"}, "wrong_step"),
        ({"type": "use_ai6"}, "wrong_step"),
        ({"type": "ai6_discard", "cards": ["031", "061"]}, "card_not_in_hand"),
        ({"type": "ai6_discard", "cards": ["001", "003"]}, "card_not_in_hand"),
    ]:
        with pytest.raises(Exception) as err:
            when(state, 0, command)
        assert err.value.code == code
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "ai6_discard", "cards": ["031"]})
    assert err.value.code == "invalid_command"


def test_step_two_discards_the_chosen_hand_cards_then_the_seat_drafts():
    state, _ = run(ai6_state(), [(0, {"type": "use_ai6"})])
    state, out = run(state, [(0, {"type": "ai6_discard", "cards": ["037", "031"]})])
    assert [(e.type, e.seat, dict(e.data)) for e in out] == [
        (
            "PowerCardsDiscarded",
            0,
            {"power": "draw_two", "ai_card": "AI-6", "cards": ["031", "037"]},
        )
    ]
    assert state.seats[0].hand == ["033", "035"]
    assert state.seats[0].reserve == ["001", "003", "061", "063"]
    assert E.pending(state)[0] == "draft"
    assert E.legal_actions(state, 0) == [
        {"type": "draft", "card": "033"},
        {"type": "draft", "card": "035"},
    ]
    state, out = run(
        state, [(s, {"type": "draft", "card": HANDS[s][0] if s else "033"}) for s in range(3)]
    )
    assert "HandsPassed" in types(out)
    assert [len(s.hand) for s in state.seats] == [3, 1, 3]  # seat 0's short hand went left
    assert E.pending(state) == {0: "place", 1: "place", 2: "place"}


def test_once_per_phase_and_the_token_returns_at_phase_2():
    """ "you can only trigger this effect once per phase. At the start of phase 2, return
    your AI token to its active side"."""
    state, _ = run(
        ai6_state(),
        [(0, {"type": "use_ai6"}), (0, {"type": "ai6_discard", "cards": ["031", "033"]})],
    )
    assert {"type": "use_ai6"} not in E.legal_actions(state, 0)
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "use_ai6"})
    assert err.value.code == "power_used"
    with pytest.raises(Exception) as err:
        when(state, 1, {"type": "use_ai6"})
    assert err.value.code == "not_your_power"
    state = E.evolve(state, Event("PhaseStarted", {"phase": 2}))
    assert state.seats[0].ai6_used is False and state.seats[0].ai6_discarding is False


def test_a_hand_of_exactly_2_cards_may_use_it_and_then_drafts_nothing():
    """R-AI6-HAND: "discard any 2 cards from your hand" can be paid with 2 hand cards; the
    hand is then empty, so the seat drafts nothing this turn (R-LAST) and places as usual."""
    hands = {0: ["031", "033"], 1: ["039", "041"], 2: ["047", "049"]}
    state = ai6_state(hands=hands, turn=6)
    assert E.legal_actions(state, 0) == [
        {"type": "draft", "card": "031"},
        {"type": "draft", "card": "033"},
        {"type": "use_ai6"},
    ]
    state, _ = run(state, [(0, {"type": "use_ai6"})])
    assert E.legal_actions(state, 0) == [{"type": "ai6_discard", "cards": ["031", "033"]}]
    state, _ = run(state, [(0, {"type": "ai6_discard", "cards": ["031", "033"]})])
    assert state.seats[0].hand == [] and 0 not in E.pending(state)
    state, out = run(
        state, [(1, {"type": "draft", "card": "039"}), (2, {"type": "draft", "card": "047"})]
    )
    assert E.pending(state)[0] == "place"
    assert [len(s.hand) for s in state.seats] == [1, 0, 1]  # the empty hand went left


def test_fewer_than_2_hand_cards_cannot_start_it():
    """R-AI6-HAND (the book is silent): with fewer than 2 hand cards the 2 discards cannot
    be paid, so AI-6 is not offered and ``use_ai6`` answers ``hand_too_small``."""
    state = ai6_state(hands={0: ["031"], 1: ["039"], 2: ["047"]}, turn=7)
    assert E.legal_actions(state, 0) == [{"type": "draft", "card": "031"}]
    with pytest.raises(Exception) as err:
        when(state, 0, {"type": "use_ai6"})
    assert err.value.code == "hand_too_small"


def test_a_short_deck_draws_what_it_holds():
    state, out = run(ai6_state(deck=["061"]), [(0, {"type": "use_ai6"})])
    assert out[0].data["drawn"] == ["061"] and state.deck == []
    assert E.pending(state)[0] == "ai6_discard"  # the discard is still owed


def test_both_steps_are_hidden_from_the_other_seats():
    """R-HIDDEN: others and spectators learn that AI-6 was used (the token flips) and how
    many cards were drawn and discarded, never which."""
    state = ai6_state()
    state, first = run(state, [(0, {"type": "use_ai6"})])
    state, second = run(state, [(0, {"type": "ai6_discard", "cards": ["031", "033"]})])
    secret = {"061", "063", "031", "033", "035", "037"}
    for viewer in (1, 2, None):
        assert E.redact(first[0], viewer) == {
            "power": "draw_two",
            "ai_card": "AI-6",
            "drawn_count": 2,
        }
        assert E.redact(second[0], viewer) == {"power": "draw_two", "ai_card": "AI-6", "count": 2}
        assert not secret & set(map(str, _strings(E.view(state, viewer))))
    assert E.redact(first[0], 0) == dict(first[0].data)
    assert E.redact(second[0], 0) == dict(second[0].data)
    assert E.view(state, 0)["you"]["reserve"] == ["001", "003", "061", "063"]


def test_the_pending_discard_is_public_but_not_its_cards():
    state, _ = run(ai6_state(), [(0, {"type": "use_ai6"})])
    for viewer in (1, None):
        view = E.view(state, viewer)
        assert view["seats"][0]["pending"] == "ai6_discard"
        assert view["seats"][0]["reserve_count"] == 4 and view["seats"][0]["hand_count"] == 4
        assert not {"061", "063", *HANDS[0]} & _strings(view)


def test_replay_and_snapshot_reproduce_the_two_steps():
    """The draw is read from the recorded deck (not the RNG): any seed gives the same
    events, folding them again gives the same state, and a snapshot taken between the two
    steps still owes the discard."""
    state = ai6_state()
    a = when(state, 0, {"type": "use_ai6"}, seed=1)
    b = when(state, 0, {"type": "use_ai6"}, seed=99)
    assert [(e.type, e.data) for e in a] == [(e.type, e.data) for e in b]
    events = given(
        ai=["AI-6", "AI-3", "AI-1"],
        hands=HANDS,
        reserves={0: ["001", "003"], 1: ["005"], 2: ["007"]},
        deck=list(DECK),
    )
    mid = fold(E, events + a)
    snap = E.load_state(E.dump_state(mid))
    assert snap.seats[0].ai6_discarding is True and E.pending(snap)[0] == "ai6_discard"
    c = when(snap, 0, {"type": "ai6_discard", "cards": ["031", "035"]})
    again = fold(E, events + a + c)
    assert E.dump_state(again) == E.dump_state(fold(E, c, snap))


def test_a_log_of_the_former_one_step_ai6_still_folds():
    state = ai6_state()
    old = Event(
        "AIPowerUsed",
        {
            "power": "draw_two",
            "ai_card": "AI-6",
            "drawn": ["061", "063"],
            "discarded": ["031", "035"],
        },
        0,
    )
    state = E.evolve(state, old)
    assert state.seats[0].hand == ["033", "037"] and not state.seats[0].ai6_discarding
    assert E.pending(state)[0] == "draft"
    assert E.redact(old, 1) == {
        "power": "draw_two",
        "ai_card": "AI-6",
        "drawn_count": 2,
        "discarded_count": 2,
    }


def test_greedy_uses_it_then_discards_its_two_weakest_hand_cards():
    """The greedy bot: step 1 at the first chance while the deck holds 2 cards, step 2 the
    two hand cards of lowest best immediate VP. (Until issue 17 it was the timeout policy;
    the timeout, ``idle``, never starts AI-6: test_timeout_policy.py, R-AI6-TIMEOUT.)"""
    greedy = GreedyBot()
    state = ai6_state()
    assert greedy.choose(state, 0, random.Random(0)) == {"type": "use_ai6"}
    state, _ = run(state, [(0, {"type": "use_ai6"})])
    from domain.games.ai_100_human.bots import _Seen

    seen = _Seen(E.view(state, 0), 0)
    chosen = greedy.choose(state, 0, random.Random(0))
    weakest = min(
        E.legal_actions(state, 0), key=lambda o: sum(seen.potential(c) for c in o["cards"])
    )
    assert chosen == weakest
    kept = [c for c in HANDS[0] if c not in chosen["cards"]]
    assert max(seen.potential(c) for c in kept) == max(seen.potential(c) for c in HANDS[0])


def test_greedy_does_not_draw_from_a_deck_short_of_2_cards():
    assert GreedyBot().choose(ai6_state(deck=["061"]), 0, random.Random(0))["type"] == "draft"


@pytest.mark.parametrize("level", ["random", "greedy", "expert", "idle"])
def test_every_bot_answers_both_steps_with_a_legal_command(level):
    bot = ExpertBot(budget=8) if level == "expert" else E.bots[level]
    state = ai6_state()
    assert bot.choose(state, 0, random.Random(3)) in E.legal_actions(state, 0)
    state, _ = run(state, [(0, {"type": "use_ai6"})])
    assert bot.choose(state, 0, random.Random(3)) in E.legal_actions(state, 0)


def test_expert_shortlists_ai6_and_rolls_out_its_discard_after_the_draw():
    """The expert's prior puts step 1 first (the best card is still drafted after it), so
    rollouts weigh it against the drafts; step 2 is decided by rollouts that know the drawn
    cards."""
    from domain.games.ai_100_human.expert import Prior

    state = ai6_state()
    prior = Prior(E.view(state, 0), 0)
    ranked = sorted(E.legal_actions(state, 0), key=prior.of, reverse=True)
    assert ranked[0] == {"type": "use_ai6"}
    state, _ = run(state, [(0, {"type": "use_ai6"})])
    bot = ExpertBot(budget=16)
    assert bot.choose(state, 0, random.Random(5)) in E.legal_actions(state, 0)
    assert bot.last_rollouts > 0


def test_full_matches_play_both_steps_and_replay_to_the_same_state():
    """Seeded random matches (4 seats) in which AI-6 is used: each use is followed by its
    seat's discard before that seat drafts, and folding the log again gives the state."""
    uses = 0
    for seed in range(40):
        state, events = play_match(4, seed, "random")
        used = [
            i
            for i, e in enumerate(events)
            if e.type == "AIPowerUsed" and e.data["power"] == "draw_two"
        ]
        for i in used:
            seat = events[i].seat
            after = [e for e in events[i + 1 :] if e.seat == seat]
            assert after[0].type == "PowerCardsDiscarded"
            assert len(after[0].data["cards"]) == 2
        uses += len(used)
        assert E.dump_state(fold(E, events)) == E.dump_state(state)
        if uses >= 3:
            break
    assert uses >= 3


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set(map(str, obj)) | {s for v in obj.values() for s in _strings(v)}
    if isinstance(obj, (list, tuple)):
        return {s for v in obj for s in _strings(v)}
    return set()
