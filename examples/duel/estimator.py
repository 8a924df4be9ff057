"""Duel's estimator (:class:`domain.estimates.Estimator`): each candidate card's chance to
win the match, by determinized rollouts, from the seat's view only. Used by match analysis
(:mod:`domain.analysis`); ``docs/adding-a-game.md`` shows it as the example of the hook.

One sample (RULES.md "Set-up", RULINGS D-hidden): the cards the seat cannot see are the 20
less its hand, its laid card and the last trick's two cards face up (``view`` shows no
earlier trick); the other seat's hand (``hand_sizes``) and, when it has laid one
(``laid``), its face-down card are drawn from them. The candidate is laid, and the match is
played to its end with the timeout policy (``high``: each seat lays its highest card) for
both seats. A win counts 1, a shared win (equal tricks, RULES.md "End") 1/2, a loss 0.

Candidates share the samples (common random numbers). ``budget``: rollouts over all
candidates, ``budget // len(commands)`` samples each (at least one: with fewer rollouts
than candidates it spends one sample per candidate).

Resumable (:class:`domain.estimates.Resumable`, how match analysis splits a decision over
several jobs): ``estimate_part`` may stop after any rollout and answers its
:class:`~domain.estimates.Tally`; the next call deals the samples done again from ``rng``
(a sample is a shuffle of ``rng`` itself) and goes on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.estimates import Metric, Tally, WholeEstimate

from . import spec
from .views import view


class DuelEstimator(WholeEstimate):
    """Win probability of each candidate ``play`` of a seat (module doc): one value in
    0..1 per command (legal ``play`` commands of the seat); a
    :class:`domain.estimates.Resumable` estimator whose ``estimate`` is
    :class:`domain.estimates.WholeEstimate`'s."""

    metric: Metric = "win_probability"

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
        """:meth:`estimate` from ``resume`` (``None``: from the start), stopping after a
        rollout when ``go_on()`` is falsy (module doc). Raises ValueError as
        :meth:`estimate`."""
        if not commands or budget < 1:
            raise ValueError("commands must not be empty and budget must be at least 1")
        v = view(state, seat)
        samples = max(1, budget // len(commands))
        tally = Tally.of(resume, len(commands))
        for _ in range(tally.sample):  # the worlds of the samples done, dealt again
            _sample(v, seat, rng)
        stopped = False
        while tally.sample < samples and not stopped:
            world = _sample(v, seat, rng)
            while tally.index < len(commands) and not stopped:
                i = tally.index
                tally.totals[i] += _rollout(world, seat, commands[i]["card"])
                tally.counts[i] += 1
                tally.index += 1
                stopped = go_on is not None and not go_on()
            if tally.index == len(commands):
                tally.sample, tally.index = tally.sample + 1, 0
        if tally.sample < samples:
            return tally.document()
        return [total / samples for total in tally.totals]


def _sample(v: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """One world consistent with the view ``v`` of ``seat``: ``{"hands", "laid", "won",
    "left"}`` (``left``: tricks still to play, this one included)."""
    other = 1 - seat
    seen = set(v["hand"]) | ({v["my_card"]} if v["my_card"] else set()) | set(v["last"] or [])
    unseen = sorted(set(spec.DECK) - seen)
    rng.shuffle(unseen)
    count = v["hand_sizes"][other] + (1 if v["laid"][other] else 0)
    drawn = unseen[:count]
    hands = [[], []]
    hands[seat] = list(v["hand"])
    laid = [None, None]
    laid[seat] = v["my_card"]
    if v["laid"][other]:
        laid[other], drawn = drawn[0], drawn[1:]
    hands[other] = drawn
    return {"hands": hands, "laid": laid, "won": list(v["won"]), "left": v["tricks"] - v["played"]}


def _rollout(world: Mapping[str, Any], seat: int, card: str) -> float:
    """The seat's result (1, 1/2, 0) after laying ``card`` in ``world`` and both seats
    laying their highest card in every later trick."""
    hands = [sorted(h, key=spec.value) for h in world["hands"]]
    hands[seat].remove(card)
    laid = list(world["laid"])
    laid[seat] = card
    other = 1 - seat
    if laid[other] is None:
        laid[other] = hands[other].pop()
    won = list(world["won"])
    for trick in range(world["left"]):
        if trick:
            laid = [hands[0].pop(), hands[1].pop()]
        won[0 if spec.value(laid[0]) > spec.value(laid[1]) else 1] += 1
    if won[seat] == won[other]:
        return 0.5
    return 1.0 if won[seat] > won[other] else 0.0


ESTIMATOR = DuelEstimator()
