"""The effect engine's ops register themselves with :mod:`.effects.resolve` from the modules
above it (issue 19 item 3: no import inside a function to dodge a cycle). Whatever module a
program imports first, every op that acts is registered before an effect runs (``run``
skips an op without a handler, so a missing registration would silently drop an effect)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from domain.games.aipokalypse.effects import resolve
from domain.games.aipokalypse.vocabulary import BATTLE_OPS, OPS, STATIC_OPS

ENTRY_POINTS = [
    "domain.games.aipokalypse.effects.resolve",
    "domain.games.aipokalypse.effects.choices",
    "domain.games.aipokalypse.cards",
    "domain.games.aipokalypse.fold",
    "domain.games.aipokalypse.battle",
    "domain.games.aipokalypse.recruitment",
]


def test_every_op_that_run_executes_has_a_handler():
    """Static modifiers and the ops read while a unit fights are read where they apply;
    every other op of the vocabulary is executed by ``run`` and so needs a handler."""
    assert "damage" in resolve._OPS  # registered by .flow, above the engine
    assert set(OPS) - STATIC_OPS - BATTLE_OPS <= set(resolve._OPS)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_importing_any_module_first_registers_every_op(entry):
    code = (
        f"import importlib; importlib.import_module({entry!r}); import json; "
        "from domain.games.aipokalypse.effects import resolve; print(json.dumps(sorted(resolve._OPS)))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == sorted(resolve._OPS)
