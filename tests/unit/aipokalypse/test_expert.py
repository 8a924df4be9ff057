"""The ``expert`` bot and the estimator of A.I.Pokalypse (issue 23): legal commands only,
deterministic for a seed, within its budget, options checked, and decisions and estimates
read from the seat's view only (hidden parts replaced consistently change nothing).

Positions come from seeded tactician matches played through the engine API; hidden parts
are replaced on the dumped form (``dump_state`` / ``load_state``)."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from domain.engine import InvalidBotOptions, Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.bots import POLICIES
from domain.games.aipokalypse.determinize import cards_in, sample_world
from domain.games.aipokalypse.expert import (
    SOLO_BUDGET_FACTOR,
    TOMA_WEIGHTS,
    Estimator,
    ExpertBot,
    board_strength,
    shortlist,
    toma_features,
    value_of,
)

SMALL = {"budget": 6, "time_budget_ms": 10000}
ROOT = Path(__file__).resolve().parents[3]


def _position(seats: int, options: dict, want, seed: str = "expert", level: str = "tactician"):
    """``(state, seat)``: the first position of a seeded ``level`` match where the lowest
    pending seat has at least 2 legal commands and ``want(view)`` holds."""
    key = f"{seed}:{seats}".encode()
    events = ENGINE.new_match(
        Setup(seats, ENGINE.validate_options(seats, options)), derive_rng(key, 0)
    )
    state, count, rng = fold(ENGINE, events), len(events), random.Random(1)
    while ENGINE.result(state) is None:
        seat = min(ENGINE.pending(state))
        if len(ENGINE.legal_actions(state, seat)) >= 2 and want(ENGINE.view(state, seat)):
            return state, seat
        new = ENGINE.decide(
            state, seat, ENGINE.bots[level].choose(state, seat, rng), derive_rng(key, count)
        )
        count += len(new)
        state = fold(ENGINE, new, state)
    raise AssertionError("no such position")


def _recruiting(v):
    return v["phase"] == "recruitment" and v["round"] >= 2


def _battling(v):
    return v["phase"] == "battle" and v["choice"] is None


def _replace_hidden(state, seat: int, seed: int):
    """The same position for ``seat`` with its hidden parts arranged otherwise: the draw
    pile, Special Units deck and ammo deck reshuffled, every health stack reordered, and a
    card of each other seat's hand swapped with one of the draw pile."""
    rng = random.Random(seed)
    data = ENGINE.dump_state(state)
    for pile in ("draw", "specials", "ammo_deck"):
        rng.shuffle(data[pile])
    for index, player in enumerate(data["players"]):
        rng.shuffle(player["health"])
        if index != seat and player.get("hand") and data["draw"]:
            i, j = rng.randrange(len(player["hand"])), rng.randrange(len(data["draw"]))
            player["hand"][i], data["draw"][j] = data["draw"][j], player["hand"][i]
    return ENGINE.load_state(data)


def test_the_expert_is_listed_with_its_options():
    assert "expert" in ENGINE.bots
    schema = ENGINE.bot_options_schema["expert"]
    assert set(schema["properties"]) == {"budget", "candidates", "time_budget_ms"}
    assert schema["additionalProperties"] is False
    bot = ENGINE.make_bot("expert", {"budget": 8, "time_budget_ms": 300})
    assert (bot.budget, bot.time_cap_s) == (8, 0.3) and bot is not ENGINE.bots["expert"]
    assert ENGINE.make_bot("expert", {}) is ENGINE.bots["expert"]


@pytest.mark.parametrize(
    "options",
    [{"budget": -1}, {"budget": "8"}, {"depth": 2}, {"time_budget_ms": 10}, {"candidates": 0}],
)
def test_bad_expert_options_are_invalid_bot_options(options):
    with pytest.raises(InvalidBotOptions) as caught:
        ENGINE.make_bot("expert", options)
    assert caught.value.code == "invalid_bot_options"


