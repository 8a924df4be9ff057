"""Effect decisions stay the chooser's (RULINGS R-CHOICE, R-PRIVACY): for every choice kind
of A.I.Pokalypse, a ``ChoiceRequested`` whose options name hand cards (or the Special Unit
deck) shows its options, prompt and held command to nobody but the chooser — not to the
seat whose command is held (``actor``), not to the others, not to a spectator — in the
event log and in the view; during the private Recruitment Phase not even its kind. The
answer (``ChoiceMade``) likewise.

The kinds are read from the rules' source (every ``ctx.ask(seat, "<kind>", ...)``), so a
new decision is covered the day it is written; a seeded playout then checks every real
``ChoiceRequested`` that random matches ask.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
from typing import Any

import pytest

from domain.engine import Event, Setup, derive_rng
from domain.games.aipokalypse import ENGINE, batching
from domain.games.aipokalypse.actions import legal_actions
from domain.games.aipokalypse.cards import catalogue
from domain.games.aipokalypse.context import Ctx
from tests.unit.aipokalypse.helpers import hand, ids, table

_ASK = re.compile(r"\bask\(\s*\w+\s*,\s*\"([a-z_]+)\"")


def _kinds() -> list[str]:
    root = pathlib.Path(__file__).resolve().parents[3] / "domain" / "games" / "aipokalypse"
    found = {kind for path in root.rglob("*.py") for kind in _ASK.findall(path.read_text())}
    return sorted(found)


KINDS = _kinds()
CARD = re.compile(r"[BSF]\d{2,3}(?:-2)?")
HIDDEN_KEYS = ("options", "prompt", "command", "seed", "actor", "answers")


def test_the_kinds_are_read_from_the_rules():
    # (29 when this was written; the book's decisions are listed in RULINGS.md)
    assert len(KINDS) >= 29, KINDS
    assert {"store", "keep", "discard", "special", "steal", "reshuffle", "load", "tuck"} <= set(
        KINDS
    )


def _asked(kind: str, phase: str) -> tuple[dict, list[Event], list[str]]:
    """A 3-seat table in ``phase``: seat 1's command is held while seat 0 chooses ``kind``
    among its own hand cards, a Special Unit of the deck and ``stop`` (events as ``decide``
    returns them: batched in the Recruitment Phase)."""
    state = table(3, phase=phase)
    mine = [ids("Sniper", 3)[0], ids("Commander", 3)[0], ids("Veteran", 3)[0]]
    hand(state, 0, *mine)
    hand(state, 1, ids("Sniper", 3)[1])
    hand(state, 2, ids("Commander", 3)[1])
    options = sorted(mine) + [state.specials[0], "stop"]
    ctx = Ctx(state, random.Random(0))
    ctx.emit(
        "ChoiceRequested",
        0,
        actor=1,
        command={"type": "ready"},
        seed=12345,
        answers=[],
        kind=kind,
        options=options,
        prompt=f"Card of seat 1: choose ({kind})",
    )
    events = batching.batch(ctx.events, 1 if phase == "recruitment" else None)
    return ctx.state, events, options


def _shown(event: Event, viewer: int | None, state: dict) -> dict[str, Any]:
    return {
        "type": ENGINE.redact_type(event, viewer, state),
        "data": ENGINE.redact(event, viewer, state),
    }


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@pytest.mark.parametrize("phase", ["recruitment", "battle"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_choice_shows_its_options_to_the_chooser_only(kind, phase):
    state, events, options = _asked(kind, phase)
    (event,) = events
    cards = {o for o in options if CARD.fullmatch(o)}
    assert len(cards) == 4
    for viewer in (1, 2, None):  # the actor, another seat, a spectator
        shown = [_shown(event, viewer, state), {"choice": ENGINE.view(state, viewer)["choice"]}]
        text = json.dumps(shown)
        assert not set(CARD.findall(text)) & cards, (viewer, shown)
        assert not _keys(shown) & set(HIDDEN_KEYS) and "12345" not in text
        if viewer is not None:
            assert legal_actions(state, viewer) == []
        if phase == "recruitment":  # a private move: not even its kind
            assert shown == [
                {"type": "RecruitmentMoveMade", "data": {"hidden": True}},
                {"choice": {"seat": 0}},
            ]
        else:
            assert shown == [
                {"type": "ChoiceRequested", "data": {"kind": kind}},
                {"choice": {"seat": 0, "kind": kind}},
            ]
    own = _shown(event, 0, state)
    inner = own["data"]["events"][0] if phase == "recruitment" else own
    assert inner["type"] == "ChoiceRequested"
    assert inner["data"] == {
        "kind": kind,
        "prompt": f"Card of seat 1: choose ({kind})",
        "options": options,
    }
    assert ENGINE.view(state, 0)["choice"]["options"] == options
    assert legal_actions(state, 0) == [{"type": "choose", "option": o} for o in options]


@pytest.mark.parametrize("phase", ["recruitment", "battle"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_answer_to_a_choice_names_its_option_to_the_chooser_only(kind, phase):
    state, _, options = _asked(kind, phase)
    ctx = Ctx(state, random.Random(0))
    ctx.emit("ChoiceMade", 0, kind=kind, option=options[0])
    (event,) = batching.batch(ctx.events, 0 if phase == "recruitment" else None)
    for viewer in (1, 2, None):
        shown = _shown(event, viewer, ctx.state)
        assert options[0] not in json.dumps(shown)
        assert shown == (
            {"type": "RecruitmentMoveMade", "data": {"hidden": True}}
            if phase == "recruitment"
            else {"type": "ChoiceMade", "data": {"kind": kind}}
        )
    assert options[0] in json.dumps(_shown(event, 0, ctx.state))


def _playout(seed: int) -> tuple[list[tuple[Event, dict]], set[str]]:
    """A seeded 3-seat random match (Expert Variant, Force the Luck, as the e2e leak test
    plays it): every event with the state after it, and the kinds asked."""
    secret = seed.to_bytes(8, "big")
    options = ENGINE.validate_options(3, {"expert": True, "force_the_luck": True})
    state, log, kinds = None, [], set()
    for event in ENGINE.new_match(Setup(3, options), derive_rng(secret, 0)):
        state = ENGINE.evolve(state, event)
        log.append((event, ENGINE.load_state(ENGINE.dump_state(state))))
    rng = random.Random(seed)
    while ENGINE.result(state) is None and len(log) < 3000:
        seat = rng.choice(sorted(ENGINE.pending(state)))
        command = rng.choice(ENGINE.legal_actions(state, seat))
        for event in ENGINE.decide(state, seat, command, derive_rng(secret, len(log))):
            state = ENGINE.evolve(state, event)
            log.append((event, ENGINE.load_state(ENGINE.dump_state(state))))
            kinds |= {e.data["kind"] for e in batching.inner(event) if e.type == "ChoiceRequested"}
    return log, kinds


def test_every_choice_random_matches_ask_shows_no_option_card_to_the_others():
    cat = set(catalogue().cards) | set(catalogue().copies)
    seen_kinds: set[str] = set()
    checked = 0
    for seed in range(6):
        log, kinds = _playout(seed)
        seen_kinds |= kinds
        for event, after in log:
            asked = [e for e in batching.inner(event) if e.type == "ChoiceRequested"]
            for choice in asked:
                cards = {o for o in choice.data["options"] if isinstance(o, str) and o in cat}
                for viewer in {0, 1, 2, None} - {choice.seat}:
                    alone = ENGINE.redact(choice, viewer, after)
                    assert not {c for c in cards if f'"{c}"' in json.dumps(alone)}, (
                        seed,
                        viewer,
                        choice,
                    )
                    assert not _keys(alone) & set(HIDDEN_KEYS), (seed, viewer, alone)
                    shown = _shown(event, viewer, after)  # the envelope the viewer gets
                    for part in shown["data"].get("events", [shown]):  # (a batch: what it may see)
                        assert part["type"] != "ChoiceRequested" or not _keys(part["data"]) & set(
                            HIDDEN_KEYS
                        ), (seed, viewer, shown)
                    view = ENGINE.view(after, viewer)["choice"]
                    assert view is None or not set(view) & set(HIDDEN_KEYS), (seed, viewer, view)
                checked += 1
    # (216 choices of 10 kinds when this was written, actor and chooser apart in 76)
    assert checked >= 100 and len(seen_kinds) >= 5, (checked, seen_kinds)
