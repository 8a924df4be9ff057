"""Fit of the Dead Apocalypse expert's race evaluation (``expert.race_value``, issue 23).

Plays seeded standard matches with every seat on the expert's policy (``expert.POLICY``:
the ``cooperative`` plan pricing the Plague Carrier's Ditches; 1 to 4 seats,
``--matches`` per seat count and seed in ``--seeds``; match ``m`` of ``seats`` seats under
seed ``s`` uses ``Random(s * 100000 + seats * 1000 + m)``), records
``expert.race_features`` at the start of every turn with the match's outcome (won 1, lost
0), and fits a logistic regression by Newton's method on every other row; the other rows
are held out. Prints one JSON object: ``weights`` (paste into ``expert.RACE_WEIGHTS``),
``rows``, ``base_rate``, and the mean log loss of the fit (``train``, ``test``) and of the
base rate (``test_base``). Example (the committed weights)::

    nice -n 10 .venv/bin/python benchmarks/dead_apocalypse_race_fit.py --matches 100 --seeds 1 2
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from domain.engine import Setup, fold  # noqa: E402
from domain.games.dead_apocalypse import ENGINE  # noqa: E402
from domain.games.dead_apocalypse.actions import pending  # noqa: E402
from domain.games.dead_apocalypse.expert import POLICY, apply_command, race_features  # noqa: E402

Row = tuple[tuple[float, ...], int]


def rows(matches: int, seeds: Sequence[int]) -> list[Row]:
    """``(features, won)`` at every turn start of every match (module doc)."""
    out: list[Row] = []
    for seed in seeds:
        for seats in (1, 2, 3, 4):
            for m in range(matches):
                rng = random.Random(seed * 100000 + seats * 1000 + m)
                options = ENGINE.validate_options(seats, {})
                state = fold(ENGINE, ENGINE.new_match(Setup(seats, options), rng))
                seen, last = [], None
                while state.result is None:
                    if state.turn != last:
                        last = state.turn
                        seen.append(race_features(state))
                    actor = min(pending(state))
                    state = apply_command(state, actor, POLICY.choose(state, actor, rng), rng)
                won = int(state.result["outcome"] == "won")
                out += [(f, won) for f in seen]
    return out


def _p(w: Sequence[float], x: Sequence[float]) -> float:
    z = sum(a * b for a, b in zip(w, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(data: Sequence[Row], iterations: int = 25) -> list[float]:
    """Logistic-regression weights by Newton's method (a tiny ridge keeps it solvable)."""
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(iterations):
        g = [0.0] * k
        h = [[1e-6 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in data:
            p = _p(w, x)
            for i in range(k):
                g[i] += (y - p) * x[i]
                for j in range(k):
                    h[i][j] += p * (1 - p) * x[i] * x[j]
        a = [h[i][:] + [g[i]] for i in range(k)]
        for i in range(k):  # Gauss-Jordan with partial pivoting
            pivot = max(range(i, k), key=lambda r, i=i: abs(a[r][i]))
            a[i], a[pivot] = a[pivot], a[i]
            for r in range(k):
                if r != i:
                    f = a[r][i] / a[i][i]
                    a[r] = [u - f * v for u, v in zip(a[r], a[i], strict=True)]
        w = [u + a[i][k] / a[i][i] for i, u in enumerate(w)]
    return w


def log_loss(data: Sequence[Row], p: object) -> float:
    """Mean log loss of ``p(x)`` (a callable) over ``data``."""
    total = 0.0
    for x, y in data:
        q = min(max(p(x), 1e-9), 1 - 1e-9)  # type: ignore[operator]
        total -= y * math.log(q) + (1 - y) * math.log(1 - q)
    return total / len(data)


def main(argv: Sequence[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=100, help="matches per seat count and seed")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args(argv)
    data = rows(args.matches, args.seeds)
    train, test = data[::2], data[1::2]
    w = fit(train)
    base = sum(y for _, y in train) / len(train)
    out = {
        "weights": [round(x, 4) for x in w],
        "rows": len(data),
        "base_rate": round(base, 4),
        "train": round(log_loss(train, lambda x: _p(w, x)), 4),
        "test": round(log_loss(test, lambda x: _p(w, x)), 4),
        "test_base": round(log_loss(test, lambda x: base), 4),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
