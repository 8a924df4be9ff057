"""The ``expert`` bot: determinized Monte Carlo rollouts over a pruned set of candidates.

How it decides (one call of :meth:`ExpertBot.choose`):

1. **Candidates.** Every legal command gets a *prior*: the immediate VP of the card (as
   ``greedy`` sees it) plus the change it makes to the *end value* of the own tableau,
   i.e. the current phase objective plus the own AI card (rulebook E and F; both score
   on the finished tableau, so building towards them early matters). Drafts, reserve
   creation are valued by the best prior of the card over the open cells; AI-6's step 1
   by the best hand card still drafted after it plus :data:`AI6_DRAW_VALUE`, its step 2
   (chosen after seeing the drawn cards) by the hand cards it keeps. The
   ``candidates`` best commands (both AI sides at set-up) go to the rollouts.
2. **Determinization.** A sample world is built **from** ``view(state, seat)`` **only**
   (plus the public card catalogue): the cards the seat cannot see (other hands,
   reserves, reserve-creation cards, the deck, AI-6 discards) are the current phase's
   cards minus every card it can see, shuffled and dealt back by the public counts.
   Other seats' hidden choices of the current step are dropped and made again by the
   rollout policy; hidden AI sides before the reveal are chosen again too.
3. **Rollouts.** For each sample, every candidate is applied to a copy of the sample
   world and the match is played on by a fast policy until the end of the current
   phase (the end of the match for the AI side choice): the seat itself drafts the card
   with the best immediate VP over its open cells and places for the best immediate VP
   (so the cards it will see again after passing, the reserve it carries across turns
   and the phase objective are all played out); the other seats draft and place at
   random. In solo (:data:`ROLLOUT_END_MODES`) the seat's policy also weighs the end
   value: of its :data:`ROLLOUT_END_TOP` best immediate placements it takes the one with
   the best immediate VP plus change of phase objective and AI card VP (measured: +6 VP
   mean solo score at the same budget, for 60% more time per rollout). Candidates share
   the samples and the rollout RNG (common random numbers).
   The value of a rollout is the seat's score at the horizon; a Phase 1 horizon adds
   :data:`AI_PARTIAL_WEIGHT` x the AI card's VP on the partial tableau. Solo
   (:data:`ROLLOUT_TO_END_MODES`) rolls out to the end of the match from every decision,
   so the Phase 2 objective and the AI card count exactly (measured with the larger solo
   budget below: median solo score 105.5 -> 113 over 12 games). Solo rollouts also use the
   AI powers (:data:`ROLLOUT_POWER_MODES`): AI-6 at the first own draft of each phase
   (R-SOLO-AI6: the offered cards not taken are discarded anyway, so it is pure gain),
   its discard step then keeping the best offered card (every mode's rollouts play AI-6's
   two steps when a candidate starts it: the seat's step 2 discards its two weakest hand
   cards, another seat's is random),
   AI-5 at the last place step of Phase 2 for the best objective + AI card gain.
   Scores that read only the own tableau (all but 099-114) and the end value are cached
   (the end value by :func:`tableau_key`, card effects inside the compiled scorer), so the
   same budget takes about half the time; every card x cell of one own tableau is weighed
   from the tableau read once (:class:`scoring.Placements`, cached by tableau).
4. The rollouts are spent by successive halving: ``ceil(log2(candidates))`` rounds share
   the budget; after each round the better half of the candidates (by mean rollout value)
   stays, so the finalists get most of the samples. The finalist with the best mean value
   wins (ties: the better prior, then the canonical order of ``legal_actions``).

Modes ("2-Player Mode", "Solo Mode"): the same three steps, with the mode's hidden cards.
Solo hides only the order of the timer stack and of the remaining deck: the draft grid,
dividers, standee and the own reserve come from the view, the timer stack and deck are
dealt from the unseen cards, and the rollouts take from the standee's line and refill the
grid like the flow. "Choose your AI card" weighs :data:`SOLO_SIDE_CANDIDATES` of the 12
sides (best by the side preference) with rollouts to the end of the match, so the side
that reaches the best expected total on this match's objectives wins. 2-player mode hides
the opponent's hand and reserve, its discard and the deck: the opponent's hand is dealt
from the unseen cards by its count, and rollouts play the discard (own seat: the card
with the lowest immediate VP; opponent: random), the draw and the pass. The neutral grid
is every seat's second neighbour, the draft grid the solo seat's only one.

Determinism: the choice depends only on the view and ``rng``; ``budget`` (rollouts per
decision) bounds the work. Two caps bound it too: ``cpu_cap_s`` (:data:`DEFAULT_CPU_CAP_S`,
CPU seconds of the deciding thread) cuts the budget, after each sample, to what the cap
affords at the CPU per rollout measured so far, so the halving rounds still share it;
``time_cap_s`` (wall clock) is a safety net: when a decision takes longer, the samples
finished so far decide. When a cap binds, the choice may depend on the machine.

Bot options (``bots.BOT_OPTIONS["expert"]``, per seat through the API's ``bot_options``):
``budget``, ``candidates`` and ``time_budget_ms`` (the per-decision wall-clock budget, i.e.
``time_cap_s``). Omitted options keep the module defaults :data:`DEFAULT_BUDGET`,
:data:`DEFAULT_CANDIDATES` / :data:`MODE_CANDIDATES` and :data:`DEFAULT_TIME_CAP_S` /
:data:`MODE_TIME_CAP_S`; ``BOTS["expert"]`` is the bot with every default.

Budgets: ``budget`` is the number of rollouts of a 3-6 seat decision; a 2-player or solo
rollout plays fewer seats, so those modes run :data:`MODE_BUDGET_FACTOR` times as many, and
in solo (:data:`HORIZON_BUDGET_MODES`) :func:`horizon_factor` times more again when fewer
turns are left to the rollout horizon (a shorter rollout costs less).
The wall-clock cap is :data:`MODE_TIME_CAP_S` of the mode (solo has a single seat, so its
decisions may take longer), else :data:`DEFAULT_TIME_CAP_S`; ``time_cap_s`` overrides it.
A sample world the engine rejects falls back to the prior alone.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any

from . import actions as A
from . import flow, hacking, powers, roles, rules, solo
from .cards import catalogue
from .duo import DISCARD
from .powers import diagonal as has_diagonal
from .recorder import Recorder
from .scoring import Placements, score_ai_card, score_effect, score_objective
from .spec import AI6_DISCARD, AI6_DRAW, SOLO_COPY_POINTS_VP, TURNS_PER_PHASE
from .state import MatchState, Pos, SeatState, cell
from .tableau import AI_POS, placement_cells
from .views import view

DEFAULT_BUDGET = 48  # rollouts per decision (iterations)
DEFAULT_CANDIDATES = 4  # commands evaluated by rollouts
# Per-mode shortlist when none is given: solo rollouts are cheap enough for more candidates
# (measured over 12 solo games: median 117 -> 119.5 against 4 candidates).
MODE_CANDIDATES = {"solo": 6}
DEFAULT_TIME_CAP_S = 1.0  # wall-clock safety net per decision (seconds; < 2 s under load)
# Per-mode wall-clock cap when none is given: a solo match has one seat, so each of its
# decisions may take longer and still stay under 2 s on a loaded machine.
MODE_TIME_CAP_S = {"solo": 1.7}  # + at most one sample's overrun: < 2 s
# CPU cap per decision (seconds of the deciding thread's CPU, ``time.thread_time``; issue
# 23: p95 <= 1 s): the rollouts' share of it, the prior and one sample's overrun on top.
DEFAULT_CPU_CAP_S = 0.9
AI_PARTIAL_WEIGHT = 0.7  # Phase 1 horizon: weight of the AI card on the partial tableau
COPY_POINTS_ESTIMATE = 4  # 105/106: about a good neighbour turn (solo rule: 4 VP)
END_WEIGHT = 1.0  # prior: weight of the end-value change
AI_SIDE_PREFERENCE = (
    "AI-8",
    "AI-5",
    "AI-10",
    "AI-9",
    "AI-1",
    "AI-4",
    "AI-3",
    "AI-11",
    "AI-12",
    "AI-7",
    "AI-2",
    "AI-6",
)
ROLLOUT_KINDS = frozenset(
    {
        A.CHOOSE_AI_SIDE,
        A.KEEP_RESERVE,
        A.DRAFT,
        A.AI6_DISCARD,
        DISCARD,
        A.PLACE,
        A.COPY,
        A.EXCHANGE_RESERVE,
        A.MOVE_CARD,
        A.PLACE_EXTRA,
    }
)
# AI-6 step 1 in the prior: two more reserve cards are worth about one average card; the
# best hand card is still drafted afterwards when the hand keeps one (R-AI6-STEPS).
AI6_DRAW_VALUE = 1.0
# Rollouts per decision relative to ``budget`` by mode: a solo rollout plays one seat, a
# 2-player rollout two, so the same wall-clock time holds more of them.
MODE_BUDGET_FACTOR = {"standard": 1.0, "duo": 1.5, "solo": 4.0}
SOLO_SIDE_CANDIDATES = 6  # solo "Choose your AI card": sides kept for the rollouts
ROLLOUT_END_MODES = frozenset({"solo"})  # modes whose own rollout policy weighs the end value
ROLLOUT_END_TOP = 3  # ... of this many best immediate placements
ROLLOUT_TO_END_MODES = frozenset({"solo"})  # modes whose Phase 1 rollouts play to the match end
ROLLOUT_POWER_MODES = frozenset({"solo"})  # modes whose own rollout policy uses AI-5 / AI-6
# Modes whose budget grows as the horizon nears (measured, solo, budget 24, seeds 0-19 /
# 20-39: mean 116.1 -> 119.1 / median 115 -> 119; as much as doubling the budget, at the
# same cost for the slowest, earliest decisions).
HORIZON_BUDGET_MODES = frozenset({"solo"})
HORIZON_BUDGET_MAX = 6.0  # ... by at most this factor
AI5_ROLLOUT_SWAPS = 24  # AI-5 inside a rollout: swaps weighed (drawn by the rollout RNG)


def clear_rollout_caches() -> None:
    """Empty the by-tableau caches of the rollouts (end values, placements, own-only card
    VPs, open cells): each decision starts them again, so they hold one decision's
    tableaux. Results are the same (the caches are exact); what it bounds is the garbage
    collector's work: kept across decisions (up to 2 x 2^17 end values) the caches made
    each full collection walk all their objects, 0.14 s of CPU after 6 decisions and
    growing, inside a decision and past its CPU cap (measured: decisions of 1.1-1.8 s)."""
    for cached in (end_value, end_value_added, _placements, _own_effects, _open_cells):
        cached.cache_clear()


def affordable(budget: int, spent: int, cpu_s: float, cpu_cap_s: float) -> int:
    """The rollouts a decision can afford: ``budget``, or fewer when ``spent`` rollouts took
    ``cpu_s`` seconds of CPU and the rest at that rate would pass ``cpu_cap_s`` (never fewer
    than ``spent``)."""
    if spent <= 0 or cpu_s <= 0 or cpu_cap_s * spent >= budget * cpu_s:
        return budget
    return max(spent, int(cpu_cap_s * spent / cpu_s))


def horizon_factor(v: Mapping[str, Any], to_end: bool) -> float:
    """Rollouts per decision relative to ``budget`` in the modes of
    :data:`HORIZON_BUDGET_MODES` (else 1.0): a rollout plays the turns left to its horizon,
    so a decision with fewer turns left affords more rollouts for the same work. The
    factor is the full horizon (7 turns, 14 to the end of the match) over the turns left,
    at most :data:`HORIZON_BUDGET_MAX`; it depends only on the view (deterministic)."""
    if v["mode"] not in HORIZON_BUDGET_MODES:
        return 1.0
    full = TURNS_PER_PHASE * (2 if to_end else 1)
    left = max(1, TURNS_PER_PHASE - max(1, v["turn"]) + 1)
    if to_end and v["phase"] == 1:
        left += TURNS_PER_PHASE
    return min(HORIZON_BUDGET_MAX, full / left)


class ExpertBot:
    """Monte Carlo bot (module doc). ``budget``: rollouts per decision; ``candidates``:
    commands kept for the rollouts (``None``: :data:`MODE_CANDIDATES` of the match's mode,
    else :data:`DEFAULT_CANDIDATES`); ``time_cap_s``: wall-clock cap per decision in seconds
    (``None``: :data:`MODE_TIME_CAP_S` of the match's mode, else :data:`DEFAULT_TIME_CAP_S`);
    ``cpu_cap_s``: CPU cap per decision in seconds (``None``: :data:`DEFAULT_CPU_CAP_S`).
    Raises ValueError for a negative budget, no candidates or a cap <= 0."""

    name = "expert"

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        candidates: int | None = None,
        time_cap_s: float | None = None,
        cpu_cap_s: float | None = None,
    ):
        if (
            budget < 0
            or (candidates is not None and candidates < 1)
            or (time_cap_s is not None and time_cap_s <= 0)
            or (cpu_cap_s is not None and cpu_cap_s <= 0)
        ):
            raise ValueError(
                "budget >= 0, candidates >= 1, time_cap_s > 0 and cpu_cap_s > 0 are required"
            )
        self.budget = budget
        self.candidates = candidates
        self.time_cap_s = time_cap_s
        self.cpu_cap_s = cpu_cap_s
        self.last_rollouts = 0  # rollouts run by the latest choose (for tests/benchmarks)

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """One command of ``legal_actions(state, seat)``, decided from ``view(state, seat)``
        and ``rng`` only. Raises ValueError when the seat has no decision to make."""
        options = A.legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        self.last_rollouts = 0
        if len(options) == 1:
            return options[0]
        v = view(state, seat)
        prior = Prior(v, seat)
        scored = sorted(
            ((prior.of(o), -i, o) for i, o in enumerate(options)),
            key=lambda x: (x[0], x[1]),
            reverse=True,
        )
        if options[0]["type"] == A.CHOOSE_AI_SIDE:
            keep = SOLO_SIDE_CANDIDATES if v["mode"] == "solo" else 2
        elif self.candidates is not None:
            keep = self.candidates
        else:
            keep = MODE_CANDIDATES.get(v["mode"], DEFAULT_CANDIDATES)
        shortlist = [(p, o) for p, _, o in scored[:keep]]
        kind = v["you"]["pending"]
        to_end = kind == A.CHOOSE_AI_SIDE or v["mode"] in ROLLOUT_TO_END_MODES
        budget = int(
            self.budget * MODE_BUDGET_FACTOR.get(v["mode"], 1.0) * horizon_factor(v, to_end)
        )
        if len(shortlist) == 1 or budget == 0 or kind not in ROLLOUT_KINDS:
            return shortlist[0][1]
        cap = (
            self.time_cap_s
            if self.time_cap_s is not None
            else MODE_TIME_CAP_S.get(v["mode"], DEFAULT_TIME_CAP_S)
        )
        cpu_cap = self.cpu_cap_s if self.cpu_cap_s is not None else DEFAULT_CPU_CAP_S
        values = self._rollouts(
            v, seat, [o for _, o in shortlist], rng, budget, cap, to_end, cpu_cap
        )
        if values is None:
            return shortlist[0][1]
        best = max(range(len(shortlist)), key=lambda i: (values[i], shortlist[i][0], -i))
        return shortlist[best][1]

    def _rollouts(
        self,
        v: dict[str, Any],
        seat: int,
        commands: list[dict[str, Any]],
        rng: random.Random,
        budget: int,
        cap: float,
        horizon_end: bool,
        cpu_cap: float = math.inf,
    ) -> list[float] | None:
        """Mean rollout value of each command by *successive halving* (Karnin, Koren and
        Somekh 2013, "Almost optimal exploration in multi-armed bandits"): the ``budget``
        rollouts are split evenly over ``ceil(log2(len(commands)))`` rounds; each round
        plays whole samples (every surviving command on the same sample world and rollout
        RNG, common random numbers), then keeps the better half by mean value. Commands
        dropped early get ``-inf``, so only the last round's survivors can win.
        ``horizon_end``: roll out to the end of the match. At most ``cap`` seconds of wall
        clock and ``cpu_cap`` seconds of CPU (``time.thread_time``: the deciding thread's),
        whole samples only. After every sample the budget is cut to what the CPU cap
        affords at the CPU per rollout so far (:func:`affordable`), so the rounds still
        share it and the finalists still get the most samples; when the cap does not
        bind, the budget (and the choice) stays the same on every machine.
        ``None`` when no sample world works."""
        n = len(commands)
        alive = list(range(n))
        totals = [0.0] * n
        counts = [0] * n
        rounds = max(1, math.ceil(math.log2(n)))
        started = time.perf_counter()
        cpu_started = time.thread_time()
        clear_rollout_caches()
        full = budget
        spent = 0
        for rnd in range(rounds):
            first = spent  # rollouts spent before this round
            samples = 0
            # the round's samples, recounted after each as the CPU projection may shrink
            # the budget: the rounds still share what the cap leaves
            while samples < max(1, (budget - first) // (rounds - rnd) // len(alive)):
                samples += 1
                world_seed = rng.getrandbits(64)
                play_seed = rng.getrandbits(64)
                results = []
                for i in alive:
                    try:
                        world = determinize(v, seat, random.Random(world_seed))
                        results.append(
                            rollout(
                                world,
                                seat,
                                commands[i],
                                random.Random(play_seed),
                                to_end=horizon_end,
                            )
                        )
                    except (ValueError, KeyError, IndexError):
                        return self._means(totals, counts, alive)
                    self.last_rollouts += 1
                    spent += 1
                    if counts[alive[0]] and (
                        time.perf_counter() - started > cap
                        or time.thread_time() - cpu_started > cpu_cap
                    ):
                        return self._means(totals, counts, alive)  # whole samples only
                for i, r in zip(alive, results, strict=True):
                    totals[i] += r
                    counts[i] += 1
                cpu = time.thread_time() - cpu_started
                if time.perf_counter() - started > cap or cpu > cpu_cap:
                    return self._means(totals, counts, alive)
                budget = affordable(full, spent, cpu, cpu_cap)
            if rnd < rounds - 1 and len(alive) > 1:
                ranked = sorted(alive, key=lambda i: (totals[i] / counts[i], -i), reverse=True)
                alive = sorted(ranked[: math.ceil(len(alive) / 2)])
        return self._means(totals, counts, alive)

    @staticmethod
    def _means(totals: list[float], counts: list[int], alive: list[int]) -> list[float] | None:
        """Mean value per command; ``-inf`` for commands no longer alive; ``None`` when
        no sample finished."""
        if not counts[alive[0]]:
            return None
        return [totals[i] / counts[i] if i in alive else -math.inf for i in range(len(totals))]


# ---------------------------------------------------------------- prior (one ply)


class Prior:
    """One-ply value of a command seen from the seat's view: immediate VP plus the change
    of the end value (current objective + own AI card) of the own tableau."""

    def __init__(self, v: Mapping[str, Any], seat: int):
        self.v = v
        self.seat = seat
        tableaux = [{cell(e["cell"]): e["card"] for e in s["tableau"]} for s in v["seats"]]
        self.ai = v["you"]["ai_card"]
        self.own = tableaux[seat] or ({AI_POS: self.ai} if self.ai else {})
        self.neighbours = view_neighbours(v, tableaux, seat)
        self.copy_points = SOLO_COPY_POINTS_VP if v["mode"] == "solo" else COPY_POINTS_ESTIMATE
        self.diagonal = roles.ai_power(self.ai) == roles.DIAGONAL_PLACEMENT
        self.objective = v["current_objective"]
        self.base_end = self.end_value(self.own)
        self._potential: dict[str, float] = {}

    def end_value(self, tableau: Mapping[Pos, str]) -> int:
        """Current phase objective plus own AI card VP of ``tableau`` (E and F)."""
        if not tableau:
            return 0
        value = score_objective(self.objective, tableau)
        return value + (score_ai_card(self.ai, tableau) if self.ai else 0)

    def immediate(
        self, card: str, pos: Pos, tableau: Mapping[Pos, str], copy: str | None = None
    ) -> float:
        """VP ``card`` scores at ``pos`` of ``tableau`` (which already holds it)."""
        r = roles.role(card)
        if r == roles.COPY:
            targets = [copy] if copy else self._targets(card)
            return max((score_effect(t, tableau, pos, self.neighbours) for t in targets), default=0)
        if r == roles.COPY_POINTS:
            return self.copy_points
        return score_effect(card, tableau, pos, self.neighbours)

    def placed(
        self, card: str, pos: Pos, copy: str | None = None, base: Mapping[Pos, str] | None = None
    ) -> float:
        """Prior of putting ``card`` at ``pos`` (own tableau, or ``base``)."""
        tableau = dict(self.own if base is None else base)
        tableau[pos] = card
        gain = self.end_value(tableau) - (self.base_end if base is None else self.end_value(base))
        return self.immediate(card, pos, tableau, copy) + END_WEIGHT * gain

    def potential(self, card: str) -> float:
        """Best prior of ``card`` over the open cells of the own tableau now."""
        if card not in self._potential:
            cells = placement_cells(self.own, diagonal=self.diagonal) if self.own else []
            self._potential[card] = max((self.placed(card, p) for p in cells), default=0.0)
        return self._potential[card]

    def _targets(self, card: str) -> list[str]:
        return hacking.copy_targets_in(self.neighbours, card)

    def _ai6_hand(self) -> list[str]:
        """AI-6's "hand" in the view: the hand (solo: the standee's offer)."""
        return list(self.v["solo"]["offer"] if self.v["mode"] == "solo" else self.v["you"]["hand"])

    def of(self, o: Mapping[str, Any]) -> float:
        """Prior of command ``o`` (higher is better)."""
        t = o["type"]
        if t == A.CHOOSE_AI_SIDE:
            return -AI_SIDE_PREFERENCE.index(o["card"]) if o["card"] in AI_SIDE_PREFERENCE else -99
        if t == A.KEEP_RESERVE:
            return sum(self.potential(c) for c in o["cards"])
        if t == A.DRAFT:
            return self.potential(o["card"])
        if t == "discard":  # 2-player discard step: the weakest card
            return -self.potential(o["card"])
        if t == "use_ai6":
            # step 1: the 2 weakest hand cards will go (step 2), the best is drafted after
            hand = sorted((self.potential(c) for c in self._ai6_hand()), reverse=True)
            kept = hand[0] if len(hand) > AI6_DISCARD else 0.0
            draw = AI6_DRAW_VALUE * min(AI6_DRAW, self.v["deck_count"]) / AI6_DRAW
            return kept + draw - 0.01 * sum(hand[-AI6_DISCARD:])
        if t == A.AI6_DISCARD:
            # step 2, after seeing the drawn cards (now in the reserve): keep the best
            return -sum(self.potential(c) for c in o["cards"])
        if t == "use_ai5":
            a, b = (cell(x) for x in o["cells"])
            return END_WEIGHT * (self.end_value(hacking.swap(self.own, a, b)) - self.base_end) - 0.5
        if t in (A.PLACE, A.PLACE_EXTRA):
            return self.placed(o["card"], cell(o["cell"]), o.get("copy"))
        if t == A.COPY:
            pos = next(
                (cell(p["cell"]) for p in self.v["last_reveal"] if p["seat"] == self.seat), None
            )
            return score_effect(o["card"], self.own, pos, self.neighbours) if pos else 0
        if t == A.EXCHANGE_RESERVE:
            pos = cell(o["cell"])
            returned = self.own.get(pos)
            tableau = dict(self.own)
            tableau[pos] = o["card"]
            gain = self.end_value(tableau) - self.base_end
            keep = 0.3 * self.potential(returned) if returned else 0
            return self.immediate(o["card"], pos, tableau, o.get("copy")) + gain + keep
        if t == A.MOVE_CARD:
            moved = hacking.swap(self.own, cell(o["from"]), cell(o["to"]))
            return self.end_value(moved) - self.base_end - 0.1
        return 0.0


def view_neighbours(
    v: Mapping[str, Any], tableaux: list[dict[Pos, str]], seat: int
) -> tuple[dict[Pos, str], ...]:
    """The tableaux black cards 099-114 of ``seat`` look at, read from its view (the same
    as ``MatchState.neighbour_tableaux``): the two adjacent seats; 2-player mode: the
    opponent and the neutral grid; solo: the draft grid (shared RULINGS)."""
    if v["mode"] == "solo":
        return ({cell(e["cell"]): e["card"] for e in v["solo"]["draft_grid"]},)
    if v["mode"] == "duo":
        return (tableaux[1 - seat], {cell(e["cell"]): e["card"] for e in v["neutral_grid"]})
    n = len(tableaux)
    return (tableaux[(seat + 1) % n], tableaux[(seat - 1) % n])


# ---------------------------------------------------------------- determinization


def _seen(v: Mapping[str, Any]) -> set[str]:
    you = v["you"]
    seen = set(you["hand"]) | set(you["reserve"]) | set(you["dealt"])
    for s in v["seats"]:
        seen.update(e["card"] for e in s["tableau"])
    seen.update(e["card"] for e in v.get("neutral_grid", ()))
    if v["mode"] == "solo":
        seen.update(e["card"] for e in v["solo"]["draft_grid"])
    return seen


def unseen_cards(v: Mapping[str, Any]) -> list[str]:
    """Cards of the current phase the viewing seat cannot see (sorted): the phase deck
    minus its own hand, reserve and reserve-creation cards, every tableau card and the
    public grids (2-player neutral grid, solo draft grid). Cards that already left the
    game face down or unlisted (2-player discards, solo tilted cards) stay in it: the view
    does not list them."""
    seen = _seen(v)
    return [c for c in catalogue().phase_deck(v["phase"]) if c not in seen]


def other_phase_unseen(v: Mapping[str, Any]) -> list[str]:
    """Phase 1 cards the seat cannot see, during Phase 2 (sorted; else empty): a 115/116
    exchange can return a Phase 1 tableau card to a hidden reserve."""
    if v["phase"] != 2:
        return []
    seen = _seen(v)
    return [c for c in catalogue().phase_deck(1) if c not in seen]


def determinize(v: Mapping[str, Any], seat: int, rng: random.Random) -> MatchState:
    """A complete sample world consistent with the view ``v`` of ``seat``.

    Hidden cards are dealt from :func:`unseen_cards` by the public counts (solo: the timer
    stack; then the deck, other hands, reserve-creation cards and reserves; the rest left
    the game face down). The public grids (2-player neutral grid; solo draft grid,
    dividers, standee, tilted cells) are copied from the view.
    Other seats' hidden choices of this step are cleared so the rollout makes them again.
    Raises ValueError when the counts exceed the unseen cards (inconsistent view).
    """
    you = v["you"]
    pool = unseen_cards(v)
    rng.shuffle(pool)
    spare = other_phase_unseen(v)  # 115/116 may return an older card
    rng.shuffle(spare)
    step = v["step"]

    def take(k: int) -> list[str]:
        out = pool[:k]
        del pool[:k]
        while len(out) < k:
            if not spare:
                raise ValueError("the view counts more hidden cards than there are unseen cards")
            out.append(spare.pop())
        return out

    timer = take(v["solo"]["timer_count"]) if v["mode"] == "solo" else []
    deck = take(v["deck_count"])
    hidden = {
        i: {"hand": take(s["hand_count"]), "dealt": take(s["dealt_count"])}
        for i, s in enumerate(v["seats"])
        if i != seat
    }
    for i, s in enumerate(v["seats"]):
        if i != seat:
            hidden[i]["reserve"] = take(s["reserve_count"])
    reveal = {p["seat"]: p for p in v["last_reveal"]}
    seats = []
    for i, s in enumerate(v["seats"]):
        mine = i == seat
        st = SeatState(
            ai_pair=list(s["ai_cards_dealt"]),
            ai_card=you["ai_card"] if mine else s["ai_card"],
            ai_revealed=s["ai_card"] is not None,
            tableau={cell(e["cell"]): e["card"] for e in s["tableau"]},
            hand=list(you["hand"]) if mine else hidden[i]["hand"],
            reserve=list(you["reserve"]) if mine else hidden[i]["reserve"],
            dealt=list(you["dealt"]) if mine else hidden[i]["dealt"],
            score=s["score"],
            turn_vp=s["turn_vp"],
            ai5_used=s["ai5_used"],
            ai6_used=s["ai6_used"],
            ai6_discarding=s["pending"] == A.AI6_DISCARD,  # public: AI-6 step 2 owed
            locked=you["locked"] if mine else None,
            choice=dict(you["choice"]) if mine and you["choice"] else None,
        )
        if step == "resolve" and i in reveal:
            st.played = {"card": reveal[i]["card"], "cell": list(reveal[i]["cell"])}
        if mine:
            st.done = bool(s["decided"]) if step in ("draft", "extra") else False
            st.need = you["pending"] if step in ("resolve", "extra") else None
        elif step in ("draft", "extra", DISCARD):
            st.done = bool(s["decided"])  # a drafted/discarded card is public by count
            st.need = s["pending"] if step == "extra" else None
        else:
            st.done = False  # hidden choice: made again in the rollout
            st.need = s["pending"]
        seats.append(st)
    state = MatchState(
        seat_count=v["seat_count"],
        options={"objectives": dict(v["objectives"])},
        objectives={"1": v["objectives"]["phase1"], "2": v["objectives"]["phase2"]},
        mode=v["mode"],
        phase=v["phase"],
        turn=v["turn"],
        step=step,
        deck=deck,
        seats=seats,
        last_reveal=[dict(p) for p in v["last_reveal"]],
        result=None,
        neutral={cell(e["cell"]): e["card"] for e in v.get("neutral_grid", ())},
    )
    if v["mode"] == "solo":
        sv = v["solo"]
        state.grid = {cell(e["cell"]): e["card"] for e in sv["draft_grid"]}
        state.dividers = {k: list(c) for k, c in sv["dividers"].items()}
        state.standee = dict(sv["standee"]) if sv["standee"] else None
        state.tilted = [list(p) for p in sv["tilted"]]
        state.timer = timer
    for i, s in enumerate(v["seats"]):
        st = state.seats[i]
        if i == seat:
            continue
        if step == "setup" and not st.ai_revealed:
            st.ai_card = None  # a hidden side: chosen again
        if step == "resolve" and s["decided"]:
            st.need = flow.resolution_needed(state, i)  # the kind is hidden once decided
    return state


# ---------------------------------------------------------------- rollouts

Memo = dict[tuple, float]  # (phase, turn, seat, card, cell) -> immediate VP in a rollout
Policy = Callable[[MatchState, int, random.Random, Memo], dict[str, Any]]


def apply_command(
    state: MatchState, seat: int, command: Mapping[str, Any], rng: random.Random
) -> MatchState:
    """Fold the events of a command known to be legal into ``state`` (mutated, returned):
    the seat's own events then every automatic transition (``rules`` and ``flow``), without
    re-checking legality (the rollout policies only build legal commands)."""
    rec = Recorder(state)
    rules.apply_unchecked(rec, seat, command)
    flow.advance(rec, rng)
    return rec.state


def rollout(
    world: MatchState,
    seat: int,
    command: Mapping[str, Any],
    rng: random.Random,
    to_end: bool = False,
) -> float:
    """Value for ``seat`` of playing ``command`` in the sample ``world`` (mutated), then the
    rollout policies until the end of the current phase (``to_end``: of the match)."""
    phase = world.phase
    memo: Memo = {}
    state = apply_command(world, seat, command, rng)
    steps = 0
    while state.result is None and (to_end or state.phase == phase):
        pend = A.pending(state)
        if not pend:
            raise ValueError("rollout stalled")
        actor = min(pend)
        policy = _OWN_POLICY if actor == seat else _OTHER_POLICY
        state = apply_command(state, actor, policy[pend[actor]](state, actor, rng, memo), rng)
        steps += 1
        if steps > 2000:
            raise ValueError("rollout does not terminate")
    s = state.seats[seat]
    value = float(s.score)
    if state.result is None and not to_end and phase == 1:
        assert s.ai_card is not None  # chosen before phase 1's first card
        value += AI_PARTIAL_WEIGHT * score_ai_card(s.ai_card, s.tableau)
    return value


def _cells(state: MatchState, seat: int) -> tuple[Pos, ...]:
    """The open cells of ``seat``'s tableau (``tableau.placement_cells``, AI-8 included),
    cached by tableau."""
    return _open_cells(tableau_key(state.seats[seat].tableau), has_diagonal(state, seat))


@lru_cache(maxsize=1 << 12)
def _open_cells(key: TableauKey, diagonal: bool) -> tuple[Pos, ...]:
    """``placement_cells`` of the tableau ``key`` (sorted; cached: the draft and the place
    step of a turn, and rollouts from one decision, ask for the same tableaux)."""
    return tuple(placement_cells(dict(key), diagonal=diagonal))


def _card_vp(state: MatchState, seat: int, card: str, pos: Pos, memo: Memo) -> float:
    """Immediate VP of ``card`` at ``pos`` in the sample world (copies: best target). A
    card that reads only the own tableau, on an empty cell, is remembered by tableau
    (:func:`_own_effects`, exact); any other in ``memo`` for the rest of the turn (the
    draft and the place step of one turn see the same own tableau; a neighbour's change
    within the turn is ignored). :func:`_best_place` fills the same caches for many cards
    and cells at once."""
    own = state.seats[seat].tableau
    if pos not in own and _reads_own_only(card):
        key = tableau_key(own)
        effects = _own_effects(key)
        vp = effects.get((card, pos))
        if vp is None:
            vp = effects[card, pos] = _placements(key).effect(card, pos)
        return vp
    k = (state.phase, state.turn, seat, card, pos)
    hit = memo.get(k)
    if hit is None:
        hit = memo[k] = _card_vp_now(state, seat, card, pos)
    return hit


TableauKey = frozenset[tuple[Pos, str]]  # a tableau as a set of (cell, card) pairs


def tableau_key(tableau: Mapping[Pos, str]) -> TableauKey:
    """A hashable form of a tableau (its ``(cell, card)`` pairs) for the end-value cache."""
    return frozenset(tableau.items())


@lru_cache(maxsize=1 << 17)
def end_value(objective: str, ai_card: str | None, key: TableauKey) -> int:
    """Phase objective plus AI card VP (rulebook E and F) of the tableau ``key`` (cached)."""
    tableau = dict(key)
    if not tableau:
        return 0
    return score_objective(objective, tableau) + (score_ai_card(ai_card, tableau) if ai_card else 0)


def _card_vp_now(state: MatchState, seat: int, card: str, pos: Pos) -> float:
    own = state.seats[seat].tableau
    if _reads_own_only(card):
        return score_effect(card, {**own, pos: card}, pos)  # the scorer caches by board
    r = roles.role(card)
    tableau = dict(own)
    tableau[pos] = card
    nbrs = state.neighbour_tableaux(seat)
    if r == roles.COPY:
        return max(
            (score_effect(t, tableau, pos, nbrs) for t in hacking.copy_targets(state, seat, card)),
            default=0,
        )
    if r == roles.COPY_POINTS:
        return COPY_POINTS_ESTIMATE
    return score_effect(card, tableau, pos, nbrs)


def _best_place(state: MatchState, seat: int, cards: list[str], memo: Memo) -> tuple:
    """The ``(card, cell)`` of ``cards`` x the open cells (:func:`_cells`) with the best
    immediate VP (ties: the first in ``cards`` x cells order); in the modes of
    :data:`ROLLOUT_END_MODES` the :data:`ROLLOUT_END_TOP` best of them are ranked again by
    immediate VP plus the change of the end value (phase objective + AI card). The own
    tableau is read once for every card and cell (:class:`scoring.Placements`, cached by
    tableau like the end values); the VP of a card that reads only the own tableau is
    remembered by tableau (:func:`_own_effects`: rollouts from one decision meet the same
    tableaux), the others in ``memo`` for the turn."""
    s = state.seats[seat]
    key = tableau_key(s.tableau)
    cells = _open_cells(key, has_diagonal(state, seat))
    ranked: list[tuple[float, str, Pos]] = []
    effects = _own_effects(key)
    placements = None
    for card in cards:
        if _reads_own_only(card):
            for pos in cells:
                vp = effects.get((card, pos))
                if vp is None:
                    if placements is None:
                        placements = _placements(key)
                    vp = effects[card, pos] = placements.effect(card, pos)
                ranked.append((vp, card, pos))
            continue
        for pos in cells:
            k = (state.phase, state.turn, seat, card, pos)
            hit = memo.get(k)
            if hit is None:
                hit = memo[k] = _card_vp_now(state, seat, card, pos)
            ranked.append((hit, card, pos))
    if not ranked:
        return (cards[0], cells[0])
    if state.mode not in ROLLOUT_END_MODES or ROLLOUT_END_TOP <= 1:
        return max(ranked, key=_VP)[1:]  # the first of the best, as a stable sort
    objective = state.objectives[str(state.phase)]
    ai = s.ai_card
    base = end_value(objective, ai, key)

    def gain(x: tuple) -> float:
        return x[0] + end_value_added(objective, ai, key, x[1], x[2]) - base

    # a stable sort: ties stay in generation order (cards x cells)
    return max(sorted(ranked, key=_VP, reverse=True)[:ROLLOUT_END_TOP], key=gain)[1:]


_VP = itemgetter(0)


@lru_cache(maxsize=1 << 12)
def _placements(key: TableauKey) -> Placements:
    """The :class:`scoring.Placements` of the tableau ``key`` (cached: the draft and the
    place step of a turn, and rollouts from one decision, weigh the same tableaux)."""
    return Placements(dict(key))


@lru_cache(maxsize=1 << 12)
def _own_effects(key: TableauKey) -> dict[tuple[str, Pos], int]:
    """``(card, cell) -> Placements.effect`` of the tableau ``key``, filled by
    :func:`_best_place` (cached with the tableau: exact, the VP depends on it alone)."""
    return {}


@lru_cache(maxsize=1 << 17)
def end_value_added(
    objective: str, ai_card: str | None, key: TableauKey, card: str, pos: Pos
) -> int:
    """:func:`end_value` of the tableau ``key`` with ``card`` added at the empty ``pos``
    (cached), from the tableau read once (:func:`_placements`)."""
    placements = _placements(key)
    value = placements.objective(objective, card, pos)
    return value + (placements.ai_card(ai_card, card, pos) if ai_card else 0)


@cache
def _reads_own_only(card: str) -> bool:
    """True when ``card``'s immediate VP reads only the own tableau (no copy, copy points
    or neighbour effect): :func:`_card_vp_now` scores it with ``score_effect`` alone."""
    return roles.role(card) is None and catalogue().cards[card].effect["kind"] != "neighbour"


def _own_ai5(state: MatchState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """AI-5 in a rollout ("exchange 2 cards", once per game): at the place step of the
    last turn of Phase 2, the swap or move with the best gain of Phase 2 objective plus AI
    card VP among at most :data:`AI5_ROLLOUT_SWAPS` drawn by ``rng``, when it gains; else
    ``None``. (Scoring every swap of every rollout took a quarter of an AI-5 game's time;
    the decision itself still weighs every swap.)"""
    if state.mode not in ROLLOUT_POWER_MODES or state.phase != 2 or state.turn != TURNS_PER_PHASE:
        return None
    options = powers.ai5_actions(state, seat)
    if not options:
        return None
    if len(options) > AI5_ROLLOUT_SWAPS:
        options = rng.sample(options, AI5_ROLLOUT_SWAPS)
    s = state.seats[seat]
    objective = state.objectives["2"]
    base = end_value(objective, s.ai_card, tableau_key(s.tableau))
    best, gain = None, 0
    for o in options:
        a, b = (cell(x) for x in o["cells"])
        g = end_value(objective, s.ai_card, tableau_key(hacking.swap(s.tableau, a, b))) - base
        if g > gain:
            best, gain = o, g
    return best


def _own_place(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    ai5 = _own_ai5(state, seat, rng)
    if ai5 is not None:
        return ai5
    card, pos = _best_place(state, seat, sorted(set(A.placeable(state, seat))), memo)
    return {"type": A.PLACE, "card": card, "cell": [pos[0], pos[1]]}


def _draftable(state: MatchState, seat: int) -> list[str]:
    """The cards ``seat`` may draft now: its hand, or in solo the standee's offer."""
    if state.mode == "solo":
        return sorted({c for _, c in solo.offer(state)})
    return sorted(set(state.seats[seat].hand))


