"""The ``toma_hunter`` bot (:mod:`domain.games.aipokalypse.hunter`): it plays solo and co-op
games against the A.I.Toma to the end with legal commands only, decides from its own seat's
view (hidden cards can be shuffled without changing a decision), wins a point as cheaply as
the rulebook's reactions allow, and beats the tactician on the same seeds."""

from __future__ import annotations

import random

import pytest

from domain.engine import Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE, battle
from domain.games.aipokalypse.bots import BOTS, TacticianBot
from domain.games.aipokalypse.hunter import TomaHunterBot
from domain.games.aipokalypse.spec import DIFFICULTIES
from tests.unit.aipokalypse.helpers import hand, one, put
from tests.unit.aipokalypse.test_toma_playout import _check_result, play
from tests.unit.aipokalypse.toma_helpers import basic, current, toma, toma_table

HUNTER = BOTS["toma_hunter"]
B3, B1 = basic("blue", 3)[0], basic("blue", 1)[0]


@pytest.mark.parametrize("difficulty", sorted(DIFFICULTIES))
def test_the_hunter_plays_solo_and_coop_to_the_end_with_legal_commands(difficulty):
    # play() asserts that every command is one of legal_actions
    state, _ = play(
        3 + len(difficulty), ["toma_hunter"], {"mode": "solo", "difficulty": difficulty}
    )
    _check_result(state, 1)
    state, _ = play(
        5 + len(difficulty),
        ["toma_hunter", "toma_hunter"],
        {"mode": "coop", "difficulty": difficulty},
    )
    _check_result(state, 2)


def _hidden_shuffled(state: dict, seat: int, seed: int) -> dict:
    """``state`` with everything ``seat`` may not see reordered or swapped: the draw pile, the
    Special deck, every health stack (the A.I.Toma's too, with the Special deck's cards) and
    the other seats' hands (with the draw pile's cards)."""
    s = ENGINE.load_state(ENGINE.dump_state(state))
    rng = random.Random(seed)
    hidden = list(s.specials) + [c for p in s.players for c in p.health]
    rng.shuffle(hidden)
    s.specials = hidden[: len(s.specials)]
    rest = hidden[len(s.specials) :]
    for p in s.players:
        p.health, rest = rest[: len(p.health)], rest[len(p.health) :]
    unseen = list(s.draw) + [c for k, p in enumerate(s.players) if k != seat for c in p.hand]
    rng.shuffle(unseen)
    s.draw, unseen = unseen[: len(s.draw)], unseen[len(s.draw) :]
    for k, p in enumerate(s.players):
        if k != seat:
            p.hand, unseen = unseen[: len(p.hand)], unseen[len(p.hand) :]
    return s


def test_the_hunter_decides_from_its_own_view_only():
    # A co-op game: at every decision of seat 0 the same command comes out when the cards it
    # cannot see (deck orders, every health stack, the partner's hand) are shuffled.
    state, log = play(12, ["toma_hunter", "toma_hunter"], {"mode": "coop", "difficulty": "boss"})
    checked = 0
    for _, snap in log[::2]:  # (a hidden command is one event, R-HIDDEN-BATCH)
        if 0 not in ENGINE.pending(snap) or snap.phase == "ended":
            continue
        mine = HUNTER.choose(snap, 0, random.Random(1))
        for k in range(2):
            assert HUNTER.choose(_hidden_shuffled(snap, 0, k), 0, random.Random(1)) == mine
        checked += 1
    assert checked >= 20


def _point(
    human_pos: int, human_card: str, toma_card: str, hand_cards=(), ammo: int = 0, stack: int = 2
):
    """Solo point: the A.I.Toma's blue 3 + blue 1 unit (4) fights with ``toma_card``; the human's
    Recruit (blue) at scale index ``human_pos`` with ``human_card``; cards still to come:
    ``stack``."""
    state = toma_table(piles=[[B3, B1]])
    slot = put(state, 0, one("Recruit"), human_pos)
    current(state, 0, human_card, slot, True)
    current(state, 1, toma_card, 0, True)
    hand(state, 0, *hand_cards)
    state.players[0].ammo = [state.ammo_deck.pop(0) for _ in range(ammo)]
    for seat in (0, 1):
        state.players[seat].stack = [state.draw.pop() for _ in range(stack)]
    state.players[0].ready = True
    return state


