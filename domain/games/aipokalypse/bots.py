"""Bots: ``random`` (any legal command; ends Recruitment with probability 1/4 per step),
``tactician`` (recruits for synergy, keeps pairs for Triples, reacts in battle when it pays)
and ``idle`` (the turn-timeout policy: ready at once, pass every reaction, decline every
optional effect); ``toma_hunter`` (:mod:`.hunter`) plays solo and co-op against the
A.I.Toma, elsewhere as the tactician.

Both read only their own seat's view (hand, board, ammo, open effect decision) and
``legal_actions``; an effect decision (``choose``) is answered from its listed options. In
solo and co-op they play the human seats with the same policies (the A.I.Toma plays itself);
the tactician also recruits from its partner's pool when offered (Cooperative Mode).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from domain.expert_options import expert_kwargs, expert_options_schema

from .actions import legal_actions
from .bot_decisions import decision_choice
from .cards import catalogue
from .context import timeout_option
from .expert import ExpertBot
from .hunter import TomaHunterBot
from .state import Player, dump_slot, strength_of, unit_of, units

_DIFF = {"easy": 0, "medium": 1, "hard": 2}


def _difficulty_rank(fid: str) -> int:
    """The faction ``fid``'s difficulty as a rank (:data:`_DIFF`, easy first); ValueError for
    a card without a difficulty (no faction)."""
    difficulty = catalogue()[fid].difficulty
    if difficulty is None:
        raise ValueError(f"{fid} has no difficulty (not a faction)")
    return _DIFF[difficulty]


class RandomBot:
    """Uniformly random legal command; ``ready`` with probability 1/4 when available."""

    name = "random"

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """One command from ``legal_actions(state, seat)`` (ValueError when there is none)."""
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError("no legal action")
        ready = [a for a in actions if a["type"] == "ready"]
        if ready and (len(actions) == 1 or rng.random() < 0.25):
            return ready[0]
        others = [a for a in actions if a["type"] != "ready"] or actions
        return rng.choice(others)


def _card_score(cid: str) -> float:
    """Heuristic worth of a unit: Special Units high, then card value, active effects."""
    card = catalogue()[cid]
    score = 10.0 if card.category == "special" else float(card.value or 0)
    for eff in card.effects:
        if eff["trigger"] in ("recruit", "round_bonus", "battle", "preparation"):
            score += 1.5
    return score


class TacticianBot:
    """Greedy recruiter: Triple into Special Units (pool first, never its last 2 health),
    recruit the best card on an empty slot (targeting its strongest unit), keep pairs,
    open slots with spare cards, spend ammo beyond 2 on the strongest unit, react with the
    cheapest winning reaction."""

    name = "tactician"

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """One command from ``legal_actions(state, seat)``."""
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError("no legal action")
        kinds = {a["type"] for a in actions}
        p = state.players[seat]
        if "choose" in kinds:
            return self._choose(state, seat, actions)
        if "draft_special" in kinds:
            return max(actions, key=lambda a: (_card_score(a["special"]), a["special"]))
        if "order_health" in kinds:
            return actions[0]  # the drafted order: best cards on top
        if "choose_faction" in kinds:
            return min(actions, key=lambda a: (_difficulty_rank(a["faction"]), a["faction"]))
        if "choose_special" in kinds:  # (Big Benji's cash_pool may be offered too)
            offered = [a for a in actions if a["type"] == "choose_special"]
            return max(offered, key=lambda a: (_card_score(a["special"]), a["special"]))
        if "place_card" in kinds:
            places = [a for a in actions if a["type"] == "place_card"]
            empty = [a for a in places if not p.slots[a["slot"]].unit]
            return (
                empty[0]
                if empty
                else min(places, key=lambda a: (strength_of(p.slots[a["slot"]]), -a["slot"]))
            )
        if kinds & {"react_card", "react_ammo", "pass"}:
            return self._react(state, seat, actions)
        return self._recruit(state, p, actions)

    def _choose(self, state: Any, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Effect decisions: the default (first) option — lowest discards, weakest own unit
        given up, strongest enemy unit hit — except that C.H.R.O.M.E. always doubles,
        Journalist rallies every other Human and the book's player decisions follow
        :func:`decision_choice` (a hand card's worth: :func:`_card_score`, pairs kept)."""
        kind = state.choice["kind"]
        options = [a["option"] for a in actions]
        p = state.players[seat]
        pick = decision_choice(
            kind,
            options,
            [dump_slot(s) for s in p.slots],
            p.hand,
            len(p.ammo),
            lambda c: _card_score(c) + (20 if self._paired(state, seat, c) else 0),
        )
        if pick is not None:
            return {"type": "choose", "option": pick}
        if kind == "chrome" and "double" in options:
            return {"type": "choose", "option": "double"}
        if kind == "rally":
            return next((a for a in actions if a["option"] != "stop"), actions[0])
        return actions[0]

    def _react(self, state: Any, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
        cat = catalogue()
        # A point saved is a health point saved; it pays unless it costs more than 2 ammo
        # or a card worth keeping (an A.I.Lien, or a card of a pair kept for a Triple).
        ammo = [a for a in actions if a["type"] == "react_ammo" and a["count"] <= 2]
        cards = [
            a
            for a in actions
            if a["type"] == "react_card"
            and cat[a["card"]].kind != "ailien"
            and not self._paired(state, seat, a["card"])
        ]
        if ammo:
            return ammo[0]
        if cards:
            return min(cards, key=lambda a: (cat[a["card"]].value, a["card"]))
        return {"type": "pass"}

    @staticmethod
    def _paired(state: Any, seat: int, cid: str) -> bool:
        cat = catalogue()
        key = (cat[cid].color, cat[cid].value)
        return (
            sum(
                1
                for c in state.players[seat].hand
                if cat[c].category == "basic" and (cat[c].color, cat[c].value) == key
            )
            >= 2
        )

    def _recruit(self, state: Any, p: Player, actions: list[dict[str, Any]]) -> dict[str, Any]:
        cat = catalogue()
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in actions:
            by_type.setdefault(a["type"], []).append(a)
        triples = by_type.get("triple", [])
        if triples:
            pool = [a for a in triples if a["source"] in ("pool", "partner")]
            health = [a for a in triples if a["source"] == "health" and len(p.health) > 2]
            pick = pool or health
            if pick:
                return max(
                    pick,
                    key=lambda a: (
                        sum(1 for c in a["cards"] if c not in p.hand),
                        _card_score(a.get("special", "S01")),
                    ),
                )
        counts = Counter((cat[c].color, cat[c].value) for c in p.hand if cat[c].category == "basic")
        pairs = {k for k, n in counts.items() if n >= 2}

        def keep(cid: str) -> bool:
            c = cat[cid]
            return c.category == "basic" and (c.color, c.value) in pairs

        recruits = [a for a in by_type.get("recruit", []) if not keep(a["card"])]
        if recruits:

            def value(a: dict[str, Any]) -> tuple:
                t = a.get("target")
                t_str = strength_of(p.slots[t]) if t is not None else 0
                return (_card_score(a["card"]), t_str, -a["slot"])

            return max(recruits, key=value)
        spare = [
            a
            for a in by_type.get("open_slot", [])  # basic units only: no Special Unit as Red Slot
            if cat[a["card"]].category == "basic" and not keep(a["card"])
        ]
        if spare and len(p.hand) >= 2:
            return min(spare, key=lambda a: (_card_score(a["card"]), a["card"]))
        spend = by_type.get("spend_ammo", [])
        humans = sum(1 for _, s in units(p) if cat[unit_of(s)].color == "blue")
        if by_type.get("spend_ammo_humans") and len(p.ammo) > 2 and humans >= 2:
            return {"type": "spend_ammo_humans"}  # Lieutenant Dan: 2+ strength per ammo
        if spend and len(p.ammo) > 2:
            return max(spend, key=lambda a: (strength_of(p.slots[a["slot"]]), -a["slot"]))
        return {"type": "ready"}


class IdleBot:
    """The turn-timeout policy (shared RULINGS: "A seat whose turn timer runs out takes the
    answer that uses nothing and changes least: pass, keep, decline every optional ("may",
    "can") effect, spend no card, ammo or health"): ends Recruitment at once, passes every
    reaction window, declines every optional effect decision (its ``decline``: Prayers of
    Elex skips, Lieutenant Dan spends 0 ammo, Hacker keeps the pool, Module discards nothing,
    Big Benji steals nothing ...) and answers a forced one with its first option; keeps the
    first offered faction / drawn Special Unit and places a battle card on the first place
    offered. It never cashes, spends or plays anything it is not forced to. RULINGS R-TIMEOUT."""

    name = "idle"

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        """``ready`` / ``pass`` when legal; an open effect decision's
        :func:`.context.timeout_option`; else the first legal command that spends nothing
        (never ``cash_pool``). ValueError when the seat has no legal command."""
        actions = legal_actions(state, seat)
        if not actions:
            raise ValueError("no legal action")
        for kind in ("ready", "pass"):
            if {"type": kind} in actions:
                return {"type": kind}
        if state.choice and state.choice["seat"] == seat:
            return {"type": "choose", "option": timeout_option(state.choice)}
        return next((a for a in actions if a["type"] != "cash_pool"), actions[0])


BOTS = {
    "random": RandomBot(),
    "tactician": TacticianBot(),
    "idle": IdleBot(),
    "toma_hunter": TomaHunterBot(fallback=TacticianBot()),
}
#: the expert's rollout policies (expert.py sits below this module: they are handed in)
POLICIES = {"tactician": BOTS["tactician"], "toma_hunter": BOTS["toma_hunter"]}
#: the expert with its default options (the options schema quotes its defaults)
DEFAULT_EXPERT = ExpertBot(POLICIES)
BOTS["expert"] = DEFAULT_EXPERT

# Per-seat bot options (domain.engine.build_bot): only ``expert`` has any (issue 23: "under
# ``budget`` and ``time_budget_ms`` options like AI: 100% Human's expert"). An omitted option
# keeps ExpertBot's default. The server's caps (service.store.quotas) bound both by name.
EXPERT_OPTIONS_SCHEMA = expert_options_schema(
    budget="Rollouts per decision, all weighed commands together; 0 plays the tactician's "
    f"(toma_hunter's) choice. Default {DEFAULT_EXPERT.budget}.",
    candidates=f"Commands weighed by the rollouts. Default {DEFAULT_EXPERT.candidates}.",
    time_budget=f"Default {int(DEFAULT_EXPERT.time_cap_s * 1000)}.",
    max_candidates=12,
)
BOT_OPTIONS = {"expert": EXPERT_OPTIONS_SCHEMA}


def make_expert(options: dict[str, Any]) -> ExpertBot:
    """An :class:`ExpertBot` configured by validated ``options`` (:data:`EXPERT_OPTIONS_SCHEMA`):
    ``budget``, ``candidates`` and ``time_budget_ms`` (ms) -> ``time_cap_s`` (s); an omitted
    key keeps the constructor's default. Raises ValueError for values ExpertBot refuses."""
    return ExpertBot(POLICIES, **expert_kwargs(options))


BOT_FACTORIES = {"expert": make_expert}
