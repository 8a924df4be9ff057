"""Fit of the Dead Apocalypse expert's race evaluation (``expert.race_value``, issue 23).

Plays seeded standard matches with every seat on the expert's policy (``expert.POLICY``:
the ``cooperative`` plan pricing the Plague Carrier's Ditches; 1 to 4 seats,
``--matches`` per seat count and seed in ``--seeds``; match ``m`` of ``seats`` seats under
seed ``s`` uses ``Random(s * 100000 + seats * 1000 + m)``), records
``expert.race_features`` at the start of every turn with the match's outcome (won 1, lost
0), and fits a logistic regression by Newton's method on every other row; the other rows
are held out (``_common.logistic_report``). Prints one JSON object: ``weights`` (paste into
``expert.RACE_WEIGHTS``), ``rows``, ``base_rate``, and the mean log loss of the fit
(``train``, ``test``) and of the base rate (``test_base``). Example (the committed weights)::

    nice -n 10 .venv/bin/python benchmarks/dead_apocalypse_race_fit.py --matches 100 --seeds 1 2
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence

from _common import Row, logistic_report

from domain.engine import Setup, fold
from domain.games.dead_apocalypse import ENGINE
from domain.games.dead_apocalypse.actions import pending
from domain.games.dead_apocalypse.expert import POLICY, apply_command, race_features


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


def main(argv: Sequence[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=100, help="matches per seat count and seed")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args(argv)
    out = logistic_report(rows(args.matches, args.seeds))
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