def _own_ai6(state: MatchState, seat: int, memo: Memo) -> dict[str, Any] | None:
    """AI-6 step 1 in a solo rollout (once per phase, R-SOLO-AI6): the 2 offered cards not
    taken are discarded at step 6 anyway, so AI-6 is used at the first own draft of each
    phase (``{"type": "use_ai6"}``); else ``None``. Step 2 is :func:`_own_ai6_discard`."""
    if state.mode != "solo" or state.mode not in ROLLOUT_POWER_MODES:
        return None
    return {"type": "use_ai6"} if powers.ai6_available(state, seat) else None


def _own_ai6_discard(
    state: MatchState, seat: int, rng: random.Random, memo: Memo
) -> dict[str, Any]:
    """AI-6 step 2 in a rollout, the drawn cards already in the reserve: discard the 2
    cards of the hand (solo: the offer) with the lowest best immediate VP over the open
    cells, so the best one is drafted next (ties: the higher card id is kept)."""
    cells = _cells(state, seat)

    def best_vp(card: str) -> float:
        return max((_card_vp(state, seat, card, p, memo) for p in cells), default=0)

    ranked = sorted(powers.ai6_hand(state, seat), key=lambda c: (best_vp(c), c), reverse=True)
    return {"type": A.AI6_DISCARD, "cards": sorted(ranked[-AI6_DISCARD:])}


