"""The ``expert`` bot and the game's estimator: determinized Monte Carlo rollouts over a
shortlist of commands (issue 23).

How it decides (one call of :meth:`ExpertBot.choose`):

1. **Shortlist.** The rollout policy's own choice (``tactician``; ``toma_hunter`` against
   the A.I.Toma) comes first, then one command of each other kind the seat may send
   (:func:`shortlist`): in Recruitment a Triple, a recruit, spending ammo, opening a slot
   and ``ready``; in battle ``pass`` and the cheapest reactions; in an effect decision its
   other options. At most ``candidates`` commands. The Expert Variant draft and the
   faction choice are the policy's (no rollouts).
2. **Determinization.** Each sample is a world dealt by :func:`.determinize.sample_world`
   from ``view(state, seat)`` only: other hands, deck orders, health and battle stacks,
   face-down cards and — during the private Recruitment Phase — the other seats' moves of
   this phase are dealt or played again.
3. **Rollouts.** For every sample each shortlisted command is applied to that world and the
   match is played on by the rollout policy for every seat (the A.I.Toma plays itself) for
   ``horizon`` more rounds (:func:`plan`: 2 with two living sides, else 1) or to its end.
   Candidates share the samples and the rollout
   seeds (common random numbers). The value of a rollout (:func:`value_of`) is the seat's
   share of the win when the match ended, else its chance by the health points left (solo:
   a logistic model fitted on ``toma_hunter`` matches, :data:`TOMA_WEIGHTS`).
4. The command with the best mean value wins (ties: the earlier in the shortlist, so the
   policy's choice unless another is better).

Budget: ``budget`` rollouts per decision in all (``budget // len(shortlist)`` samples, at
least one; beyond 2 living sides ``budget x 2 / sides``, solo ``budget x 2``,
:func:`plan`). ``time_cap_s`` is a wall-clock safety net only: when a decision takes longer, the samples finished so far
decide (then the choice may depend on the machine). Bot options
(``bots.BOT_OPTIONS["expert"]``): ``budget``, ``candidates``, ``time_budget_ms``.

The estimator (:class:`Estimator`, metric ``win_probability``) runs the same rollouts for
the commands it is given: the mean value of each, from the seat's view only, the same
numbers for the same seed.

The match is reached only through the calls the engine itself delegates to (:data:`API`:
``view``, ``pending``, ``legal_actions``, ``decide``, ``evolve``, ``dump_state``,
``load_state``; the result is the view's) and the policy bots' ``choose``, which
:mod:`.bots` hands in (``policies``: ``tactician`` and ``toma_hunter``), so this module sits
below ``bots`` and ``game`` (.importlinter).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from domain.estimates import Metric, Tally, WholeEstimate

from . import actions, fold, rules, views
from . import state as state_mod
from .determinize import sample_world
from .spec import SCALE

DEFAULT_BUDGET = 24  # rollouts per decision (all candidates together)
DEFAULT_CANDIDATES = 3  # commands weighed by rollouts
DEFAULT_HORIZON = 2  # rounds a rollout plays on (then the health points decide)
# More sides make every rollout round dearer (each seat recruits and fights): from 3 living
# sides a rollout plays DEFAULT_HORIZON_MANY round and the budget shrinks by
# FULL_BUDGET_SIDES / sides (measured, 4 seats, budget 24, CPU per decision: p95 1.8 s with
# 2 rounds, 1.49 s with 1 round (p50 0.98 s); 2 seats, 2 rounds: p95 0.9 s).
DEFAULT_HORIZON_MANY = 1
FULL_BUDGET_SIDES = 2
# Solo against the A.I.Toma a rollout is cheap (one seat recruits, the A.I.Toma plays itself:
# CPU per decision p50 0.21 s, p95 0.36 s at budget 24, 2026-12-02), and with 8 samples per
# candidate a rollout's value was too noisy to rank commands whose chances differ by a few
# points: the budget is multiplied by SOLO_BUDGET_FACTOR there (plan). 3 instead of 2 (budget
# 36, paired, 160 solo matches, 2026-12-04) won 15 matches the default lost and lost 17 it
# won (z -0.35; p95 0.60 s of CPU against 0.40 s); 4 (Boss and Untamed, 80 matches) 8 against
# 5 (z 0.83; p95 0.81 s): neither adopted (docs/known-limitations.md).
SOLO_BUDGET_FACTOR = 2
DEFAULT_TIME_CAP_S = 1.5  # wall-clock safety net per decision (seconds)
ROLLOUT_STEP_CAP = 4000  # commands one rollout may play (a guard, never reached)
HEALTH_EXPONENT = 2.0  # value at the horizon: health^k shares
# From 3 living sides most matches end in the A.I.Pokalypse, where the highest total
# strength wins (measured: 7 of 8 four-seat matches), so the value at the horizon also
# weighs the seat's share of the total strength: by STRENGTH_WEIGHT, in Sudden Death (when
# the A.I.Pokalypse can be triggered) by STRENGTH_WEIGHT_SUDDEN; and a command other than
# the policy's must beat it by DEVIATION_MARGIN (one-round rollouts on a smaller budget are
# noisy). Measured with health alone: 0 wins in 8 four-seat matches against tacticians.
STRENGTH_WEIGHT, STRENGTH_WEIGHT_SUDDEN = 0.3, 0.6
DEVIATION_MARGIN = 0.02
# Against the A.I.Toma ("it will become so strong that you won't stand a chance"): the share
# of the side's total strength against the A.I.Toma's units (sum of their card values)
# counts by TOMA_STRENGTH_WEIGHT. Measured (4 solo matches per difficulty, same seeds, wins
# Handy-Man/Boss/Endboss/Untamed): health alone 0/1/0/0, with strength 1/1/0/0, toma_hunter
# 1/0/0/0 (docs/known-limitations.md: too few matches to tell them apart).
TOMA_STRENGTH_WEIGHT = 0.3
#: Solo: the value at the horizon is a logistic model of the seat's chance to win over
#: :func:`toma_features`, fitted by ``benchmarks/aipokalypse_toma_fit.py`` on ``toma_hunter``
#: solo matches at the four difficulties (``--matches 150``: 600 matches, 3,352 rows, held-out
#: log loss 0.294 against the base rate's 0.380). The health share above valued keeping the
#: hand for the next two battles over building units (a traced match skipped two whole
#: Recruitment Phases; with it and the solo budget the expert won 2 of 12 Handy-Man matches,
#: toma_hunter 3). ``None``: the health and strength shares.
TOMA_WEIGHTS: tuple[float, ...] | None = (
    3.2622,
    0.1968,
    -0.8505,
    -0.4047,
    1.5192,
    -0.8058,
    0.8582,
    -0.2625,
    1.7352,
    -2.3752,
    -0.3246,
    -2.5818,
    -2.1769,
)
ROUND_EVENT = "RecruitmentStarted"  # a rollout counts rounds by this public event
END_EVENT = "MatchEnded"
SEARCH_PHASES = frozenset({"recruitment", "battle"})
#: Recruitment command kinds in the order the shortlist takes one of each
RECRUIT_KINDS = ("triple", "recruit", "spend_ammo_humans", "spend_ammo", "open_slot", "ready")
#: the same in solo, where how many units to field and how many hand cards to keep for battle
#: reactions is the main question (``toma_hunter``'s unit count): ``ready`` and a new slot first
SOLO_RECRUIT_KINDS = ("ready", "open_slot", "triple", "recruit", "spend_ammo_humans", "spend_ammo")


#: the engine's own calls (``game.AIPokalypseEngine`` delegates to these modules)
API = SimpleNamespace(
    view=views.view,
    pending=actions.pending,
    legal_actions=actions.legal_actions,
    decide=rules.RULES.decide,
    evolve=fold.evolve,
    dump_state=state_mod.dump_state,
    load_state=state_mod.load_state,
)


def _policy_name(view: Mapping[str, Any]) -> str:
    return "toma_hunter" if view.get("toma") else "tactician"


def sides(view: Mapping[str, Any]) -> int:
    """Living sides of the match as the view shows them: seats not eliminated, plus the
    A.I.Toma (solo and co-op)."""
    toma = view.get("toma")
    return sum(1 for s in view["seats"] if not s["eliminated"]) + (
        1 if toma and not toma["eliminated"] else 0
    )


def plan(view: Mapping[str, Any], budget: int, horizon: int | None) -> tuple[int, int]:
    """``(rollouts, horizon)`` of a decision: ``horizon`` or, when ``None``,
    :data:`DEFAULT_HORIZON` with up to 2 living sides (:func:`sides`), else
    :data:`DEFAULT_HORIZON_MANY`; ``budget`` shrunk by ``FULL_BUDGET_SIDES / sides`` beyond
    :data:`FULL_BUDGET_SIDES` sides (at least 1 when ``budget`` > 0), multiplied by
    :data:`SOLO_BUDGET_FACTOR` in solo (``view["mode"] == "solo"``)."""
    count = sides(view)
    if horizon is None:
        horizon = DEFAULT_HORIZON if count <= 2 else DEFAULT_HORIZON_MANY
    if count > FULL_BUDGET_SIDES and budget > 0:
        budget = max(1, budget * FULL_BUDGET_SIDES // count)
    if view.get("mode") == "solo":
        budget *= SOLO_BUDGET_FACTOR
    return budget, horizon


def shortlist(
    actions: list[dict[str, Any]], first: dict[str, Any], limit: int, solo: bool = False
) -> list[dict[str, Any]]:
    """``first`` (the policy's choice) and one command of each other kind, at most ``limit``.

    Recruitment (:data:`RECRUIT_KINDS`; ``solo``: :data:`SOLO_RECRUIT_KINDS`): the first
    listed command of each kind (``legal_actions`` lists a kind's commands in a stable
    order), ``ready`` last (solo: first). Battle: ``pass``, then ammo reactions by count,
    then card reactions. Effect decisions, placements and offers: the listed order."""
    out = [first]
    kinds = {a["type"] for a in actions}
    if kinds & set(RECRUIT_KINDS):
        order = [
            next(a for a in actions if a["type"] == k)
            for k in (SOLO_RECRUIT_KINDS if solo else RECRUIT_KINDS)
            if k in kinds
        ]
    elif kinds & {"react_card", "react_ammo", "pass"}:
        order = (
            [a for a in actions if a["type"] == "pass"]
            + sorted(
                (a for a in actions if a["type"] == "react_ammo"), key=lambda a: a.get("count", 0)
            )
            + [a for a in actions if a["type"] not in ("pass", "react_ammo")]
        )
    else:
        order = list(actions)
    for a in order:
        if len(out) >= limit:
            break
        if a not in out:
            out.append(a)
    return out


def value_of(state: Any, seat: int) -> float:
    """The seat's value of a (rollout) position in 0..1: its share of the win (``1 /
    len(winners)``, 0 when it is not among them) once the match ended, else its share of
    ``health^k`` (:data:`HEALTH_EXPONENT`) among the living players (eliminated: 0), from 3
    living sides mixed with its share of the total strength (:data:`STRENGTH_WEIGHT`); in
    solo the fitted chance to win, ``1 / (1 + exp(-TOMA_WEIGHTS . toma_features))``; in
    co-op the human side's share of health against the A.I.Toma mixed with its share of
    strength (:data:`TOMA_STRENGTH_WEIGHT`)."""
    v = API.view(state, seat)
    result = v["result"]
    if result is not None:
        winners = result.get("winners") or []
        return 1.0 / len(winners) if seat in winners else 0.0
    toma = v.get("toma")
    if toma and v["mode"] == "solo" and TOMA_WEIGHTS is not None:
        z = sum(w * x for w, x in zip(TOMA_WEIGHTS, toma_features(v, seat), strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    if toma:
        side = sum(s["health_count"] for s in v["seats"] if not s["eliminated"])
        ours, theirs = float(side), float(0 if toma["eliminated"] else toma["health_count"])
        ours, theirs = ours / max(1, len(v["seats"])), theirs
        total = ours**HEALTH_EXPONENT + theirs**HEALTH_EXPONENT
        health = 0.5 if total == 0 else ours**HEALTH_EXPONENT / total
        mine = sum(board_strength(s["slots"]) for s in v["seats"] if not s["eliminated"])
        its = sum(slot.get("strength", 0) for slot in toma["slots"])
        share = mine / (mine + its) if mine + its else 0.5
        return (1 - TOMA_STRENGTH_WEIGHT) * health + TOMA_STRENGTH_WEIGHT * share
    weights = {
        s["seat"]: (0.0 if s["eliminated"] else float(s["health_count"]) ** HEALTH_EXPONENT)
        for s in v["seats"]
    }
    total = sum(weights.values())
    health = 0.0 if total == 0 else weights[seat] / total
    if sides(v) <= 2:
        return health
    strength = {s["seat"]: 0 if s["eliminated"] else board_strength(s["slots"]) for s in v["seats"]}
    total = sum(strength.values())
    share = strength[seat] / total if total else 1.0 / sides(v)
    weight = STRENGTH_WEIGHT_SUDDEN if v["sudden_death"] else STRENGTH_WEIGHT
    return (1 - weight) * health + weight * share


def toma_features(v: Mapping[str, Any], seat: int) -> tuple[float, ...]:
    """The inputs of the solo value (:data:`TOMA_WEIGHTS`' order) from the seat's view ``v``
    of a match against the A.I.Toma: 1 (intercept); the seat's and the A.I.Toma's health
    points (0..6) and whether each has none left (0/1); Sudden Death (0/1); the seat's total
    strength (:func:`board_strength`) and the A.I.Toma's (its piles' card values), each / 10;
    the seat's ammo x 2 (battle strength) and the A.I.Toma's ammo x its strength, each / 10;
    the seat's and the A.I.Toma's unit counts / 6; the round / 10."""
    me, toma = v["seats"][seat], v["toma"]
    mine, theirs = me["health_count"], 0 if toma["eliminated"] else toma["health_count"]
    return (
        1.0,
        float(mine),
        float(theirs),
        float(mine == 0),
        float(theirs == 0),
        float(bool(v["sudden_death"])),
        board_strength(me["slots"]) / 10,
        sum(slot.get("strength", 0) for slot in toma["slots"] if slot.get("unit")) / 10,
        2 * me["ammo"] / 10,
        toma["ammo"] * toma["ammo_strength"] / 10,
        sum(1 for slot in me["slots"] if slot.get("unit")) / 6,
        sum(1 for slot in toma["slots"] if slot.get("unit")) / 6,
        v["round"] / 10,
    )


def board_strength(slots: Sequence[Mapping[str, Any]]) -> int:
    """ "Total Strength" of a board as a view shows it: the strength scale value of every
    unit (no temporary strength)."""
    return sum(SCALE[slot["pos"]] for slot in slots if slot.get("unit"))


class _Search:
    """Rollouts of some commands of ``seat`` over sample worlds of its view."""

    def __init__(self, state: Any, seat: int, horizon: int, policies: Mapping[str, Any]):
        self.seat = seat
        self.view = API.view(state, seat)
        self.dump = API.dump_state(state)
        self.horizon = horizon
        self.policy = policies[_policy_name(self.view)]

    def world(self, seed: int) -> dict[str, Any]:
        return sample_world(self.dump, self.view, self.seat, random.Random(seed))

    def rollout(self, world: Mapping[str, Any], command: Mapping[str, Any], seed: int) -> float:
        """The value (:func:`value_of`) of ``command`` in ``world`` played on by the policy;
        NaN when the sample world refuses the command."""
        engine = API
        state = engine.load_state(world)
        rng = random.Random(seed)
        try:
            for event in engine.decide(state, self.seat, dict(command), rng):
                state = engine.evolve(state, event)
        except Exception:  # a world the command does not fit
            return math.nan
        rounds, last = 0, list[Any]()  # Recruitment Phases begun
        for _ in range(ROLLOUT_STEP_CAP if self.horizon else 0):
            if rounds >= self.horizon or any(e.type == END_EVENT for e in last):
                break
            pending = engine.pending(state)
            if not pending:
                break
            actor = min(pending)
            move = self.policy.choose(state, actor, rng)
            last = engine.decide(state, actor, move, rng)
            for event in last:
                state = engine.evolve(state, event)
                rounds += event.type == ROUND_EVENT
        return value_of(state, self.seat)

    def values(
        self,
        commands: Sequence[Mapping[str, Any]],
        samples: int,
        seed: int,
        deadline: float | None = None,
    ) -> tuple[list[float], int]:
        """Mean rollout value of each command over ``samples`` worlds (common worlds and
        seeds) and the rollouts run; stops early at ``deadline`` (``time.perf_counter``)."""
        totals = [0.0] * len(commands)
        counts = [0] * len(commands)
        runs = 0
        seeder = random.Random(seed)
        for _ in range(samples):
            world_seed, roll_seed = seeder.getrandbits(64), seeder.getrandbits(64)
            try:
                world = self.world(world_seed)
            except Exception:  # noqa: BLE001 (a dump it cannot deal)
                continue
            for i, command in enumerate(commands):
                try:
                    val = self.rollout(world, command, roll_seed)
                except Exception:  # noqa: BLE001 (a world the policy breaks)
                    val = math.nan
                runs += self.horizon > 0
                if not math.isnan(val):
                    totals[i] += val
                    counts[i] += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        means = [t / c if c else math.nan for t, c in zip(totals, counts, strict=True)]
        return means, runs

    def resume(
        self,
        commands: Sequence[Mapping[str, Any]],
        samples: int,
        seed: int,
        tally: Tally,
        go_on: Callable[[], bool] | None = None,
    ) -> bool:
        """:meth:`values`' rollouts (without a deadline) from where ``tally`` stands, added
        to it; True once all ``samples`` are done, False when ``go_on()`` (asked after each
        rollout) was falsy before. The seeds of the samples done are drawn again
        from ``seed`` and the world of a sample under way is dealt again from its seed, so
        chained calls add what one call adds (:class:`domain.estimates.Resumable`)."""
        seeder = random.Random(seed)
        for _ in range(tally.sample):
            seeder.getrandbits(64), seeder.getrandbits(64)
        stopped = False
        while tally.sample < samples and not stopped:
            world_seed, roll_seed = seeder.getrandbits(64), seeder.getrandbits(64)
            try:
                world = self.world(world_seed)
            except Exception:  # noqa: BLE001 (a dump it cannot deal)
                tally.sample, tally.index = tally.sample + 1, 0
                continue
            while tally.index < len(commands) and not stopped:
                i = tally.index
                try:
                    val = self.rollout(world, commands[i], roll_seed)
                except Exception:  # noqa: BLE001 (a world the policy breaks)
                    val = math.nan
                if not math.isnan(val):
                    tally.totals[i] += val
                    tally.counts[i] += 1
                tally.index += 1
                stopped = go_on is not None and not go_on()
            if tally.index == len(commands):
                tally.sample, tally.index = tally.sample + 1, 0
        return tally.sample == samples


class ExpertBot:
    """Monte Carlo bot (module doc). ``policies``: the rollout policy bots by level
    (``tactician``, ``toma_hunter``); ``budget``: rollouts per decision (0: the policy's
    choice); ``candidates``: commands weighed; ``horizon``: rounds a rollout plays
    (``None``: by the living sides, :func:`plan`);
    ``time_cap_s``: wall-clock cap of a decision in seconds. Raises ValueError for a
    negative budget, fewer than 1 candidate or horizon, or a cap <= 0."""

    name = "expert"
    #: the rollouts' class: it draws the worlds a decision is weighed in (from the seat's
    #: view: :func:`sample_world`); a benchmark's omniscient bound swaps it
    #: (``benchmarks/aipokalypse_toma_oracle.py``), the bots of the server never do
    search_class: type[_Search] = _Search

    def __init__(
        self,
        policies: Mapping[str, Any],
        budget: int = DEFAULT_BUDGET,
        candidates: int = DEFAULT_CANDIDATES,
        horizon: int | None = None,
        time_cap_s: float = DEFAULT_TIME_CAP_S,
    ):
        if budget < 0 or candidates < 1 or (horizon is not None and horizon < 1) or time_cap_s <= 0:
            raise ValueError(
                "budget >= 0, candidates >= 1, horizon >= 1 and time_cap_s > 0 are required"
            )
        self.policies = policies
        self.budget, self.candidates, self.horizon, self.time_cap_s = (
            budget,
            candidates,
            horizon,
            time_cap_s,
        )
        self.last_rollouts = 0

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """One command of ``legal_actions(state, seat)``, decided from ``view(state, seat)``
        and ``rng`` only. Raises ValueError when the seat has no decision to make."""
        self.last_rollouts = 0
        legal = API.legal_actions(state, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no decision to make")
        v = API.view(state, seat)
        seed = rng.getrandbits(64)
        first = self.policies[_policy_name(v)].choose(state, seat, random.Random(seed))
        if len(legal) == 1 or self.budget == 0 or v["phase"] not in SEARCH_PHASES:
            return first
        budget, horizon = plan(v, self.budget, self.horizon)
        candidates = shortlist(
            legal, first, min(self.candidates, budget), solo=v.get("mode") == "solo"
        )
        if len(candidates) == 1:
            return first
        samples = budget // len(candidates)  # >= 1: never above the budget
        search = self.search_class(state, seat, horizon, self.policies)
        means, self.last_rollouts = search.values(
            candidates, samples, seed, time.perf_counter() + self.time_cap_s
        )
        margin = DEVIATION_MARGIN if sides(v) > 2 else 1e-9
        best, best_value = first, means[0] if not math.isnan(means[0]) else -1.0
        for command, mean in zip(candidates[1:], means[1:], strict=True):
            if not math.isnan(mean) and mean > best_value + (margin if best is first else 1e-9):
                best, best_value = command, mean
        return dict(best)


class Estimator(WholeEstimate):
    """The game's :class:`domain.estimates.Estimator`: each command's mean rollout value
    (:func:`value_of`, the seat's win probability) over ``budget // len(commands)`` sample
    worlds of the seat's view (:class:`ExpertBot`'s rollouts with ``policies``, ``horizon``
    rounds); the rollouts spent never exceed ``budget``. One float in 0..1 per command,
    in order; a budget below one rollout per command weighs each command by
    :func:`value_of` right after it in one sample world (no rollout). A
    :class:`domain.estimates.Resumable` estimator whose ``estimate`` is
    :class:`domain.estimates.WholeEstimate`'s."""

    metric: Metric = "win_probability"

    def __init__(self, policies: Mapping[str, Any], horizon: int | None = None):
        self.policies = policies
        self.horizon = horizon

    def estimate_part(
        self,
        state: Any,
        seat: int,
        commands: Sequence[Mapping[str, Any]],
        budget: int,
        rng: random.Random,
        resume: Mapping[str, Any] | None = None,
        go_on: Callable[[], bool] | None = None,
    ) -> list[float] | dict[str, Any]:
        """:meth:`estimate` from ``resume`` (a :class:`~domain.estimates.Tally` over
        ``commands``; ``None``: from the start), stopping after a rollout when ``go_on()``
        is falsy (:class:`domain.estimates.Resumable`: :meth:`_Search.resume`). Raises
        ValueError as :meth:`estimate`."""
        if not commands:
            raise ValueError("no commands to estimate")
        if budget < 1:
            raise ValueError("budget must be at least 1")
        samples = budget // len(commands)
        horizon = plan(API.view(state, seat), budget, self.horizon)[1]
        search = _Search(state, seat, horizon if samples else 0, self.policies)
        tally = Tally.of(resume, len(commands))
        if not search.resume(list(commands), max(1, samples), rng.getrandbits(64), tally, go_on):
            return tally.document()
        means = [t / c if c else math.nan for t, c in zip(tally.totals, tally.counts, strict=True)]
        return [0.0 if math.isnan(m) else m for m in means]
