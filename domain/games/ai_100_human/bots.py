"""Bot policies: ``random`` (uniform over legal actions), ``greedy`` (immediate VP) and
``idle`` (the turn-timeout policy: greedy on forced decisions, declines every optional power).

Bots read only what their seat sees: :func:`views.view` for that seat plus
:func:`actions.legal_actions` (which depends only on the seat's own cards and the public
tableaux). ``greedy`` maximises the VP its choice scores right now; drafting and reserve
creation keep the card with the best immediate VP in any legal cell; AI-6 is used at its
first chance while the deck still holds 2 cards, and its discard step (after seeing the
drawn cards) discards the two hand cards with the lowest best immediate VP (ties: the
first pair in canonical order); 119/120 moves, and AI-5 exchanges
(considered in the place step of each phase's 7th turn), are made only when they raise
the current objective plus the AI card's end VP. In the 2-player discard step greedy
discards its weakest hand card; black cards are valued against the neutral grid (2-player)
or the draft grid (solo), where solo 105/106 are worth their flat 4 VP.

``expert`` (``expert.py``) takes per-seat bot options (:data:`BOT_OPTIONS`, built by
:data:`BOT_FACTORIES`): ``budget``, ``candidates`` and ``time_budget_ms``.
"""

from __future__ import annotations

import random
from typing import Any

from domain.expert_options import expert_kwargs, expert_options_schema
from domain.modular import RandomBot

from . import hacking, roles
from .actions import legal_actions
from .hacking import swap
from .scoring import score_ai_card, score_effect, score_objective
from .spec import AI6_DRAW, SOLO_COPY_POINTS_VP, TURNS_PER_PHASE
from .state import MatchState, Pos, cell
from .tableau import AI_POS, placement_cells
from .views import view

# Fixed-VP AI sides first, then the flexible ones (a simple, documented preference).
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
COPY_POINTS_ESTIMATE = 4  # a 105/106 is worth about a good neighbour turn


class GreedyBot:
    """Best immediate VP; ties broken by the first option in canonical order."""

    name = "greedy"

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """One legal command for ``seat`` chosen from its own view; ValueError if none."""
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        return self.pick(state, seat, options)

    def pick(self, state: MatchState, seat: int, options: list[dict[str, Any]]) -> dict[str, Any]:
        """The greedy choice among ``options`` (legal commands of ``seat``, non-empty)."""
        seen = _Seen(view(state, seat), seat)
        kinds = {o["type"] for o in options}
        if "choose_ai_side" in kinds:
            return min(options, key=lambda o: AI_SIDE_PREFERENCE.index(o["card"]))
        if "keep_reserve" in kinds:
            return max(options, key=lambda o: sum(seen.potential(c) for c in o["cards"]))
        if "draft" in kinds:
            if {"type": "use_ai6"} in options and seen.v["deck_count"] >= AI6_DRAW:
                return {"type": "use_ai6"}
            drafts = [o for o in options if o["type"] == "draft"]
            return max(drafts, key=lambda o: seen.potential(o["card"]))
        if "ai6_discard" in kinds:  # keep the best: discard the two weakest hand cards
            return min(options, key=lambda o: sum(seen.potential(c) for c in o["cards"]))
        if "discard" in kinds:
            return min(options, key=lambda o: seen.potential(o["card"]))
        if "place" in kinds:
            swaps = [o for o in options if o["type"] == "use_ai5"]
            if swaps and seen.v["turn"] == TURNS_PER_PHASE:
                best = max(swaps, key=seen.move_gain)
                if seen.move_gain(best)[0] > 0:
                    return best
            places = [o for o in options if o["type"] == "place"]
            return max(places, key=lambda o: seen.value(o["card"], cell(o["cell"])))
        if "copy" in kinds:
            return max(options, key=lambda o: seen.copy_value(o["card"], seen.played_pos()))
        if "exchange_reserve" in kinds:
            return max(
                options,
                key=lambda o: seen.value(
                    o["card"], cell(o["cell"]), copy=o.get("copy"), replace=True
                ),
            )
        if "move_card" in kinds:
            return max(options, key=seen.move_gain)
        if "place_extra" in kinds:
            return max(
                options,
                key=lambda o: seen.value(
                    o["card"], cell(o["cell"]), copy=o.get("copy"), frame=False
                ),
            )
        return options[0]


