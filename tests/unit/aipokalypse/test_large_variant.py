"""5-8 Player Variant: "add the basic cards from a second copy of A.I.Pokalypse to the game and
add the Ammo of the second copy after you have chosen your faction" — set-up counts at 5 and
8 seats, distinct ids, the seat-count dependent rules, full bot games, hidden information."""

from __future__ import annotations

import json
import random

import pytest

from domain.engine import InvalidCommand, Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.cards import SECOND_COPY_SUFFIX, CardDataError, catalogue, second_copy
from domain.games.aipokalypse.effects.choices import neighbours
from domain.games.aipokalypse.state import opponents_of
from tests.unit.aipokalypse.helpers import CAT, act
from tests.unit.aipokalypse.test_hidden_info import _secret_ids
from tests.unit.aipokalypse.toma_helpers import flow_ctx


def _start(seats, seed=5, **options):
    events = ENGINE.new_match(
        Setup(seats, ENGINE.validate_options(seats, options)), random.Random(seed)
    )
    return fold(ENGINE, events), events


def test_the_second_copy_has_its_own_ids_derived_from_the_data():
    cat = catalogue()
    assert len(cat.second_basic) == 102 and len(cat.second_faction) == 30
    assert cat.second_basic[16] == "B017" + SECOND_COPY_SUFFIX == "B017-2"
    twin = cat["B017-2"]
    assert (twin.name, twin.color, twin.value, twin.effects) == (
        cat["B017"].name,
        cat["B017"].color,
        cat["B017"].value,
        cat["B017"].effects,
    )
    every = (
        list(cat.basic)
        + list(cat.second_basic)
        + list(cat.special)
        + list(cat.faction)
        + list(cat.second_faction)
    )
    assert len(every) == len(set(every)) == 328
    assert "B017-2" in cat and "B017-3" not in cat
    with pytest.raises(CardDataError, match="second-copy id"):
        second_copy({"B1": cat["B001"], "B1-2": cat["B002"]}, ["B1"])


@pytest.mark.parametrize("seats", [5, 8])
def test_setup_counts_with_the_second_copy(seats):
    state, events = _start(seats)
    data = events[0].data
    assert data["second_copy"] is True and state.second_copy
    hands = [p.hand for p in state.players]
    assert [len(h) for h in hands] == [6] * seats
    assert len(state.draw) == 204 - 6 * seats  # 2 x 102 basic units
    assert [len(p.health) for p in state.players] == [6] * seats
    assert len(state.specials) == 64 - 6 * seats  # 16 left at 8 seats
    offered = [f for p in state.players for f in p.offered]
    assert len(offered) == len(set(offered)) == 2 * seats  # 30 factions: 16 needed at 8
    assert all(not f.endswith(SECOND_COPY_SUFFIX) for f in offered)
    assert len(state.ammo_deck) == 30 - 2 * seats  # no second-copy ammo yet
    every = state.draw + [c for h in hands for c in h]
    assert sorted(every) == sorted(CAT.basic + CAT.second_basic)
    # "add the Ammo of the second copy after you have chosen your faction"
    for seat in range(seats - 1):
        state, _ = act(
            state, seat, {"type": "choose_faction", "faction": state.players[seat].offered[0]}
        )
        assert len(state.ammo_deck) == 30 - 2 * seats + seat + 1
    state, events = act(
        state, seats - 1, {"type": "choose_faction", "faction": state.players[seats - 1].offered[1]}
    )
    added = next(e for e in events if e.type == "SecondCopyAmmoAdded")
    assert sorted(added.data["cards"]) == sorted(CAT.second_faction)
    assert ENGINE.redact(added, 0) == {"count": 30}
    assert state.ammo_deck[-30:] == added.data["cards"]  # under the ammo deck
    assert len(state.ammo_deck) >= 30 + 30 - seats - 2


def test_four_seats_play_one_copy():
    state, events = _start(4)
    assert not events[0].data.get("second_copy") and len(state.draw) == 102 - 24


def test_the_variant_follows_the_seat_count_not_an_option():
    assert ENGINE.validate_options(8, {}) == {
        "mode": "competitive",
        "expert": False,
        "health_order": "shuffled",
        "force_the_luck": False,
    }
    for bad in ({"mode": "large"}, {"mode": "coop"}):
        with pytest.raises(InvalidCommand):
            ENGINE.validate_options(6, bad)
    with pytest.raises(InvalidCommand):
        ENGINE.validate_options(9, {})


