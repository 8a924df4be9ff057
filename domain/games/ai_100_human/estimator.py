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
from collections.abc import Mapping, Sequence
from typing import Any

from .expert import Prior, determinize, rollout
from .views import view

#: commands valued by rollouts (the rest are pruned by the prior)
SHORTLIST = 6


class AI100Estimator:
    """Expected final score (VP) of each candidate command of a seat (module doc)."""

    metric = "expected_score"

    def estimate(
        self,
        state: Any,
        seat: int,
        commands: Sequence[Mapping[str, Any]],
        budget: int,
        rng: random.Random,
    ) -> list[float]:
        """One value per command of ``commands`` (legal commands of ``seat``), in VP;
        ``-inf`` for the commands the prior pruned. Raises ValueError for no commands or a
        budget below 1."""
        if not commands or budget < 1:
            raise ValueError("commands must not be empty and budget must be at least 1")
        v = view(state, seat)
        prior = Prior(v, seat)
        priors = [float(prior.of(c)) for c in commands]
        ranked = sorted(range(len(commands)), key=lambda i: (-priors[i], i))
        short = sorted(ranked[:SHORTLIST])
        samples = max(1, budget // len(short))
        totals = [0.0] * len(commands)
        done = 0
        for _ in range(samples):
            world_seed, play_seed = rng.getrandbits(64), rng.getrandbits(64)
            try:
                values = [
                    rollout(
                        determinize(v, seat, random.Random(world_seed)),
                        seat,
                        commands[i],
                        random.Random(play_seed),
                        to_end=True,
                    )
                    for i in short
                ]
            except (ValueError, KeyError, IndexError):
                continue
            for i, value in zip(short, values, strict=True):
                totals[i] += value
            done += 1
        if not done:
            return priors
        return [totals[i] / done if i in short else -math.inf for i in range(len(commands))]


ESTIMATOR = AI100Estimator()
