"""Dead Apocalypse balance simulation: win rate of ``cooperative`` bot teams.

For each variant and 1-4 seats, plays ``--games`` seeded matches (seed = base + i) with
every seat on the ``cooperative`` bot and reports the win rate with a 95% Wilson score
interval, the mean game length in turns and the loss reasons. Prints a table (default) or
one JSON object (``--json``). Example::

    python benchmarks/dead_apocalypse_sim.py --games 200 --workers 4
    python benchmarks/dead_apocalypse_sim.py --variants standard easiest --seats 2 --json

Target (issue 4): standard 30-70 %, easiest >= 90 %.

``--audit`` also counts how the bots treat a win in hand and a Call for Help (issue 17
item 7), per row: ``calls_with_win`` (Calls for Help sent while the active seat had the
damage to defeat the Zombie in the CDC's column: an immediate win), ``turns_win_given_up``
(turns in which it had that damage at some decision and the turn ended without the win), the games with one
(``games_win_given_up``) and how many of those were then lost (``..._then_lost``), and
``declines_adding_defeats`` (an ally declined a Call for Help although the printed damage
of its hand would have let the pooled damage defeat more attacking Zombies together,
immunities respected). Example::

    python benchmarks/dead_apocalypse_sim.py --variants standard --seats 2 3 4 --games 60 --audit
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

VARIANTS: dict[str, dict[str, Any]] = {
    "standard": {},
    "harder_no_kill_2": {"no_kill_ditch": 2},
    "harder_no_kill_3": {"no_kill_ditch": 3},
    "harder_half_hp": {"attack_ditch_half_hp": True},
    "easy": {"difficulty": "easy"},
    "easier": {"difficulty": "easier"},
    "easiest": {"difficulty": "easiest"},
    "competitive": {"competitive": True},
}
MAX_DECISIONS = 100_000  # a safety net only; no game has come near it


def play(
    seats: int, options: dict[str, Any], seed: int, bot: str = "cooperative", audit: bool = False
) -> dict[str, Any]:
    """One match with every seat on ``bot``: ``{"won", "turns", "reason", "decisions"}``;
    with ``audit`` also ``"audit": {"calls_with_win", "turns_win_given_up",
    "declines_adding_defeats"}`` (module doc)."""
    from domain.engine import Setup, fold
    from domain.games.dead_apocalypse import ENGINE as E

    rng = random.Random(seed)
    state = fold(E, E.new_match(Setup(seats, E.validate_options(seats, options)), rng))
    decisions = 0
    counts = {"calls_with_win": 0, "turns_win_given_up": 0, "declines_adding_defeats": 0}
    win_seen_turn = None
    while E.result(state) is None:
        seat = next(iter(E.pending(state)))
        command = E.bots[bot].choose(state, seat, rng)
        if audit:
            if _win_in_hand(E, state, seat):
                win_seen_turn = state.turn
                counts["calls_with_win"] += command["type"] == "call_for_help"
            if command["type"] == "decline" and _hand_adds_defeats(state, seat):
                counts["declines_adding_defeats"] += 1
        turn = state.turn
        state = fold(E, E.decide(state, seat, command, rng), state)
        if audit and win_seen_turn == turn and state.turn != turn and E.result(state) is None:
            counts["turns_win_given_up"] += 1
        if (
            audit
            and win_seen_turn == turn
            and E.result(state) is not None
            and E.result(state)["outcome"] != "won"
        ):
            counts["turns_win_given_up"] += 1
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"match did not finish (seats={seats}, seed={seed}, {options})")
    result = E.result(state)
    out = {
        "won": result["outcome"] == "won",
        "turns": state.turn,
        "reason": result["reason"],
        "decisions": decisions,
    }
    if audit:
        out["audit"] = counts
    return out


def _win_in_hand(E: Any, state: Any, seat: int) -> bool:
    """The active seat, in its play step, has the damage to defeat the Zombie in the CDC's
    column now (an immediate win; its unresolved Repeat, if any, would come first)."""
    from domain.games.dead_apocalypse.cards import catalogue
    from domain.games.dead_apocalypse.combat import can_defeat

    if E.pending(state).get(seat) != "turn":
        return False
    cat = catalogue()
    cdc = [c for c, r in enumerate(state.resource_row) if r is not None and cat.of(r).kind == "cdc"]
    return any(can_defeat(state, c) for c in cdc)


def _most_defeats(entries: list[dict[str, Any]], zombies: list[Any]) -> int:
    """The most of ``zombies`` the divisible damage ``entries`` defeats together."""
    import itertools

    from domain.games.dead_apocalypse.call_for_help import covers

    for size in range(len(zombies), 0, -1):
        if any(covers(entries, list(group)) for group in itertools.combinations(zombies, size)):
            return size
    return 0


def _hand_adds_defeats(state: Any, seat: int) -> bool:
    """An ally answering a Call for Help holds Humans/Equipment whose printed damage would
    let the pooled damage defeat more attacking Zombies together than the pool alone."""
    from domain.games.dead_apocalypse.cards import catalogue

    cat = catalogue()
    zombies = [
        cat.of(state.zombie_row[c]) for c in state.attackers if state.zombie_row[c] is not None
    ]
    pool = [d for d in state.damage if d["amount"] > 0]
    hand = [cat.of(c) for c in state.seats[seat].hand if cat.of(c).kind in ("human", "equipment")]
    extra = [
        {"title": d.title, "kind": d.kind, "faction": d.faction, "amount": d.damage} for d in hand
    ]
    return _most_defeats(pool + extra, zombies) > _most_defeats(pool, zombies)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a binomial proportion (``(low, high)`` in 0..1)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _job(args: tuple[str, int, int, bool]) -> tuple[str, int, dict[str, Any]]:
    variant, seats, seed, audit = args
    return variant, seats, play(seats, VARIANTS[variant], seed, audit=audit)


def simulate(
    variants: list[str],
    seat_counts: list[int],
    games: int,
    seed: int,
    workers: int,
    audit: bool = False,
) -> list[dict[str, Any]]:
    """Rows ``{"variant","seats","games","wins","win_rate","ci95","mean_turns","losses"}``
    (with ``audit`` also ``"audit"``: the module doc's counts summed over the row)."""
    # the competitive game ranks at least 2 players (spec.validate_options refuses 1 seat)
    pairs = [
        (v, s) for v in variants for s in seat_counts if s > 1 or not VARIANTS[v].get("competitive")
    ]
    jobs = [(v, s, seed + i, audit) for v, s in pairs for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            outcomes = list(pool.map(_job, jobs, chunksize=8))
    else:
        outcomes = [_job(j) for j in jobs]
    rows = []
    for v, s in pairs:
        got = [o for vv, ss, o in outcomes if vv == v and ss == s]
        wins = sum(o["won"] for o in got)
        losses: dict[str, int] = {}
        for o in got:
            if not o["won"]:
                losses[o["reason"]] = losses.get(o["reason"], 0) + 1
        lo, hi = wilson(wins, len(got))
        rows.append(
            {
                "variant": v,
                "seats": s,
                "games": len(got),
                "wins": wins,
                "win_rate": round(wins / len(got), 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "mean_turns": round(sum(o["turns"] for o in got) / len(got), 2),
                "losses": losses,
            }
        )
        if audit:
            row = rows[-1]
            row["audit"] = {k: sum(o["audit"][k] for o in got) for k in got[0]["audit"]}
            gave_up = [o for o in got if o["audit"]["turns_win_given_up"]]
            row["audit"]["games_win_given_up"] = len(gave_up)
            row["audit"]["games_win_given_up_then_lost"] = sum(not o["won"] for o in gave_up)
    return rows


def main(argv: list[str] | None = None) -> int:
    """Command line entry point (see module doc)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per variant and seat count")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    ap.add_argument("--seats", nargs="+", type=int, default=[1, 2, 3, 4], choices=[1, 2, 3, 4])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    ap.add_argument(
        "--audit",
        action="store_true",
        help="also count wins given up and allies' declines (module doc)",
    )
    args = ap.parse_args(argv)
    rows = simulate(args.variants, args.seats, args.games, args.seed, args.workers, args.audit)
    if args.json:
        print(json.dumps({"benchmark": "dead_apocalypse_sim", "bot": "cooperative", "rows": rows}))
        return 0
    print(f"{'variant':<18}{'seats':>6}{'games':>7}{'win rate':>10}{'95% CI':>17}{'turns':>8}")
    for r in rows:
        ci = f"[{r['ci95'][0] * 100:4.1f}, {r['ci95'][1] * 100:5.1f}]"
        print(
            f"{r['variant']:<18}{r['seats']:>6}{r['games']:>7}{r['win_rate'] * 100:>9.1f}%"
            f"{ci:>17}{r['mean_turns']:>8.1f}"
        )
    if args.audit:
        keys = list(rows[0]["audit"]) if rows else []
        print()
        print(f"{'variant':<18}{'seats':>6}  " + "  ".join(keys))
        for r in rows:
            print(
                f"{r['variant']:<18}{r['seats']:>6}  "
                + "  ".join(f"{r['audit'][k]:>{len(k)}}" for k in keys)
            )
        print(
            f"{'total':<24}  "
            + "  ".join(f"{sum(r['audit'][k] for r in rows):>{len(k)}}" for k in keys)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
