"""The race evaluation of the Dead Apocalypse expert and its fitting script
(``benchmarks/dead_apocalypse_race_fit.py``), run small."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from domain.engine import Setup, fold
from domain.games.dead_apocalypse import ENGINE as E
from domain.games.dead_apocalypse import expert as X

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
PATH = BENCHMARKS / "dead_apocalypse_race_fit.py"


def test_the_fit_script_runs_and_beats_the_base_rate_on_held_out_turns(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the script imports _common beside it
    spec = importlib.util.spec_from_file_location("dead_apocalypse_race_fit", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(["--matches", "3", "--seeds", "9"])
    assert len(out["weights"]) == len(X.RACE_WEIGHTS) and out["rows"] > 40
    assert out["train"] < out["test_base"] + 0.2 and '"weights"' in capsys.readouterr().out


def test_race_counts_the_zombies_before_the_cdc():
    state = fold(E, E.new_match(Setup(2, E.validate_options(2, {})), random.Random(3)))
    resources, kills = X.race(state)
    assert resources == len(state.resource_stack)
    above = state.zombie_stack[: state.zombie_stack.index("cdc#1")]
    assert kills == 1 + sum(1 for c in above if X.catalogue().of(c).kind == "zombie")
    assert 0.0 < X.race_value(state) < 1.0
    assert X.horizon_turns(state) == 4
    assert (
        X.horizon_turns(fold(E, E.new_match(Setup(1, E.validate_options(1, {})), random.Random(3))))
        == 3
    )
    easy = fold(
        E, E.new_match(Setup(2, E.validate_options(2, {"difficulty": "easy"})), random.Random(3))
    )
    assert X.horizon_turns(easy) is None


def test_a_plague_carrier_in_the_row_lowers_the_race_value():
    """The race loses 3 Resource Stack cards each turn a Plague Carrier stays in the row."""
    state = fold(E, E.new_match(Setup(1, E.validate_options(1, {})), random.Random(5)))
    state.zombie_row = ["shambler#1", "shambler#2", "crawler#1", "sprinter#1", "ghoul#1"]
    calm = X.race_value(state)
    state.zombie_row[0] = "plague-carrier#1"  # HP 4 against the Shambler's 1
    assert X.race_features(state)[-1] == 1.0
    assert X.race_value(state) < calm