def test_an_expert_match_plays_legal_commands_to_the_end_within_its_budget():
    bot = ENGINE.make_bot("expert", SMALL)
    key = b"expert-match"
    events = ENGINE.new_match(Setup(2, ENGINE.validate_options(2, {})), derive_rng(key, 0))
    state, count, rng = fold(ENGINE, events), len(events), random.Random(3)
    searched = 0
    while ENGINE.result(state) is None:
        seat = min(ENGINE.pending(state))
        legal = ENGINE.legal_actions(state, seat)
        if seat == 0:
            command = bot.choose(state, seat, rng)
            assert command in legal
            assert bot.last_rollouts <= SMALL["budget"]
            searched += bot.last_rollouts > 0
        else:
            command = ENGINE.bots["tactician"].choose(state, seat, rng)
        new = ENGINE.decide(state, seat, command, derive_rng(key, count))
        count += len(new)
        state = fold(ENGINE, new, state)
    assert ENGINE.result(state)["winners"]
    assert searched >= 5  # it searched, not only followed the policy


@pytest.mark.parametrize("want", [_recruiting, _battling])
def test_the_expert_decides_the_same_for_a_seed_and_hidden_parts_replaced(want):
    state, seat = _position(2, {}, want)
    bot = ExpertBot(POLICIES, budget=9, time_cap_s=100.0)
    first = bot.choose(state, seat, random.Random(11))
    assert 0 < bot.last_rollouts <= 9
    assert bot.choose(state, seat, random.Random(11)) == first
    for seed in (1, 2):
        assert bot.choose(_replace_hidden(state, seat, seed), seat, random.Random(11)) == first


def test_the_expert_plays_solo_against_the_toma_with_toma_hunter_rollouts():
    state, seat = _position(
        1, {"mode": "solo", "difficulty": "boss"}, _recruiting, level="toma_hunter"
    )
    bot = ExpertBot(POLICIES, budget=6, time_cap_s=100.0)
    command = bot.choose(state, seat, random.Random(2))
    assert command in ENGINE.legal_actions(state, seat)
    # solo: twice the budget (SOLO_BUDGET_FACTOR), 3 candidates x 4 samples
    assert SOLO_BUDGET_FACTOR == 2 and bot.last_rollouts == 12


def test_a_budget_of_zero_plays_the_tacticians_choice():
    state, seat = _position(2, {}, _recruiting)
    bot = ExpertBot(POLICIES, budget=0)
    assert bot.choose(state, seat, random.Random(4)) == ENGINE.bots["tactician"].choose(
        state, seat, random.Random(random.Random(4).getrandbits(64))
    )
    assert bot.last_rollouts == 0


def test_the_shortlist_keeps_the_policy_choice_first_and_one_of_each_kind():
    actions = [
        {"type": "open_slot", "card": "B004"},
        {"type": "discard", "card": "B004"},
        {"type": "recruit", "card": "B006", "slot": 0},
        {"type": "recruit", "card": "B007", "slot": 0},
        {"type": "ready"},
    ]
    first = {"type": "recruit", "card": "B007", "slot": 0}
    assert shortlist(actions, first, 4) == [
        first,
        {"type": "recruit", "card": "B006", "slot": 0},
        {"type": "open_slot", "card": "B004"},
        {"type": "ready"},
    ]
    assert shortlist(actions, first, 1) == [first]
    # solo: ready and a new slot first (how many units to field against the A.I.Toma)
    assert shortlist(actions, first, 4, solo=True) == [
        first,
        {"type": "ready"},
        {"type": "open_slot", "card": "B004"},
        {"type": "recruit", "card": "B006", "slot": 0},
    ]
    react = [
        {"type": "react_card", "card": "B010"},
        {"type": "react_ammo", "count": 2},
        {"type": "react_ammo", "count": 1},
        {"type": "pass"},
    ]
    assert shortlist(react, react[0], 3) == [
        react[0],
        {"type": "pass"},
        {"type": "react_ammo", "count": 1},
    ]


