"""Two tiny but complete games implementing ``domain.engine.Engine`` for platform tests.

- ``high-card``: 2 seats, simultaneous hidden choices. A 20-card deck (1..20) is shuffled
  at set-up; each round every seat is dealt 2 cards, both seats secretly play one, then the
  plays are revealed and the higher card scores 1 point. Most points after ``rounds`` wins.
- ``race``: 2-4 seats, sequential. A random first seat; in turn each seat adds 1-3 to a
  shared total; whoever brings it to ``target`` or more wins.

Only platform tests use these (registered through MatchService's ``engines`` argument or
``ARENA_ENGINES=tests.support.games:ENGINES`` in worker subprocesses).
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Mapping
from typing import Any

from domain.engine import (
    EngineBase,
    Event,
    IllegalMove,
    InvalidCommand,
    MatchFinished,
    NotYourTurn,
    Setup,
    UnknownAction,
)


class _Policy:
    def __init__(self, name: str, pick):
        self.name = name
        self._pick = pick

    def choose(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
        return self._pick(state, seat, rng)


# --------------------------------------------------------------------------- high card
class HighCard(EngineBase):
    """Simultaneous hidden-choice game (see module docstring)."""

    game_id = "high-card"
    title = "High Card"
    min_seats = 2
    max_seats = 2
    schema_version = 1
    options_schema = {
        "type": "object",
        "properties": {
            "rounds": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3},
            "bot_delay_s": {"type": "number", "minimum": 0, "maximum": 5, "default": 0},
        },
        "additionalProperties": False,
    }
    command_schemas = {
        "play": {
            "type": "object",
            "required": ["type", "card"],
            "properties": {"type": {"const": "play"}, "card": {"type": "integer"}},
        }
    }
    timeout_bot = "greedy"

    def __init__(self):
        def greedy(state, seat, rng):
            return {"type": "play", "card": max(state["hands"][str(seat)])}

        def slow(state, seat, rng):
            time.sleep(state["bot_delay_s"])
            return greedy(state, seat, rng)

        self.bots = {
            "random": _Policy(
                "random", lambda s, seat, rng: rng.choice(self.legal_actions(s, seat))
            ),
            "greedy": _Policy("greedy", greedy),
            "slow": _Policy("slow", slow),
        }

    def validate_options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"rounds", "bot_delay_s"}
        if unknown:
            raise InvalidCommand(f"Unknown options: {sorted(unknown)}.")
        rounds = options.get("rounds", 3)
        delay = options.get("bot_delay_s", 0)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 5:
            raise InvalidCommand("rounds must be an integer 1-5.")
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= 5:
            raise InvalidCommand("bot_delay_s must be 0-5.")
        return {"rounds": rounds, "bot_delay_s": delay}

    def new_match(self, setup: Setup, rng: random.Random) -> list[Event]:
        order = list(range(1, 21))
        rng.shuffle(order)
        events = [
            Event(
                "MatchSetUp",
                {
                    "seats": setup.seats,
                    "rounds": setup.options["rounds"],
                    "bot_delay_s": setup.options["bot_delay_s"],
                },
            ),
            Event("DeckShuffled", {"order": order}),
        ]
        return events + self._deal(order, setup.seats)

    @staticmethod
    def _deal(deck: list[int], seats: int) -> list[Event]:
        return [Event("HandDealt", {"cards": deck[2 * s : 2 * s + 2]}, s) for s in range(seats)]

    def decide(self, state, seat, command, rng):
        if state["finished"]:
            raise MatchFinished()
        if command.get("type") != "play":
            raise UnknownAction(str(command.get("type")))
        card = command.get("card")
        if isinstance(card, bool) or not isinstance(card, int):
            raise InvalidCommand("card must be an integer.")
        if seat not in self.pending(state):
            raise NotYourTurn()
        if card not in state["hands"][str(seat)]:
            raise IllegalMove(f"Card {card} is not in your hand.", "card_not_in_hand")
        events = [Event("CardPlayed", {"card": card}, seat)]
        played = {**state["played"], str(seat): card}
        if len(played) == state["seats"]:
            best = max(played.values())
            winner = next(int(s) for s, c in played.items() if c == best)
            events.append(Event("RoundRevealed", {"cards": played, "winner": winner}))
            if state["round"] < state["rounds"]:
                events += self._deal(state["deck"], state["seats"])
            else:
                scores = list(state["scores"])
                scores[winner] += 1
                events.append(Event("MatchEnded", {"scores": scores}))
        return events

    def evolve(self, state, event):
        t, d = event.type, event.data
        if t == "MatchSetUp":
            return {
                "seats": d["seats"],
                "rounds": d["rounds"],
                "bot_delay_s": d["bot_delay_s"],
                "round": 0,
                "deck": [],
                "hands": {},
                "played": {},
                "scores": [0] * d["seats"],
                "finished": False,
                "last_reveal": None,
            }
        state = copy.deepcopy(state)
        if t == "DeckShuffled":
            state["deck"] = list(d["order"])
        elif t == "HandDealt":
            state["hands"][str(event.seat)] = list(d["cards"])
            state["deck"] = [c for c in state["deck"] if c not in d["cards"]]
            if event.seat == 0:
                state["round"] += 1
                state["played"] = {}
        elif t == "CardPlayed":
            state["played"][str(event.seat)] = d["card"]
            state["hands"][str(event.seat)].remove(d["card"])
        elif t == "RoundRevealed":
            state["scores"][d["winner"]] += 1
            state["last_reveal"] = d["cards"]
        elif t == "MatchEnded":
            state["finished"] = True
        return state

    def view(self, state, viewer):
        out = {
            "round": state["round"],
            "rounds": state["rounds"],
            "scores": state["scores"],
            "deck_count": len(state["deck"]),
            "played": sorted(int(s) for s in state["played"]),
            "last_reveal": state["last_reveal"],
            "hand_counts": {s: len(h) for s, h in state["hands"].items()},
        }
        if viewer is not None:
            out["hand"] = state["hands"].get(str(viewer), [])
            out["my_play"] = state["played"].get(str(viewer))
        return out

    def redact(self, event, viewer, state=None):
        if event.type == "DeckShuffled":
            return {"cards": len(event.data["order"])}
        if event.type == "HandDealt" and viewer != event.seat:
            return {"count": len(event.data["cards"])}
        if event.type == "CardPlayed" and viewer != event.seat:
            return {}
        return dict(event.data)

    def pending(self, state):
        if state is None or state["finished"]:
            return {}
        return {s: "play" for s in range(state["seats"]) if str(s) not in state["played"]}

    def legal_actions(self, state, seat):
        if seat not in self.pending(state):
            return []
        return [{"type": "play", "card": c} for c in sorted(state["hands"][str(seat)])]

    def result(self, state):
        if state is None or not state["finished"]:
            return None
        scores = state["scores"]
        ranking = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
        top = max(scores)
        return {
            "scores": scores,
            "ranking": ranking,
            "winners": [s for s in range(len(scores)) if scores[s] == top],
        }

    def dump_state(self, state):
        return copy.deepcopy(state)

    def load_state(self, data):
        return copy.deepcopy(dict(data))


# --------------------------------------------------------------------------- race
class Race(EngineBase):
    """Sequential turn game (see module docstring)."""

    game_id = "race"
    title = "Race to N"
    min_seats = 2
    max_seats = 4
    schema_version = 1
    options_schema = {
        "type": "object",
        "properties": {
            "target": {"type": "integer", "minimum": 3, "maximum": 1000, "default": 10},
            "bot_delay_s": {"type": "number", "minimum": 0, "maximum": 5, "default": 0},
        },
        "additionalProperties": False,
    }
    command_schemas = {
        "add": {
            "type": "object",
            "required": ["type", "amount"],
            "properties": {"type": {"const": "add"}, "amount": {"enum": [1, 2, 3]}},
        }
    }
    timeout_bot = "greedy"

    def __init__(self):
        def slow(state, seat, rng):
            time.sleep(state["bot_delay_s"])
            return {"type": "add", "amount": 3}

        self.bots = {
            "random": _Policy(
                "random", lambda s, seat, rng: rng.choice(self.legal_actions(s, seat))
            ),
            "greedy": _Policy("greedy", lambda s, seat, rng: {"type": "add", "amount": 3}),
            "slow": _Policy("slow", slow),
        }

    def validate_options(self, seats, options):
        unknown = set(options) - {"target", "bot_delay_s"}
        if unknown:
            raise InvalidCommand(f"Unknown options: {sorted(unknown)}.")
        target = options.get("target", 10)
        delay = options.get("bot_delay_s", 0)
        if isinstance(target, bool) or not isinstance(target, int) or not 3 <= target <= 1000:
            raise InvalidCommand("target must be an integer 3-1000.")
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= 5:
            raise InvalidCommand("bot_delay_s must be 0-5.")
        return {"target": target, "bot_delay_s": delay}

    def new_match(self, setup, rng):
        return [
            Event(
                "RaceStarted",
                {
                    "seats": setup.seats,
                    "target": setup.options["target"],
                    "bot_delay_s": setup.options["bot_delay_s"],
                    "first": rng.randrange(setup.seats),
                },
            )
        ]

    def decide(self, state, seat, command, rng):
        if state["winner"] is not None:
            raise MatchFinished()
        if command.get("type") != "add":
            raise UnknownAction(str(command.get("type")))
        amount = command.get("amount")
        if amount not in (1, 2, 3) or isinstance(amount, bool):
            raise InvalidCommand("amount must be 1, 2 or 3.")
        if seat != state["turn"]:
            raise NotYourTurn()
        total = state["total"] + amount
        events = [Event("Added", {"amount": amount, "total": total}, seat)]
        if total >= state["target"]:
            events.append(Event("RaceWon", {"total": total}, seat))
        return events

    def evolve(self, state, event):
        d = event.data
        if event.type == "RaceStarted":
            return {
                "seats": d["seats"],
                "target": d["target"],
                "turn": d["first"],
                "total": 0,
                "winner": None,
                "moves": 0,
                "bot_delay_s": d.get("bot_delay_s", 0),
            }
        state = dict(state)
        if event.type == "Added":
            state["total"] = d["total"]
            state["turn"] = (event.seat + 1) % state["seats"]
            state["moves"] += 1
        elif event.type == "RaceWon":
            state["winner"] = event.seat
        return state

    def view(self, state, viewer):
        return {k: state[k] for k in ("target", "turn", "total", "winner", "moves")}

    def redact(self, event, viewer, state=None):
        return dict(event.data)

    def pending(self, state):
        if state is None or state["winner"] is not None:
            return {}
        return {state["turn"]: "add"}

    def legal_actions(self, state, seat):
        if seat not in self.pending(state):
            return []
        return [{"type": "add", "amount": a} for a in (1, 2, 3)]

    def result(self, state):
        if state is None or state["winner"] is None:
            return None
        scores = [1 if s == state["winner"] else 0 for s in range(state["seats"])]
        ranking = [state["winner"]] + [s for s in range(state["seats"]) if s != state["winner"]]
        return {"scores": scores, "ranking": ranking, "winners": [state["winner"]]}

    def dump_state(self, state):
        return dict(state)

    def load_state(self, data):
        return dict(data)


HIGH_CARD = HighCard()
RACE = Race()
ENGINES = {HIGH_CARD.game_id: HIGH_CARD, RACE.game_id: RACE}
