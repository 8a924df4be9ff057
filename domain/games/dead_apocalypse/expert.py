"""The ``expert`` bot and the estimator of *Dead Apocalypse*: determinized Monte Carlo
rollouts over the seat's information set (issue 23). Its base and rollout policy
(:data:`POLICY`) is the ``cooperative`` bot's plan with one more price: a Zombie whose
Repeat Ditches Resource Stack cards (the Plague Carrier, 3 cards on every turn it stays in
the row; 5 copies, so at least 15 of the 59 cards the team races with) is worth
:data:`bots.STACK_THREAT` plan points more per card. Why: most lost solo matches ran the
Resource Stack out with Plague Carriers left in the row (``docs/known-limitations.md``);
on 400 seeded matches this policy alone wins 92.3% solo and 50.3% with 4 seats against
the ``cooperative`` bot's 78.3% and 36.8%. An attacker is priced by the cards it costs
left undefeated ("Undefeated Zombies": its Resource Row card and a Resource Stack card,
:func:`bots.attack_cards`) at the same :data:`bots.STACK_THREAT` per card, where
``cooperative`` adds a flat 8: solo, 400 deals of seed ``da23``, the policy alone then
wins 373 (93.2%, 95% CI 90.4-95.3) against ``cooperative``'s 313 (78.3%), +15.0 points
[+10.2, +19.8] (paired: 62 won by the policy only, 2 by ``cooperative`` only). Two rules of
team play followed (2026-12-04): a non-attacking Plague Carrier the seat's own pool can
defeat is defeated *before* a Call for Help (``drain_first``: after an assist the pooled
damage only defeats attacking Zombies), and a Location is occupied when that costs the
turn's plan less than :data:`bots.OCCUPY_MARGIN`; with 4 seats the policy alone then wins
65.5% of 400 deals against ``cooperative``'s 37.0% (+28.5 [+21.7, +34.9]).

How the bot decides (one call of :meth:`ExpertBot.choose`):

1. **Candidates.** :data:`POLICY`'s own choice comes first. Other legal commands
   are grouped by what they do (playing one of two copies of a card is the same command)
   and the strategic alternatives are added, at most ``candidates`` in all: on the own turn
   the other Zombies to defeat (by the policy's plan value, :func:`bots.zombie_value`),
   another way to pay the HP, ending the turn, calling for help, occupying a Location
   instead of playing the Human; the other answers of a prompt (which card to Ditch or
   skip, which Human occupies, Adept Survivor or Resource Row card), assisting or declining
   a Call for Help. A policy choice that plays a card, resolves a Repeat, wins at once
   (the CDC's column) or is the only command is played without search: playing a card
   costs nothing (cards kept in hand are discarded at the end of the turn anyway, "Place
   any cards you played and any cards remaining in your hand ... into your discard pile").
2. **Determinization.** Each sample world is dealt from ``view(state, seat)`` only
   (:func:`determinize.sample_world`): the other hands, every deck, the Zombie Stack (the
   CDC among its bottom 11 cards) and the Resource Stack.
3. **Rollouts.** Each candidate is applied to a copy of the sample world and the match is
   played on by :data:`POLICY` on every seat (the engine's own rules, without
   re-checking the legality of the policy's commands) to its end or, in the book's
   standard game, to a horizon (:func:`horizon_turns`: two rounds of turns past the
   decision's turn, at least three turns). Candidates share the sample and the rollout RNG
   (common random numbers). Value: 1 for a won match, 0 for a lost one, and at the horizon
   the race's evaluation (:func:`race_value`): the team's chance to win by a logistic model
   of the Resource Stack left against the Zombies still to defeat before the CDC (known in
   the sample world), the decks' damage, the Zombie Row's HP and its Plague Carriers,
   fitted on matches of :data:`POLICY`. A horizon makes a rollout several times cheaper than a whole match, and its
   value is a probability rather than a 0/1 outcome, so far fewer samples tell candidates
   apart.
4. **Successive halving** (as AI: 100% Human's expert): the ``budget`` rollouts are split
   over ``ceil(log2(candidates))`` rounds; after each round the better half stays. The
   best mean wins (ties: the earlier candidate, i.e. the policy's choice).

Determinism: the choice depends only on the view, the legal commands and ``rng``;
``time_cap_s`` caps the CPU time of a decision (``time.thread_time``, the deciding
thread's: other threads of an embedded server do not count; when a decision
uses more, the samples finished so far decide; then the choice may depend on the machine).

The estimator (:class:`WinEstimator`, ``ENGINE.estimator()``) runs the same rollouts for
given commands and answers their mean value: the team's win probability (metric
``win_probability``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.estimates import Metric, Tally, WholeEstimate

from .actions import legal_actions, pending
from .bots import OCCUPY_MARGIN, STACK_THREAT, CooperativeBot, _table, zombie_value
from .cards import catalogue, def_id
from .determinize import sample_world
from .ending import owned_cards
from .recorder import GameOver, Recorder
from .rules import _apply
from .state import MatchState, clone
from .views import view

DEFAULT_BUDGET = 32  # rollouts per searched decision
DEFAULT_CANDIDATES = 4  # commands weighed by rollouts
#: CPU-time cap per decision (seconds of the deciding thread's CPU, time.thread_time)
DEFAULT_TIME_CAP_S = 0.8
MAX_ROLLOUT_STEPS = 20_000  # a safety net: a match has about 150-200 commands
HORIZON_ROUNDS = 2  # rounds of turns a rollout plays past the decision's turn
HORIZON_MIN_TURNS = 3  # ... at least this many turns (1 and 2 seats)
#: :func:`race_value`'s logistic weights over :func:`race_features`, fitted by
#: ``benchmarks/dead_apocalypse_race_fit.py`` (defaults: 800 matches of :data:`POLICY`,
#: 200 per seat count, every turn start, 12,013 rows; held-out log loss 0.403 against
#: 0.603 for the base rate)
RACE_WEIGHTS = (-1.3168, 0.1921, 0.1079, -1.7581, 0.6881, 1.2423, 0.3058, -1.595)

#: the base and rollout policy of every seat: the ``cooperative`` plan with the Plague
#: Carrier's Resource Stack Ditches priced (:data:`bots.STACK_THREAT`), a Plague Carrier
#: defeated before a Call for Help (``drain_first``) and Humans occupying Locations at a
#: small cost to the turn's plan (:data:`bots.OCCUPY_MARGIN`)
POLICY = CooperativeBot(stack_threat=STACK_THREAT, drain_first=True, occupy_margin=OCCUPY_MARGIN)
#: policy choices played without search (module doc, step 1)
NO_SEARCH = frozenset({"play", "use_repeat"})


def apply_command(
    state: MatchState, seat: int, command: Mapping[str, Any], rng: random.Random
) -> MatchState:
    """``command``'s events folded into ``state`` (mutated and returned) without the
    legality check of ``decide`` (rollouts only send commands of ``legal_actions``)."""
    rec = Recorder(state)
    try:
        _apply(rec, seat, dict(command), command["type"], rng)
    except GameOver:
        pass
    return rec.state


def horizon_turns(state: MatchState) -> int | None:
    """Turns a rollout plays after the decision's own turn before :func:`race_value`
    judges it: :data:`HORIZON_ROUNDS` rounds (at least :data:`HORIZON_MIN_TURNS` turns) in
    the book's standard game with its default Ditches (the race the evaluation was fitted
    on); ``None`` (to the end of the match) with any other option."""
    o = state.options
    if o["difficulty"] != "standard" or o["no_kill_ditch"] != 1 or o["attack_ditch_half_hp"]:
        return None
    return max(HORIZON_MIN_TURNS, HORIZON_ROUNDS * state.seat_count)


def race(state: MatchState) -> tuple[int, int]:
    """``(resources, kills)``: the Resource Stack's cards and the Zombies still to defeat
    before the CDC can be gained in this (sample) world: 1 once the CDC is in the Resource
    Row, else the Zombies above the CDC in the Zombie Stack plus the one that fills its
    column (Events are set aside without a fight). Each defeat costs about one Resource
    Stack card (the Resource Row is refilled from it), each turn without one a card per
    seat."""
    cat = catalogue()
    if any(r is not None and cat.of(r).kind == "cdc" for r in state.resource_row):
        return len(state.resource_stack), 1
    kills = 1
    for card in state.zombie_stack:
        kind = cat.of(card).kind
        if kind == "cdc":
            break
        kills += kind == "zombie"
    return len(state.resource_stack), kills


def race_features(state: MatchState) -> tuple[float, ...]:
    """The inputs of :func:`race_value`, in :data:`RACE_WEIGHTS`' order: 1 (intercept),
    the margin ``resources - kills`` (:func:`race`) per seat and in all, ``kills / 10``,
    the mean over the seats of the printed damage per card of each seat's deck (every card
    it owns, wherever it is), ``1 / seats``, the Zombie Row's HP / 10 and the Resource
    Stack cards the Zombie Row's Repeats Ditch each turn (Plague Carriers) per seat / 3
    (the race loses them every turn until those Zombies are defeated)."""
    cat = catalogue()
    resources, kills = race(state)
    margin = resources - kills
    n = state.seat_count
    damage = 0.0
    for seat in range(n):
        cards = owned_cards(state, seat)
        damage += sum(cat.of(c).damage for c in cards) / max(1, len(cards))
    row = [cat.of(z) for z in state.zombie_row if z is not None]
    hp = sum(z.hp for z in row)
    drain = sum(s.get("amount", 1) for z in row for s in z.repeat_ops if s["op"] == "ditch_stack")
    return (1.0, margin / n, float(margin), kills / 10, damage / n, 1.0 / n, hp / 10, drain / 3 / n)


def race_value(state: MatchState) -> float:
    """The team's chance to win from a running (sample) world, 0..1: a logistic model of
    the race over :func:`race_features`, fitted on :data:`POLICY`'s matches of the
    standard game, 1 to 4 seats (:data:`RACE_WEIGHTS`,
    ``benchmarks/dead_apocalypse_race_fit.py``)."""
    z = sum(w * x for w, x in zip(RACE_WEIGHTS, race_features(state), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def rollout(
    world: MatchState, seat: int, command: Mapping[str, Any], rng: random.Random
) -> tuple[bool, float]:
    """Play ``command`` for ``seat`` in the sample ``world`` (mutated), then the
    :data:`POLICY` on every seat to the end of the match or to the horizon
    (:func:`horizon_turns`). Returns ``(won, value)``: ``(True, 1.0)`` for a won match,
    ``(False, 0.0)`` for a lost one, ``(False, race_value)`` at the horizon (module doc,
    step 3). Raises ValueError when the match stalls."""
    horizon = horizon_turns(world)
    last_turn = None if horizon is None else world.turn + horizon
    state = apply_command(world, seat, command, rng)
    steps = 0
    while state.result is None:
        if last_turn is not None and state.turn > last_turn:
            return False, race_value(state)
        pend = pending(state)
        if not pend or steps > MAX_ROLLOUT_STEPS:
            raise ValueError("rollout stalled")
        actor = min(pend)
        state = apply_command(state, actor, POLICY.choose(state, actor, rng), rng)
        steps += 1
    won = state.result["outcome"] == "won"
    return won, 1.0 if won else 0.0


def _key(command: Mapping[str, Any]) -> tuple:
    """What a command does: two copies of a card played (or occupying) are the same."""
    card = command.get("card")
    return (
        command["type"],
        def_id(card) if isinstance(card, str) else None,
        command.get("location"),
        command.get("column"),
        repr(command.get("spend")),
        command.get("choice"),
    )


def candidates(
    v: Mapping[str, Any],
    seat: int,
    options: list[dict[str, Any]],
    first: dict[str, Any],
    limit: int,
) -> list[dict[str, Any]]:
    """``first`` (the policy's choice) and at most ``limit - 1`` strategic alternatives
    among ``options`` (module doc, step 1), one per distinct :func:`_key`."""
    cat = catalogue()
    t = _table(v, (), STACK_THREAT)
    seen = {_key(first)}
    out = [first]

    def rank(o: dict[str, Any]) -> tuple:
        kind = o["type"]
        if kind == "defeat":
            return (0, -zombie_value(t, o["column"]), "spend" in o)
        order = {
            "occupy": 1,
            "call_for_help": 2,
            "end_turn": 3,
            "claim": 4,
            "choose": 4,
            "skip": 5,
            "assist": 4,
            "decline": 4,
            "end_assist": 6,
        }
        card = o.get("card")
        worth = -cat.of(card).damage if isinstance(card, str) else 0
        return (order.get(kind, 9), worth, 0)

    for o in sorted(options, key=rank):
        if len(out) >= limit:
            break
        if o["type"] in NO_SEARCH:
            continue
        k = _key(o)
        if k not in seen:
            seen.add(k)
            out.append(o)
    return out


def evaluate(
    v: Mapping[str, Any],
    seat: int,
    commands: Sequence[Mapping[str, Any]],
    rng: random.Random,
    budget: int,
    time_cap_s: float | None = None,
    halving: bool = True,
) -> tuple[list[float], list[int], list[int]]:
    """Rollouts of ``commands`` from the view ``v`` of ``seat``: ``(mean values, wins,
    rollouts)`` per command (``wins``: rollouts that won the match before any horizon).
    ``halving``: successive halving (module doc, step 4; dropped
    commands keep the means of the rounds they played, below every survivor), else every
    command gets the same samples, round-robin, ``budget`` rollouts in all (a command
    beyond the budget gets none). Never more than ``budget`` rollouts; once ``time_cap_s``
    seconds of CPU (``time.thread_time``) have passed it stops, dropping the sample under way (every command
    keeps the same samples); ``rollouts`` counts the rollouts kept."""
    n = len(commands)
    totals, wins, counts = [0.0] * n, [0] * n, [0] * n
    alive = list(range(n))
    rounds = max(1, math.ceil(math.log2(n))) if halving and n > 1 else 1
    started = time.thread_time()
    spent = 0
    out_of_time = False
    dropped_rank: list[int] = []
    for rnd in range(rounds):
        share = (budget - spent) // (rounds - rnd)
        samples = max(1, share // len(alive)) if share >= len(alive) or rnd == 0 else 0
        for _ in range(samples):
            if spent >= budget:
                break
            world_seed, play_seed = rng.getrandbits(64), rng.getrandbits(64)
            base = sample_world(v, seat, random.Random(world_seed))
            sample: list[tuple[int, bool, float]] = []
            for i in alive:
                if spent >= budget:
                    break
                won, value = rollout(clone(base), seat, commands[i], random.Random(play_seed))
                sample.append((i, won, value))
                spent += 1
                if (
                    time_cap_s is not None
                    and time.thread_time() - started > time_cap_s
                    and len(sample) < len(alive)
                ):
                    out_of_time = True  # a partial sample is dropped (common random numbers)
                    break
            if out_of_time:
                break
            for i, won, value in sample:
                totals[i] += value
                wins[i] += won
                counts[i] += 1
            if time_cap_s is not None and time.thread_time() - started > time_cap_s:
                out_of_time = True
                break
        if out_of_time or len(alive) <= 1 or rnd == rounds - 1:
            break
        ranked = sorted(alive, key=lambda i: (-(totals[i] / counts[i]) if counts[i] else 0.0, i))
        keep = max(1, math.ceil(len(alive) / 2))
        dropped_rank = ranked[keep:] + dropped_rank
        alive = sorted(ranked[:keep])
    means = [totals[i] / counts[i] if counts[i] else 0.0 for i in range(n)]
    if halving:
        floor = min((means[i] for i in alive), default=0.0)
        for i in dropped_rank:  # a dropped command never outranks a survivor
            means[i] = min(means[i], floor - 1e-9)
    return means, wins, counts


class ExpertBot:
    """Monte Carlo bot over the seat's information set (module doc). ``budget``: rollouts
    per searched decision (0: :data:`POLICY`'s choice); ``candidates``: commands weighed;
    ``time_cap_s``: CPU-time cap per decision in seconds (``time.thread_time``). Raises ValueError for a
    negative budget, fewer than one candidate or a cap <= 0."""

    name = "expert"

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        candidates: int = DEFAULT_CANDIDATES,
        time_cap_s: float = DEFAULT_TIME_CAP_S,
    ):
        if budget < 0 or candidates < 1 or time_cap_s <= 0:
            raise ValueError("budget >= 0, candidates >= 1 and time_cap_s > 0 are required")
        self.budget = budget
        self.candidates = candidates
        self.time_cap_s = time_cap_s
        self.last_rollouts = 0  # rollouts run by the latest choose (tests, benchmarks)

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """One command of ``legal_actions(state, seat)``, decided from ``view(state, seat)``
        and ``rng`` only. Raises ValueError when the seat has no decision to make."""
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        self.last_rollouts = 0
        first = POLICY.choose(state, seat, rng)
        if len(options) == 1 or self.budget == 0 or first["type"] in NO_SEARCH:
            return first
        v = view(state, seat)
        if _wins_now(v, first):
            return first
        shortlist = candidates(v, seat, options, first, self.candidates)
        if len(shortlist) == 1:
            return first
        means, _, counts = evaluate(v, seat, shortlist, rng, self.budget, self.time_cap_s)
        self.last_rollouts = sum(counts)
        best = max(range(len(shortlist)), key=lambda i: (means[i], -i))
        return shortlist[best]


def _wins_now(v: Mapping[str, Any], command: Mapping[str, Any]) -> bool:
    """``command`` defeats the Zombie in the CDC's column (gaining the CDC wins at once)."""
    if command["type"] != "defeat":
        return False
    reward = v["resource_row"][command["column"]]
    return reward is not None and catalogue().of(reward["card"]).kind == "cdc"


class WinEstimator(WholeEstimate):
    """The :class:`domain.estimates.Estimator` of Dead Apocalypse: for each command, the
    mean value of its rollouts (module doc, steps 2-3: 1 won, 0 lost, the race's win
    probability at a horizon), the team's chance to win after it, from the seat's view
    only. ``metric`` ``"win_probability"``. Each command gets ``budget // len(commands)``
    rollouts on shared samples (at least one sample; with a budget below the number of
    commands, the first ``budget`` commands get one rollout and the others the mean of
    those). One win probability (0..1) per command, in order; a
    :class:`domain.estimates.Resumable` estimator whose ``estimate`` is
    :class:`domain.estimates.WholeEstimate`'s."""

    metric: Metric = "win_probability"

    def estimate_part(
        self,
        state: MatchState,
        seat: int,
        commands: Sequence[Mapping[str, Any]],
        budget: int,
        rng: random.Random,
        resume: Mapping[str, Any] | None = None,
        go_on: Callable[[], bool] | None = None,
    ) -> list[float] | dict[str, Any]:
        """:meth:`estimate` from ``resume`` (a :class:`~domain.estimates.Tally` over
        ``commands``; ``None``: from the start), stopping after a rollout when ``go_on()``
        is falsy (:class:`domain.estimates.Resumable`). The rollouts of
        :func:`evaluate` without halving, in its order (sample by sample, every command on
        the sample's world and play seed, ``budget`` at most): the seeds of the samples
        done are drawn again, the world of a sample under way dealt again from its seed.
        Raises ValueError as :meth:`estimate`."""
        if not commands:
            raise ValueError("estimate needs at least one command")
        if budget < 1:
            raise ValueError("estimate needs a budget of at least 1 rollout")
        v = view(state, seat)
        n = len(commands)
        total = min(budget, max(1, budget // n) * n)
        tally = Tally.of(resume, n)
        for _ in range(tally.sample):  # the seeds of the samples done
            rng.getrandbits(64), rng.getrandbits(64)
        base, play_seed = None, 0
        while tally.sample * n + tally.index < total:
            if base is None or tally.index == 0:
                world_seed, play_seed = rng.getrandbits(64), rng.getrandbits(64)
                base = sample_world(v, seat, random.Random(world_seed))
            i = tally.index
            value = rollout(clone(base), seat, commands[i], random.Random(play_seed))[1]
            tally.totals[i] += value
            tally.counts[i] += 1
            tally.sample, tally.index = divmod(tally.sample * n + i + 1, n)
            stopped = go_on is not None and not go_on()
            if stopped and tally.sample * n + tally.index < total:
                return tally.document()
        counts = tally.counts
        means = [tally.totals[i] / counts[i] if counts[i] else 0.0 for i in range(n)]
        done = [means[i] for i in range(n) if counts[i]]
        fallback = sum(done) / len(done) if done else 0.0
        return [means[i] if counts[i] else fallback for i in range(n)]


ESTIMATOR = WinEstimator()