@pytest.mark.parametrize("seats, want", [(4, _recruiting), (4, _battling), (6, _battling)])
def test_a_sample_world_keeps_what_the_seat_sees_and_every_card(seats, want):
    state, seat = _position(seats, {}, want)  # 6 seats: second-copy ids ("B017-2")
    dump, view = ENGINE.dump_state(state), ENGINE.view(state, seat)
    world = sample_world(dump, view, seat, random.Random(5))
    assert cards_in(world) == cards_in(dump)  # every card once, none new
    assert any(c.endswith("-2") for c in cards_in(dump)) == (seats > 4)
    again = ENGINE.load_state(world)
    seen = ENGINE.view(again, seat)
    assert seen["seats"][seat] == view["seats"][seat]  # its own board and hand
    assert seen["discard_pile"] == view["discard_pile"]
    assert ENGINE.legal_actions(again, seat) == ENGINE.legal_actions(state, seat)
    if view["phase"] == "battle":  # boards are open in battle
        assert seen["seats"] == view["seats"]
        assert (seen["draw_pile"], seen["specials_deck"]) == (
            view["draw_pile"],
            view["specials_deck"],
        )
    assert sample_world(dump, view, seat, random.Random(5)) == world
    assert sample_world(dump, view, seat, random.Random(6)) != world


def test_the_estimator_answers_one_win_probability_per_command():
    state, seat = _position(2, {}, _battling)
    commands = ENGINE.legal_actions(state, seat)[:3]
    estimator = ENGINE.estimator()
    assert isinstance(estimator, Estimator) and estimator.metric == "win_probability"
    values = estimator.estimate(state, seat, commands, 2 * len(commands), random.Random(9))
    assert len(values) == len(commands) and all(0.0 <= v <= 1.0 for v in values)
    assert estimator.estimate(state, seat, commands, 2 * len(commands), random.Random(9)) == values
    for seed in (3, 4):
        assert (
            estimator.estimate(
                _replace_hidden(state, seat, seed),
                seat,
                commands,
                2 * len(commands),
                random.Random(9),
            )
            == values
        )


@pytest.mark.parametrize("commands, budget", [([], 4), (None, 0), (None, -1)])
def test_the_estimator_refuses_no_commands_and_a_budget_below_one(commands, budget):
    state, seat = _position(2, {}, _battling)
    commands = ENGINE.legal_actions(state, seat)[:2] if commands is None else commands
    with pytest.raises(ValueError):
        ENGINE.estimator().estimate(state, seat, commands, budget, random.Random(1))


def test_a_budget_below_one_rollout_per_command_weighs_without_rollouts():
    state, seat = _position(2, {}, _battling)
    commands = ENGINE.legal_actions(state, seat)[:2]
    values = ENGINE.estimator().estimate(state, seat, commands, 1, random.Random(1))
    assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)


def test_the_tournament_script_reports_win_rates_with_intervals_and_decision_times():
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "aipokalypse_tournament.py"),
            "--duo",
            "1",
            "--four",
            "0",
            "--toma",
            "1",
            "--difficulties",
            "handy_man",
            "--budget",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout.strip())
    assert body["benchmark"] == "aipokalypse_tournament" and body["budget"] == 2
    assert set(body["parts"]) == {"duo", "solo:expert:handy_man", "solo:toma_hunter:handy_man"}
    for cell in body["parts"].values():
        assert cell["matches"] == 1 and cell["ci95"][0] <= cell["win_rate"] <= cell["ci95"][1]
    assert body["targets"]["duo_win_rate"]["target"] == 0.65
    assert body["targets"]["four_win_rate"]["target"] == 0.4
    assert body["targets"]["toma_margin"]["target"] == 0.15
    assert (
        body["decisions"]["count"] > 0
        and body["decisions"]["cpu_p95_s"] >= body["decisions"]["cpu_p50_s"]
    )