def _random_ai6_discard(
    state: MatchState, seat: int, rng: random.Random, memo: Memo
) -> dict[str, Any]:
    return {
        "type": A.AI6_DISCARD,
        "cards": sorted(rng.sample(powers.ai6_hand(state, seat), AI6_DISCARD)),
    }


def _own_draft(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    ai6 = _own_ai6(state, seat, memo)
    if ai6 is not None:
        return ai6
    card, _ = _best_place(state, seat, _draftable(state, seat), memo)
    return {"type": A.DRAFT, "card": card}


def _own_discard(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    """2-player discard step: the hand card with the lowest immediate VP over open cells."""
    cells = _cells(state, seat)
    worst = min(
        sorted(set(state.seats[seat].hand)),
        key=lambda c: max((_card_vp(state, seat, c, p, memo) for p in cells), default=0),
    )
    return {"type": DISCARD, "card": worst}


def _random_discard(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    return {"type": DISCARD, "card": rng.choice(sorted(state.seats[seat].hand))}


def _own_keep(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    """Keep the dealt cards with the best immediate VP over the open cells (a card that
    reads only the own tableau from the by-tableau cache, :func:`_own_effects`)."""
    s = state.seats[seat]
    tableau = s.tableau or ({AI_POS: s.ai_card} if s.ai_card else {})
    key = tableau_key(tableau)
    cells = _open_cells(key, has_diagonal(state, seat)) if tableau else ()
    nbrs = state.neighbour_tableaux(seat)
    effects = _own_effects(key)

    def vp(card: str, p: Pos) -> float:
        if not _reads_own_only(card):
            return score_effect(card, {**tableau, p: card}, p, nbrs)
        hit = effects.get((card, p))
        if hit is None:
            hit = effects[card, p] = _placements(key).effect(card, p)
        return hit

    def pot(card: str) -> float:
        if roles.role(card) in (roles.COPY, roles.COPY_POINTS):
            return COPY_POINTS_ESTIMATE
        return max((vp(card, p) for p in cells), default=0)

    ranked = sorted(sorted(s.dealt), key=pot, reverse=True)
    return {"type": A.KEEP_RESERVE, "cards": sorted(ranked[: A.keep_count(state, seat)])}


def _random_place(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    card = rng.choice(sorted(set(A.placeable(state, seat))))
    pos = rng.choice(_cells(state, seat))
    return {"type": A.PLACE, "card": card, "cell": [pos[0], pos[1]]}


def _random_draft(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    return {"type": A.DRAFT, "card": rng.choice(_draftable(state, seat))}


def _random_keep(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    s = state.seats[seat]
    kept = rng.sample(sorted(s.dealt), A.keep_count(state, seat))
    return {"type": A.KEEP_RESERVE, "cards": sorted(kept)}


def _random_side(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    return {"type": A.CHOOSE_AI_SIDE, "card": rng.choice(state.seats[seat].ai_pair)}


def _own_copy(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    s = state.seats[seat]
    assert s.played is not None  # the copy follows the card just played
    pos = cell(s.played["cell"])
    nbrs = state.neighbour_tableaux(seat)
    targets = hacking.copy_targets(state, seat, s.played["card"])
    best = max(targets, key=lambda t: score_effect(t, s.tableau, pos, nbrs))
    return {"type": A.COPY, "card": best}


def _own_exchange(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    def value(o: dict) -> float:
        pos = cell(o["cell"])
        tableau = dict(state.seats[seat].tableau)
        tableau[pos] = o["card"]
        if o.get("copy"):
            return score_effect(o["copy"], tableau, pos, state.neighbour_tableaux(seat))
        return _card_vp(state, seat, o["card"], pos, memo)

    return max(hacking.reserve_exchanges(state, seat), key=value)


def _own_extra(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    s = state.seats[seat]
    nbrs = state.neighbour_tableaux(seat)

    def value(o: dict) -> float:
        pos = cell(o["cell"])
        tableau = {**s.tableau, pos: o["card"]}
        effect = o.get("copy") or o["card"]
        return score_effect(effect, tableau, pos, nbrs)

    return max(A.legal_actions(state, seat), key=value)


def _random_legal(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    return rng.choice(A.legal_actions(state, seat))


def _decline(state: MatchState, seat: int, rng: random.Random, memo: Memo) -> dict[str, Any]:
    return {"type": "decline"}


_OWN_POLICY: dict[str, Policy] = {
    A.CHOOSE_AI_SIDE: lambda st, s, r, m: {
        "type": A.CHOOSE_AI_SIDE,
        "card": min(st.seats[s].ai_pair, key=lambda c: AI_SIDE_PREFERENCE.index(c)),
    },
    A.KEEP_RESERVE: _own_keep,
    A.DRAFT: _own_draft,
    A.AI6_DISCARD: _own_ai6_discard,
    DISCARD: _own_discard,
    A.PLACE: _own_place,
    A.COPY: _own_copy,
    A.EXCHANGE_RESERVE: _own_exchange,
    A.MOVE_CARD: _decline,
    A.PLACE_EXTRA: _own_extra,
}
_OTHER_POLICY: dict[str, Policy] = {
    A.CHOOSE_AI_SIDE: _random_side,
    A.KEEP_RESERVE: _random_keep,
    A.DRAFT: _random_draft,
    A.AI6_DISCARD: _random_ai6_discard,
    DISCARD: _random_discard,
    A.PLACE: _random_place,
    A.COPY: _random_legal,
    A.EXCHANGE_RESERVE: _random_legal,
    A.MOVE_CARD: _decline,
    A.PLACE_EXTRA: _random_legal,
}
