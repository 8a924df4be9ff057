"""Scoring evaluations per second on complete tableaux (target >= 10,000/s).

Usage: python benchmarks/bench_scoring.py [--matches 2] [--min-seconds 2] [--reference]
Plays ``--matches`` 4-seat greedy matches through the domain and takes every seat's final
(15-card) tableau. One evaluation is one public scoring call of
``domain.games.ai_100_human.scoring``: ``score_effect`` of each tableau card's printed
effect at its own cell (with the seat's neighbours' tableaux, as the turn flow does),
``score_objective`` of every Objective card, ``score_ai_card`` of the seat's AI card.
All of them obey the golden rule with an exact packing (RULINGS "AI: 100% Human"). The
scorer's memo tables (``scoring.memo``) are emptied before every pass over the calls, so
a pass does not replay remembered results of the one before.

``--reference`` runs the reference scorer instead (``tests/support/
ai_100_human_scoring_reference.py``: the plain code path the compiled plans replaced), for
a before/after comparison on the same machine state; ``mean_vp_per_evaluation`` must not
change.

Target: the greedy bot scores every legal placement (up to 3 reserve cards x 12 free
cells) for about 60 placement decisions of a 4-seat match: ~2,200 evaluations, which must
fit several times into bench_match's 1 s budget, hence >= 10,000 evaluations/s.
"""

from __future__ import annotations

import argparse
import sys
import time

import _common  # noqa: F401  (import path)
from _common import report

from cli.bot_match import match_seed, play_bot_match
from domain.games import get_engine
from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.scoring import memo, score_ai_card, score_effect, score_objective


def use_reference_scoring() -> None:
    """Make every AI: 100% Human module that imported ``score_effect`` /
    ``score_objective`` / ``score_ai_card`` / ``Placements`` call the reference scorer
    instead (``Placements``: one reference call per added card)."""
    from tests.support import ai_100_human_scoring_reference as ref

    swap = {
        "score_effect": ref.reference_score_effect,
        "score_objective": ref.reference_score_objective,
        "score_ai_card": ref.reference_score_ai_card,
        "Placements": ref.ReferencePlacements,
    }
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("domain.games.ai_100_human"):
            continue
        for function, reference in swap.items():
            if hasattr(module, function):
                setattr(module, function, reference)


def evaluations(
    state, effect=score_effect, objective=score_objective, ai_card=score_ai_card
) -> list[tuple]:
    """Every ``(function, args)`` scoring call over the final tableaux of ``state``, with
    the given scoring functions (default: the public ones)."""
    objectives = list(catalogue().objectives)
    calls = []
    for seat, seat_state in enumerate(state.seats):
        tableau = dict(seat_state.tableau)
        neighbours = state.neighbour_tableaux(seat)
        for pos, card in tableau.items():
            if not card.startswith("AI-"):
                calls.append((effect, (card, tableau, pos, neighbours)))
        calls.extend((objective, (oid, tableau)) for oid in objectives)
        calls.append((ai_card, (seat_state.ai_card, tableau)))
    return calls


def main(argv: list[str] | None = None) -> dict:
    """Parse ``argv``, build the tableaux, time the evaluations, print the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--seed", default="bench-scoring")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="time the reference scorer (before the compiled plans)",
    )
    args = parser.parse_args(argv)
    functions = {}
    if args.reference:
        use_reference_scoring()
        from tests.support import ai_100_human_scoring_reference as ref

        functions = dict(
            effect=ref.reference_score_effect,
            objective=ref.reference_score_objective,
            ai_card=ref.reference_score_ai_card,
        )
    engine = get_engine("ai-100-human")
    calls = [
        call
        for i in range(args.matches)
        for call in evaluations(
            play_bot_match(engine, ["greedy"] * 4, match_seed(args.seed, i)).state, **functions
        )
    ]
    done, vp, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < args.min_seconds or done == 0:
        memo.clear()  # no pass reuses the results of the one before
        for function, call_args in calls:
            vp += function(*call_args)
        done += len(calls)
    elapsed = time.perf_counter() - started
    return report(
        "bench_scoring",
        "evaluations_per_second",
        done / elapsed,
        "evaluations/s",
        ">=",
        10_000,
        matches=args.matches,
        tableaux=4 * args.matches,
        evaluations_per_pass=len(calls),
        evaluations=done,
        mean_vp_per_evaluation=round(vp / done, 3),
        scorer=("reference" if args.reference else "compiled"),
    )


if __name__ == "__main__":
    main()
