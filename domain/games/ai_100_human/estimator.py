"""AI: 100% Human's estimator (:class:`domain.estimates.Estimator`) for match analysis
(issue 23 item 3): each candidate command's expected final score (VP) for the seat, from
the seat's view only, built from the ``expert`` bot's public pieces (``expert.py``: its
one-ply :class:`~.expert.Prior`, :func:`~.expert.determinize` and :func:`~.expert.rollout`).

How (one :meth:`AI100Estimator.estimate`):

1. **Shortlist.** The commands are ranked by the expert's prior (immediate VP plus the
   change of the end value of the own tableau); the :data:`SHORTLIST` best go to the
   rollouts, the others answer ``-inf`` (pruned: match analysis then weighs a pruned
   played command against the best one alone, ``domain.analysis``).
2. **Samples.** ``budget // len(shortlist)`` sample worlds (at least one) are dealt from
   ``view(state, seat)`` by :func:`~.expert.determinize` (the cards the seat cannot see
   shuffled and dealt back by the public counts); every shortlisted command is applied to
   a copy of each world and played **to the end of the match** by the expert's rollout
   policies (common random numbers: the same world and rollout seed for every command).
3. **Value:** the mean final score of the seat (the rulebook's VP, objectives and AI card
   included). A sample the rules refuse is skipped; with no sample left every command
   answers its prior (VP-like, a one-ply guess).

Deterministic for the same view, commands, budget and ``rng`` seed; at most ``budget``
rollouts (one per shortlisted command when the budget is smaller).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.estimates import Metric, Tally, WholeEstimate

from .expert import Prior, determinize, rollout
from .views import view

#: commands valued by rollouts (the rest are pruned by the prior)
SHORTLIST = 6


class AI100Estimator(WholeEstimate):
    """Expected final score (VP) of each candidate command of a seat (module doc): one
    value per command, in VP; ``-inf`` for the commands the prior pruned. A
    :class:`domain.estimates.Resumable` estimator whose ``estimate`` is
    :class:`domain.estimates.WholeEstimate`'s."""

    metric: Metric = "expected_score"

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
        """:meth:`estimate` from ``resume`` (a :class:`~domain.estimates.Tally` over the
        shortlist, in index order; ``None``: from the start), stopping after a rollout
        when ``go_on()`` is falsy (:class:`domain.estimates.Resumable`). A sample's values
        are added once all its rollouts are done (``row`` holds them meanwhile: a sample
        the rules refuse is skipped whole, after the rollout refused). Raises ValueError as
        :meth:`estimate`."""
        if not commands or budget < 1:
            raise ValueError("commands must not be empty and budget must be at least 1")
        v = view(state, seat)
        prior = Prior(v, seat)
        priors = [float(prior.of(c)) for c in commands]
        ranked = sorted(range(len(commands)), key=lambda i: (-priors[i], i))
        short = sorted(ranked[:SHORTLIST])
        samples = max(1, budget // len(short))
        tally = Tally.of(resume, len(short))
        for _ in range(tally.sample):  # the seeds of the samples done
            rng.getrandbits(64), rng.getrandbits(64)
        stopped = False
        while tally.sample < samples and not stopped:
            world_seed, play_seed = rng.getrandbits(64), rng.getrandbits(64)
            while tally.index < len(short) and not stopped:
                try:
                    value = rollout(
                        determinize(v, seat, random.Random(world_seed)),
                        seat,
                        commands[short[tally.index]],
                        random.Random(play_seed),
                        to_end=True,
                    )
                except (ValueError, KeyError, IndexError):
                    tally.index, tally.row = len(short), []  # a sample the rules refuse: skipped
                else:
                    tally.index += 1
                    tally.row.append(value)
                stopped = go_on is not None and not go_on()
            if tally.index == len(short):  # the sample is done: its values are added
                for k, value in enumerate(tally.row):
                    tally.totals[k] += value
                    tally.counts[k] += 1
                tally.sample, tally.index, tally.row = tally.sample + 1, 0, []
        if tally.sample < samples:
            return tally.document()
        done = tally.counts[0]
        if not done:
            return priors
        totals = dict(zip(short, tally.totals, strict=True))
        return [totals[i] / done if i in totals else -math.inf for i in range(len(commands))]


ESTIMATOR = AI100Estimator()