def test_the_budget_ab_script_pairs_the_arms_on_the_same_matches(tmp_path):
    log = tmp_path / "ab.jsonl"
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "aipokalypse_budget_ab.py"),
        "--matches",
        "2",
        "--difficulties",
        "handy_man",
        "--budgets",
        "1,2",
        "--log",
        str(log),
    ]
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout.strip())
    assert body["benchmark"] == "aipokalypse_budget_ab" and body["target"]["value"] == 2.0
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted((r["arm"], r["index"]) for r in rows) == [
        (arm, i) for arm in ("1", "2", "toma_hunter") for i in (0, 1)
    ]
    cell = body["cells"]["handy_man"]
    for arm in ("1", "2", "toma_hunter"):
        wins = sum(r["win"] for r in rows if r["arm"] == arm)
        assert cell[arm]["wins"] == wins and cell[arm]["matches"] == 2
        assert cell[arm]["ci95"][0] <= cell[arm]["rate"] <= cell[arm]["ci95"][1]
    pair = cell["2_vs_1"]
    assert pair["matches"] == 2
    assert pair["only_2"] - pair["only_1"] == cell["2"]["wins"] - cell["1"]["wins"]
    assert body["cells"]["pooled"]["2_vs_1"] == pair
    times = sorted(t for r in rows if r["arm"] == "2" for t in r["cpu_s"])
    assert body["cpu"]["2"]["decisions"] == len(times) > 0
    assert body["cpu"]["2"]["max_s"] == times[-1] >= body["cpu"]["2"]["p95_s"]
    assert "toma_hunter" not in body["cpu"]
    # a rerun with the same log plays no match again
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and again.stderr == ""
    assert json.loads(again.stdout.strip())["cells"] == body["cells"]


def test_more_sides_play_shorter_rollouts_with_a_smaller_budget():
    from domain.games.aipokalypse.expert import plan

    def view(seats, eliminated=0, toma=False):
        return {
            "seats": [{"eliminated": i < eliminated} for i in range(seats)],
            "toma": {"eliminated": False} if toma else None,
            "mode": ("solo" if seats == 1 else "coop") if toma else "competitive",
        }

    assert plan(view(2), 24, None) == (24, 2)
    # solo: the seat and the A.I.Toma, twice the budget (SOLO_BUDGET_FACTOR)
    assert plan(view(1, toma=True), 24, None) == (48, 2)
    assert plan(view(2, toma=True), 24, None) == (16, 1)  # co-op: 3 sides
    assert plan(view(4, eliminated=2), 24, None) == (24, 2)
    assert plan(view(3), 24, None) == (16, 1) and plan(view(4), 24, None) == (12, 1)
    assert plan(view(8), 24, None) == (6, 1) and plan(view(8), 1, 3) == (1, 3)
    assert plan(view(8), 0, None) == (0, 1)


def test_a_budget_smaller_than_the_shortlist_weighs_fewer_commands():
    state, seat = _position(2, {}, _recruiting)
    bot = ExpertBot(POLICIES, budget=2, candidates=3, time_cap_s=100.0)
    assert bot.choose(state, seat, random.Random(1)) in ENGINE.legal_actions(state, seat)
    assert bot.last_rollouts == 2


def test_from_three_sides_the_value_weighs_total_strength_too():
    # "Total Strength": the strength scale value of every unit (scale positions 1-10, 12, 15)
    assert (
        board_strength(
            [{"unit": "B001", "pos": 9}, {"unit": None, "pos": 3}, {"unit": "B002", "pos": 11}]
        )
        == 10 + 15
    )

    def raised(state, seat):
        data = ENGINE.dump_state(state)
        assert any(slot["unit"] for slot in data["players"][seat]["slots"])
        for slot in data["players"][seat]["slots"]:
            slot["pos"] = 11  # every unit at 15
        return ENGINE.load_state(data)

    state, seat = _position(4, {}, _battling)
    assert value_of(raised(state, seat), seat) > value_of(state, seat)
    duo, duo_seat = _position(2, {}, _battling)
    assert value_of(raised(duo, duo_seat), duo_seat) == value_of(duo, duo_seat)  # health alone