def test_expert_draft_at_eight_seats_passes_left_around_the_table():
    state, _ = _start(8, expert=True)
    assert [len(p.packet) for p in state.players] == [7] * 8  # 56 of 64 Special Units
    packets = [list(p.packet) for p in state.players]
    for seat in range(8):
        state, _ = act(state, seat, {"type": "draft_special", "special": sorted(packets[seat])[0]})
    assert sorted(state.players[0].packet) == sorted(set(packets[7]) - {sorted(packets[7])[0]})
    assert sorted(state.players[5].packet) == sorted(set(packets[4]) - {sorted(packets[4])[0]})


def test_neighbours_and_opponents_at_seven_seats():
    state, _ = _start(7, force_the_luck=True)
    ctx = flow_ctx(state)
    assert neighbours(ctx, 0) == [1, 6] and neighbours(ctx, 6) == [0, 5]
    assert opponents_of(state, 3) == [4, 5, 6, 0, 1, 2]
    state.players[1].eliminated = True
    assert neighbours(flow_ctx(state), 0) == [2, 6]
    assert all(f not in state.ammo_deck for f in state.players[0].table_factions)


def _play(seed, seats, levels=("random", "tactician")):
    secret = seed.to_bytes(8, "big")
    events = ENGINE.new_match(
        Setup(seats, ENGINE.validate_options(seats, {})), derive_rng(secret, 0)
    )
    state = fold(ENGINE, events)
    log = [(e, ENGINE.load_state(ENGINE.dump_state(state))) for e in events]
    rng = random.Random(seed)
    for _ in range(12000):
        if ENGINE.result(state) is not None:
            return state, log
        seat = rng.choice(sorted(ENGINE.pending(state)))
        cmd = ENGINE.bots[levels[seat % len(levels)]].choose(state, seat, rng)
        assert cmd in ENGINE.legal_actions(state, seat)
        for e in ENGINE.decide(state, seat, cmd, derive_rng(secret, len(log))):
            state = ENGINE.evolve(state, e)
            log.append((e, ENGINE.load_state(ENGINE.dump_state(state))))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seats,seed", [(5, 11), (8, 12)])
def test_a_full_random_bot_game_with_the_second_copy_ends(seats, seed):
    state, log = _play(seed, seats, levels=("random",))
    result = ENGINE.result(state)
    assert (
        result["reason"] in ("elimination", "aipokalypse", "alternative_win") and result["winners"]
    )
    assert sorted(r["seat"] for r in result["ranking"]) == list(range(seats))
    assert fold(ENGINE, [e for e, _ in log]) == state
    assert state.round >= 2
    cards = set(catalogue().cards) | set(catalogue().copies)
    seen = set(state.draw) | set(state.discard)
    for p in state.players:
        seen |= set(p.hand) | {s.unit for s in p.slots if s.unit} | {s.card for s in p.slots}
    assert seen <= cards and any(c.endswith(SECOND_COPY_SUFFIX) for c in seen)


def test_hidden_information_at_eight_seats():
    _, log = _play(13, 8)
    ids = list(catalogue().cards) + list(catalogue().copies)
    for viewer in (None, 0, 5):
        for index, (event, after) in enumerate(log[:900]):
            if event.type in ("ChoiceRequested", "ChoiceMade") and event.seat == viewer:
                continue  # a chooser sees its options (Prayers of Elex: the deck)
            before = log[index - 1][1] if index else after
            text = json.dumps(ENGINE.redact(event, viewer, after))
            leaked = {c for c in ids if f'"{c}"' in text}
            secret = _secret_ids(before, viewer) & _secret_ids(after, viewer)
            assert not (leaked & secret), (viewer, event.type, leaked & secret)
        for _, snap in log[::40]:
            text = json.dumps(ENGINE.view(snap, viewer))
            for seat, p in enumerate(snap.players):
                for c in p.health:
                    assert f'"{c}"' not in text
                if seat != viewer:  # (the discard pile as shown since the phase began)
                    seen = set((p.public or {}).get("pool", [])) | set(
                        (snap.table_public or {}).get("discard", [])
                    )
                    for c in p.hand:
                        assert f'"{c}"' not in text or c in snap.discard or c in seen


def test_the_first_battle_at_eight_seats_deals_every_seat_its_battle_stack():
    state, log = _play(14, 8)
    start = next(i for i, (e, _) in enumerate(log) if e.type == "BattleStarted")
    count = log[start][0].data["cards"]
    after = log[start][1]
    most = max(sum(1 for s in p.slots if s.unit) for p in after.players)
    assert count == most > 0  # "as many ... as the units of the player with the most"
    drawn = {}
    for e, _ in log[start + 1 :]:
        if e.type != "CardsDrawn" or e.data["to"] != "stack":
            break
        drawn[e.seat] = drawn.get(e.seat, 0) + len(e.data["cards"])
    assert drawn == {seat: count for seat in range(8)}