class _Seen:
    """The seat's own view turned into tableaux for the scoring functions."""

    def __init__(self, v: dict[str, Any], seat: int):
        self.v = v
        self.seat = seat
        self.tableaux = [{cell(e["cell"]): e["card"] for e in s["tableau"]} for s in v["seats"]]
        ai = v["you"]["ai_card"]
        self.own = self.tableaux[seat]
        if not self.own and ai:  # set-up: own side chosen, not yet revealed
            self.own = {AI_POS: ai}
        self.neighbours = _neighbours(v, self.tableaux, seat)
        self.solo = v.get("mode") == "solo"
        self.diagonal = roles.ai_power(ai) == roles.DIAGONAL_PLACEMENT
        self._cache: dict[str, int] = {}

    def played_pos(self) -> Pos:
        """The cell of the card this seat revealed this turn."""
        for p in self.v["last_reveal"]:
            if p["seat"] == self.seat:
                return cell(p["cell"])
        raise ValueError("no card revealed for this seat")

    def copy_value(self, target: str, pos: Pos, tableau: dict | None = None) -> int:
        """VP of copying ``target``'s effect at ``pos`` of the own tableau."""
        return score_effect(
            target, tableau if tableau is not None else self.own, pos, self.neighbours
        )

    def value(
        self,
        card: str,
        pos: Pos,
        copy: str | None = None,
        replace: bool = False,
        frame: bool = True,
    ) -> int:
        """Immediate VP of ``card`` put at ``pos`` in the own tableau."""
        tableau = dict(self.own)
        tableau[pos] = card
        r = roles.role(card)
        if r == roles.COPY:
            if copy:
                return self.copy_value(copy, pos, tableau)
            targets = self._targets(card)
            return max((self.copy_value(t, pos, tableau) for t in targets), default=0)
        if r == roles.COPY_POINTS:
            return SOLO_COPY_POINTS_VP if self.solo else COPY_POINTS_ESTIMATE
        return score_effect(card, tableau, pos, self.neighbours)

    def potential(self, card: str) -> int:
        """Best immediate VP of ``card`` over the cells open in the own tableau now."""
        if card not in self._cache:
            cells = placement_cells(self.own, diagonal=self.diagonal) if self.own else []
            self._cache[card] = max((self.value(card, p) for p in cells), default=0)
        return self._cache[card]

    def _targets(self, card: str) -> list[str]:
        return hacking.copy_targets_in(self.neighbours, card)

    def move_gain(self, option: dict[str, Any]) -> tuple[int, int]:
        """119/120 move or AI-5 exchange: gain in the current objective plus the AI card's
        end VP; ``decline`` wins ties."""
        if option["type"] == "decline":
            return (0, 1)
        a, b = option["cells"] if option["type"] == "use_ai5" else (option["from"], option["to"])
        moved = swap(self.own, cell(a), cell(b))
        return (self._end_value(moved) - self._end_value(self.own), 0)

    def _end_value(self, tableau: dict) -> int:
        ai = self.v["you"]["ai_card"]
        return score_objective(self.v["current_objective"], tableau) + score_ai_card(ai, tableau)


def _neighbours(v: dict[str, Any], tableaux: list[dict], seat: int) -> tuple[dict, ...]:
    """The tableaux black cards look at, from the view (see ``MatchState.neighbour_tableaux``)."""

    def grid(entries: list[dict[str, Any]]) -> dict:
        return {cell(e["cell"]): e["card"] for e in entries}

    if v.get("mode") == "duo":
        return (tableaux[1 - seat], grid(v["neutral_grid"]))
    if v.get("mode") == "solo":
        return (grid(v["solo"]["draft_grid"]),)
    n = len(tableaux)
    return (tableaux[(seat + 1) % n], tableaux[(seat - 1) % n])


OPTIONAL_POWERS = ("use_ai5", "use_ai6")  # AI-5 "You may exchange", AI-6 "you may draw 2 cards"


class IdleBot:
    """The turn-timeout policy (shared RULINGS: "A seat whose turn timer runs out takes the
    answer that uses nothing and changes least: pass, keep, decline every optional ("may",
    "can") effect, spend no card, ammo or health"; R-AI6-TIMEOUT): it never starts AI-5 or
    AI-6 (both "may", AI-6 costs 2 hand cards), declines a 119/120 move ("you may exchange a
    card with an empty space"), and answers every decision the rules force (draft, place,
    reserve, copy target, AI-6's discard once the player started it, AI-2's extra card) as
    ``greedy`` does."""

    name = "idle"

    def choose(self, state: MatchState, seat: int, rng: random.Random) -> dict[str, Any]:
        """``decline`` when offered, else the greedy choice among the legal commands other than
        :data:`OPTIONAL_POWERS`; ValueError when the seat has no decision."""
        options = legal_actions(state, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision to make")
        if {"type": "decline"} in options:
            return {"type": "decline"}
        forced = [o for o in options if o["type"] not in OPTIONAL_POWERS]
        return GREEDY.pick(state, seat, forced or options)


GREEDY = GreedyBot()
BOTS = {"random": RandomBot(legal_actions), "greedy": GREEDY, "idle": IdleBot()}
# expert.py (the Monte Carlo bot) imports this module's bots: imported once they exist
from .expert import DEFAULT_BUDGET, ExpertBot  # noqa: E402

BOTS["expert"] = ExpertBot()

# Per-seat bot options (domain.engine.build_bot): only ``expert`` has any. Issue 3: its
# "per-decision time budget is a bot option". An omitted option keeps ExpertBot's default
# (its budget; candidates and time cap by the match's mode, see expert.py).
EXPERT_OPTIONS_SCHEMA = expert_options_schema(
    budget="Rollouts per decision of a 3-6 seat match (the 2-player mode runs 1.5x, solo 4x as "
    f"many); 0 decides by the prior alone. Default {DEFAULT_BUDGET}.",
    candidates="Commands kept for the rollouts. Default: the expert bot's shortlist for the "
    "match's mode.",
    time_budget="Default: the expert bot's cap for the match's mode.",
    max_candidates=24,
)
BOT_OPTIONS = {"expert": EXPERT_OPTIONS_SCHEMA}


def make_expert(options: dict[str, Any]) -> ExpertBot:
    """An :class:`ExpertBot` configured by validated ``options`` (:data:`EXPERT_OPTIONS_SCHEMA`):
    ``budget`` -> ``budget``, ``candidates`` -> ``candidates``, ``time_budget_ms`` (ms) ->
    ``time_cap_s`` (s); an omitted key keeps the constructor's default. Raises ValueError
    for values ExpertBot refuses."""
    return ExpertBot(**expert_kwargs(options))


BOT_FACTORIES = {"expert": make_expert}
