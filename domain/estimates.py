"""The estimator hook: how good is each of a seat's candidate commands, from that seat's
own knowledge (issue 23: expert bots and match analysis).

An estimator is the search inside a game's ``expert`` bot, exposed so the analysis of a
finished match can ask, for one decision, what the chosen command and the best alternative
were worth. A game offers one through :meth:`domain.engine.EngineBase.estimator`.

Contract (every implementation):

- **Knowledge.** It reads the position only through ``engine.view(state, seat)`` (plus the
  game's public card data): everything the seat cannot see (other hands, deck order,
  face-down choices) is sampled again consistently with that view (determinization), so
  replacing the hidden parts of ``state`` consistently never changes its answer for the
  same ``rng`` seed.
- **Deterministic.** The same state, seat, commands, budget and ``rng`` seed give the same
  numbers.
- **Budget.** ``budget`` is the number of rollouts (or search iterations) it may spend over
  all candidates together; it never spends more.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

#: what an estimate measures: the seat's (or its team's) chance to win in 0..1, or the
#: seat's expected final score in the game's points (VP)
Metric = Literal["win_probability", "expected_score"]


class Estimator(Protocol):
    """Values of candidate commands for one seat at one position.

    ``metric``: :data:`Metric`. :meth:`estimate` answers one float per command, in the
    order of ``commands`` (each a legal command of ``seat`` in ``state``), higher is better.
    Raises ``ValueError`` for an empty ``commands`` or a ``budget`` below 1.
    """

    metric: Metric

    def estimate(
        self,
        state: Any,
        seat: int,
        commands: Sequence[Mapping[str, Any]],
        budget: int,
        rng: random.Random,
    ) -> list[float]: ...
