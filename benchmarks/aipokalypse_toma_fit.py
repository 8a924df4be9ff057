"""Fit of the A.I.Pokalypse expert's solo value (``expert.TOMA_WEIGHTS``, issue 23).

Plays seeded solo matches against the A.I.Toma with the seat on ``toma_hunter`` (the
expert's rollout policy), ``--matches`` per difficulty (Handy-Man, Boss, Endboss, Untamed
A.I.); match ``i`` of a difficulty has the seed ``SHA-256("<seed>:<difficulty>:<i>")``
(default seed ``aipokalypse-toma-fit``, not the tournament's). At the start of every
Recruitment Phase (the state a rollout's horizon stops at) it records
``expert.toma_features`` of the seat's view with the match's outcome (won 1, lost 0) and
fits a logistic regression by Newton's method (``_common.logistic_report``) on every
other row; the other rows are held out. Prints one JSON object: ``weights`` (paste into
``expert.TOMA_WEIGHTS``), ``rows``, ``matches``, ``base_rate``, and the mean log loss of the
fit (``train``, ``test``) and of the base rate (``test_base``). Example (the committed
weights)::

    cd benchmarks && nice -n 10 ../.venv/bin/python aipokalypse_toma_fit.py --matches 150
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence

from _common import Row, logistic_report
from aipokalypse_tournament import DIFFICULTIES, seed_of

from domain.engine import Setup, derive_rng, fold
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.expert import toma_features


def rows(matches: int, seed: str) -> tuple[list[Row], int]:
    """``(features, won)`` at every Recruitment Phase start of every match, and the wins."""
    out: list[Row] = []
    wins = 0
    bot = ENGINE.bots["toma_hunter"]
    for difficulty in DIFFICULTIES:
        options = ENGINE.validate_options(1, {"mode": "solo", "difficulty": difficulty})
        for i in range(matches):
            match_seed = seed_of(seed, difficulty, i)
            events = ENGINE.new_match(Setup(1, options), derive_rng(match_seed, 0))
            state, count, rng = fold(ENGINE, events), len(events), random.Random(match_seed)
            seen: list[tuple[float, ...]] = []
            last = None
            while ENGINE.result(state) is None:
                v = ENGINE.view(state, 0)
                if v["phase"] == "recruitment" and v["round"] != last:
                    last = v["round"]
                    seen.append(toma_features(v, 0))
                seat = min(ENGINE.pending(state))
                new = ENGINE.decide(
                    state, seat, bot.choose(state, seat, rng), derive_rng(match_seed, count)
                )
                count += len(new)
                state = fold(ENGINE, new, state)
            won = int(ENGINE.result(state).get("outcome") == "won")
            wins += won
            out += [(f, won) for f in seen]
    return out, wins


def main(argv: Sequence[str] | None = None) -> dict:
    """Play, fit and print the report (module doc)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=100, help="matches per difficulty")
    ap.add_argument("--seed", default="aipokalypse-toma-fit")
    args = ap.parse_args(argv)
    data, wins = rows(args.matches, args.seed)
    out = logistic_report(data)
    out = {**out, "matches": args.matches * len(DIFFICULTIES), "wins": wins}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
