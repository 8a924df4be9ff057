"""Views and events agree at every version (issue 9, item 8; RULINGS R-VIEW-VERSION): the view
folded from the first ``v`` events shows every public event up to ``v`` and nothing hidden."""

from __future__ import annotations

import random

from domain.engine import Event, Setup, derive_rng
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.batching import unbatch
from domain.games.aipokalypse.bots import BOTS
from tests.unit.aipokalypse.helpers import table

DEEP_CORE = "F28"  # "Start: gain a Red Slot"
SLOT_EVENTS = ("SlotOpened", "RedSlotPlaced")


def _deep_core_match(seed: bytes, seats: int = 3, steps: int = 3000):
    """A tactician match in which seat 0 keeps Deep Core: ``[(event, state after it)]``."""
    events = ENGINE.new_match(Setup(seats, {}), derive_rng(seed, 0))
    start = events[0].data
    if DEEP_CORE not in start["offered"][0]:  # deal Deep Core to seat 0 (swap it in)
        mine = start["offered"][0][0]
        for pile in [start["ammo_deck"]] + start["offered"][1:]:
            if DEEP_CORE in pile:
                pile[pile.index(DEEP_CORE)] = mine
        start["offered"][0][0] = DEEP_CORE
    state = ENGINE.evolve(None, events[0])
    log = [(events[0], ENGINE.load_state(ENGINE.dump_state(state)))]
    rng = random.Random(seed)
    while ENGINE.result(state) is None and steps:
        seat = min(ENGINE.pending(state))
        if state.phase == "faction" and seat == 0 and state.players[0].faction is None:
            cmd = {"type": "choose_faction", "faction": DEEP_CORE}
        else:
            cmd = BOTS["tactician"].choose(state, seat, rng)
        for e in ENGINE.decide(state, seat, cmd, derive_rng(seed, len(log))):
            state = ENGINE.evolve(state, e)
            log.append((e, ENGINE.load_state(ENGINE.dump_state(state))))
        steps -= 1
    return log


def test_a_public_slot_event_shows_in_every_view_at_its_own_version():
    """Deep Core (F28, "Start: gain a Red Slot"): the start-of-game ``RedSlotPlaced`` is public,
    so the spectator's and the other seats' views at that very version show the Red Slot (before
    the fix: ``slots: []`` until the next version). Over every version of whole matches: a
    public ``SlotOpened`` / ``RedSlotPlaced`` shows the slot (red for a Red Slot) to every viewer
    at its version; a hidden one (Recruitment) changes no other viewer's view of that board."""
    checked = {"public": 0, "hidden": 0, "deep_core": 0}
    for seed in (b"views-1", b"views-2"):
        log = _deep_core_match(seed)
        assert log[-1][1].result is not None, "the match finished"
        n = log[0][1].n
        for v in range(1, len(log)):
            batch, state = log[v]
            for event in unbatch([batch]):  # a hidden command is one event (R-HIDDEN-BATCH)
                if event.type not in SLOT_EVENTS:
                    continue
                _check(event, state, log[v - 1][1], n, checked)
    assert checked["public"] and checked["hidden"] and checked["deep_core"], checked


def _check(event, state, before, n, checked):
    seat, slot = event.seat, event.data["slot"]
    for viewer in [None] + [s for s in range(n) if s != seat]:
        seen = ENGINE.view(state, viewer)["seats"][seat]["slots"]
        if event.data.get("hidden"):
            assert seen == ENGINE.view(before, viewer)["seats"][seat]["slots"]
            checked["hidden"] += 1
            continue
        assert slot < len(seen), (event.type, viewer)
        if event.type == "RedSlotPlaced":
            assert seen[slot]["red"], (event.type, viewer)
        checked["public"] += 1
        if state.phase != "recruitment" and state.round <= 1 and event.seat == 0:
            checked["deep_core"] += 1


def test_health_lost_in_the_recruitment_phase_shows_at_its_version():
    """``HealthLost`` is public even in the private Recruitment Phase (.Exe Suit's damage): the
    other viewers' health count and pool of that seat change at its version, not at the next
    battle reveal."""
    state = table(2)
    state = ENGINE.evolve(state, Event("RecruitmentStarted", {"round": 2}))
    lost = state.players[1].health[0]
    state = ENGINE.evolve(state, Event("HealthLost", {"cards": [lost]}, 1))
    for viewer in (None, 0):
        seen = ENGINE.view(state, viewer)["seats"][1]
        assert seen["health_count"] == 5 and seen["pool"] == [lost]
