"""Ruling R-SETUP: the factions are revealed (``FactionsRevealed``) before any start-of-game or
round 1 faction effect asks a seat to choose, so no open decision identifies a hidden faction
(probe: Prayers of Elex's ``pray`` decision named seat 1's faction before the reveal)."""

from __future__ import annotations

import json
import random

from domain.engine import Setup, derive_rng
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.state import MatchState
from tests.unit.aipokalypse.helpers import one

ELEX = one("Prayers of Elex")  # F14, round bonus: "pray" (discard 3, search a Special Unit)


def _faction_table() -> MatchState:
    """A 2-seat match at Game Setup (B) whose seat 1 was offered Prayers of Elex."""
    state = None
    for e in ENGINE.new_match(Setup(2, {}), derive_rng(b"elex", 0)):
        state = ENGINE.evolve(state, e)
    state = ENGINE.dump_state(state)  # edited in its dumped (JSON) form
    assert state["phase"] == "faction"
    offered = state["players"][1]["offered"]
    if ELEX not in offered:
        other = offered[0]
        for pile in [state["ammo_deck"], state["players"][0]["offered"]]:
            if ELEX in pile:
                pile[pile.index(ELEX)] = other
        offered[0] = ELEX
    return ENGINE.load_state(state)


def _decide(state, seat, cmd, version):
    events = ENGINE.decide(state, seat, cmd, derive_rng(b"elex", version))
    log = []
    for e in events:
        state = ENGINE.evolve(state, e)
        log.append((e, state))
    return state, log


def _leaks(text: str, faction: str) -> bool:
    return faction in text or "pray" in text


def test_factions_are_revealed_before_prayers_of_elex_asks_and_nothing_leaks_before():
    state = _faction_table()
    state, log = _decide(state, 1, {"type": "choose_faction", "faction": ELEX}, 1)
    mine = state.players[0].offered[0]
    state, more = _decide(state, 0, {"type": "choose_faction", "faction": mine}, 2)
    log += more
    kinds = [e.type for e, _ in more]
    assert kinds[:2] == ["FactionChosen", "FactionsRevealed"]
    assert kinds[-1] == "ChoiceRequested" and more[-1][0].seat == 1
    assert more[-1][0].data["kind"] == "pray"
    # seat 0's own faction is its own to see at once; everybody sees both after the reveal
    assert state.factions_revealed and state.players[0].faction == mine
    assert state.players[1].faction == ELEX
    assert ENGINE.pending(state) == {1: "choose"}
    # while the factions were hidden, no view and no redacted event names Elex or its decision
    for event, after in log:
        if after.factions_revealed:
            break
        for viewer in (None, 0):
            assert not _leaks(json.dumps(ENGINE.redact(event, viewer, after)), ELEX), (
                viewer,
                event.type,
            )
            assert not _leaks(json.dumps(ENGINE.view(after, viewer)), ELEX), viewer
    # seat 1 prays: the held start-of-game step continues from the committed reveal
    answers = ["pray"]
    version = 3
    while state.choice:
        option = answers.pop(0) if answers else state.choice["options"][0]
        state, more = _decide(state, 1, {"type": "choose", "option": option}, version)
        version += 1
    assert state.phase == "recruitment" and state.round == 1
    assert len(state.players[1].hand) == 6 - 3 + 1  # 3 discarded, 1 Special Unit found


def test_the_spectator_never_sees_a_choice_kind_while_factions_are_hidden():
    state = ENGINE.dump_state(_faction_table())
    state["choice"] = {
        "seat": 1,
        "actor": 1,
        "command": {"type": "pass"},
        "seed": 0,
        "answers": [],
        "kind": "pray",
        "options": ["pray", "skip"],
        "prompt": "Prayers of Elex",
    }
    state = ENGINE.load_state(state)
    assert ENGINE.view(state, None)["choice"] == {"seat": 1}
    assert ENGINE.view(state, 0)["choice"] == {"seat": 1}
    assert ENGINE.view(state, 1)["choice"]["kind"] == "pray"


def test_a_choice_before_the_reveal_replays_to_the_same_events():
    state = _faction_table()
    state, _ = _decide(state, 1, {"type": "choose_faction", "faction": ELEX}, 1)
    cmd = {"type": "choose_faction", "faction": state.players[0].offered[0]}
    first = ENGINE.decide(state, 0, cmd, random.Random(7))
    again = ENGINE.decide(state, 0, cmd, random.Random(7))
    assert [(e.type, e.seat, dict(e.data)) for e in first] == [
        (e.type, e.seat, dict(e.data)) for e in again
    ]