def test_the_hunter_plays_the_card_that_levels_and_then_one_ammo_instead_of_three_ammo():
    # Toma 4 + blue 4 = 8; human 3 + blue 1 = 4. Blue 5 from hand makes 8 (level: one ammo
    # more wins, 0.5 + 1.5); three ammo (10) would cost 4.5 and exceed the 2 per point.
    b5 = basic("blue", 5)[0]
    state = _point(2, basic("blue", 1)[0], basic("blue", 4)[0], (b5,), ammo=3)
    assert battle.strengths(state) == {0: 4, 1: 8}
    assert HUNTER.choose(state, 0, random.Random(0)) == {"type": "react_card", "card": b5}


def test_the_hunter_passes_a_point_it_cannot_win_within_its_ammo():
    # Toma 4 + blue 5 = 9 against 3 + 1 = 4: a blue 2 makes 5; 2 ammo (9) only level, 3 are
    # more than it spends on a point that is not the last one
    state = _point(
        2, basic("blue", 1)[0], basic("blue", 5)[0], (basic("blue", 2, 1, 1)[0],), ammo=3
    )
    assert battle.strengths(state) == {0: 4, 1: 9}
    assert HUNTER.choose(state, 0, random.Random(0)) == {"type": "pass"}
    state = _point(
        2, basic("blue", 1)[0], basic("blue", 5)[0], (basic("blue", 2, 1, 1)[0],), ammo=3, stack=0
    )
    assert HUNTER.choose(state, 0, random.Random(0)) == {
        "type": "react_ammo",
        "count": 3,
    }  # the last point


def test_the_hunter_chooses_factions_that_give_ammo():
    hunter = TomaHunterBot(fallback=TacticianBot())
    assert hunter._faction_score(one("Rust Nomads")) > hunter._faction_score(one("Megaton"))
    assert hunter._faction_score(one("Sky Harbor")) > hunter._faction_score(one("Erit Lux"))


def test_the_hunter_plays_as_the_tactician_in_the_competitive_game_and_needs_a_fallback():
    events = ENGINE.new_match(Setup(2, ENGINE.validate_options(2, {})), derive_rng(b"c", 0))
    state = fold(ENGINE, events)
    assert HUNTER.choose(state, 0, random.Random(0)) == BOTS["tactician"].choose(
        state, 0, random.Random(0)
    )
    with pytest.raises(ValueError):
        TomaHunterBot().choose(state, 0, random.Random(0))
    with pytest.raises(ValueError):
        TomaHunterBot(fallback=TacticianBot(), speed=3)


def test_the_hunter_beats_the_tactician_against_the_handy_man_on_the_same_seeds():
    wins = {"toma_hunter": 0, "tactician": 0}
    for seed in range(24):
        for level in wins:
            state, _ = play(1000 + seed, [level], {"mode": "solo", "difficulty": "handy_man"})
            wins[level] += ENGINE.result(state)["outcome"] == "won"
    assert wins["toma_hunter"] > wins["tactician"], wins


def test_the_toma_view_shows_what_the_hunter_reads_of_the_toma():
    # its units' strengths (pile blue 3 + blue 1 = 4), its ammo and the strength of its ammo
    # (no ammo-gain symbol revealed: 1), its revealed battle card
    state = toma_table(piles=[[B3, B1]])
    toma(state).ammo = [state.ammo_deck.pop(0)]
    current(state, 1, basic("blue", 4)[0], 0, True)
    seen = ENGINE.view(state, 0)["toma"]
    assert [s["strength"] for s in seen["slots"]] == [4]
    assert (
        seen["ammo"] == 1
        and seen["ammo_strength"] == 1
        and seen["current"]["card"] == basic("blue", 4)[0]
    )