def test_solo_the_value_is_the_fitted_chance_over_the_seats_view():
    state, seat = _position(
        1, {"mode": "solo", "difficulty": "boss"}, _recruiting, level="toma_hunter"
    )
    v = ENGINE.view(state, seat)
    x = toma_features(v, seat)
    toma = v["toma"]
    assert x[:3] == (1.0, v["seats"][seat]["health_count"], toma["health_count"])
    assert x[7] == sum(s["strength"] for s in toma["slots"] if s["unit"]) / 10
    assert x[-1] == v["round"] / 10
    z = sum(w * f for w, f in zip(TOMA_WEIGHTS, x, strict=True))
    assert value_of(state, seat) == pytest.approx(1 / (1 + math.exp(-z)))

    def changed(edit):
        data = ENGINE.dump_state(state)
        edit(data["players"])
        return value_of(ENGINE.load_state(data), seat)

    def toma_hit(players):  # during Recruitment the view shows the board as the battle left it
        players[1]["pool"].append(players[1]["health"].pop(0))
        players[1]["public"]["health"] -= 1

    def units_at_15(players):
        for slot in players[seat]["slots"]:
            slot["pos"] = 11  # strength 15

    # one health point fewer for the A.I.Toma, units at 15 strength: a better position
    assert changed(toma_hit) > value_of(state, seat)
    assert changed(units_at_15) > value_of(state, seat)


def test_the_solo_fit_script_reports_weights_for_every_feature():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "aipokalypse_toma_fit.py"), "--matches", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout.strip())
    assert len(body["weights"]) == len(TOMA_WEIGHTS) and body["matches"] == 8
    assert body["rows"] >= 8 and 0 <= body["wins"] <= 8  # a row per Recruitment Phase
    assert math.isfinite(body["test"]) and 0.0 <= body["base_rate"] <= 1.0


def test_the_omniscient_bound_of_the_benchmark_searches_the_true_state_and_the_bot_never():
    """``benchmarks/aipokalypse_toma_oracle.py`` swaps the expert's search for one whose
    worlds are the true state (the deck order included); the server's expert draws its
    worlds from the view (the draw pile's order differs from the true one)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from aipokalypse_toma_oracle import OracleBot, OracleSearch, summarise
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    state, seat = _position(
        1, {"mode": "solo", "difficulty": "boss"}, _recruiting, level="toma_hunter"
    )
    truth = ENGINE.dump_state(state)
    oracle = OracleSearch(state, seat, 2, POLICIES)
    assert oracle.world(1) == truth and oracle.world(2) == truth
    assert OracleBot.search_class is OracleSearch
    assert ExpertBot.search_class is not OracleSearch
    drawn = ExpertBot.search_class(state, seat, 2, POLICIES).world(1)
    assert drawn["draw"] != truth["draw"]
    assert sorted(drawn["draw"]) == sorted(truth["draw"])
    rows = [
        {"level": "oracle", "difficulty": "boss", "index": 0, "win": True},
        {"level": "oracle", "difficulty": "boss", "index": 1, "win": False},
        {"level": "toma_hunter", "difficulty": "boss", "index": 0, "win": False},
        {"level": "toma_hunter", "difficulty": "boss", "index": 1, "win": False},
    ]
    cell = summarise(rows, ["boss"])["boss"]
    assert cell["margin"] == 0.5 and cell["oracle"]["wins"] == 1
    assert cell["paired"] == {"matches": 2, "oracle_only": 1, "toma_hunter_only": 0}
