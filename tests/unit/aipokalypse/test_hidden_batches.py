"""Hidden moves by count (issue 9, item 9; RULINGS R-HIDDEN-BATCH): a hidden Recruitment
command looks the same to the other seats and to spectators whatever it caused."""

from __future__ import annotations

import random

from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.batching import unbatch
from tests.unit.aipokalypse.helpers import empty_slot, give_ammo, hand, ids, put, table, take


def _table():
    """Seat 0 in its Recruitment Phase with cards for many kinds of moves."""
    state = table(3)
    put(state, 0, ids("Veteran", 3)[2], 2)
    empty_slot(state, 0)
    hand(
        state,
        0,
        ids("Berserker", 3)[0],
        ids("Recruit", 3)[0],
        ids("Module", 3)[0],
        *ids("Sniper", 2),
        *ids("Commander", 3),
    )
    give_ammo(state, 0, 1)
    state.players[0].pool.append(state.specials.pop(0))
    return state


def _commands(state):
    pool = state.players[0].pool[0]
    return {
        "open_slot": {"type": "open_slot", "card": ids("Berserker", 3)[0]},  # 1 event
        "recruit": {"type": "recruit", "card": ids("Berserker", 3)[0], "slot": 1},  # 1 event
        "recruit_ammo": {
            "type": "recruit",
            "card": ids("Recruit", 3)[0],
            "slot": 1,
        },  # recruit + ammo
        "discard": {"type": "discard", "card": ids("Sniper", 3)[0]},
        "discard_choice": {"type": "discard", "card": ids("Module", 3)[0]},  # held: a choice
        "spend_ammo": {"type": "spend_ammo", "slot": 0},
        "triple": {
            "type": "triple",
            "cards": sorted(ids("Commander", 3)),
            "source": "pool",
            "special": pool,
        },
        "triple_health": {
            "type": "triple",
            "cards": sorted(ids("Commander", 3)),
            "source": "health",
        },
    }


def _shape(events, viewer):
    return [
        (ENGINE.redact_type(e, viewer), e.seat, sorted(ENGINE.redact(e, viewer))) for e in events
    ]


def test_every_hidden_recruitment_command_looks_the_same_to_the_others():
    """ "Hidden moves by count": before, one command showed its kind by its number of events
    (1 = recruit, discard or open_slot; 2 = recruit with an ammo gain; 3-4 = a choice or Triple
    chain). Now each is one ``RecruitmentMoveMade`` of seat 0 with ``{"hidden": true}`` for seats
    1 and 2 and for spectators, while seat 0 sees every event it caused."""
    shapes = {}
    atoms = {}
    for name, cmd in _commands(_table()).items():
        events = ENGINE.decide(_table(), 0, cmd, random.Random(5))
        atoms[name] = len(unbatch(events))
        shapes[name] = {viewer: _shape(events, viewer) for viewer in (None, 1, 2)}
        own = ENGINE.redact(events[0], 0)["events"]
        assert [x["type"] for x in own] == [e.type for e in unbatch(events)]
    assert len(set(atoms.values())) >= 2, atoms  # the commands did differ
    expected = [("RecruitmentMoveMade", 0, ["hidden"])]
    for name, by_viewer in shapes.items():
        for viewer, shape in by_viewer.items():
            assert shape == expected, (name, viewer, shape)


def test_answering_a_hidden_choice_looks_like_any_other_hidden_move():
    """The answer to an effect decision (Module: which cards to discard) is one hidden move too."""
    state = _table()
    for e in ENGINE.decide(state, 0, _commands(state)["discard_choice"], random.Random(5)):
        state = ENGINE.evolve(state, e)
    assert state.choice and state.choice["seat"] == 0
    answer = ENGINE.decide(
        state, 0, {"type": "choose", "option": state.choice["options"][0]}, random.Random(5)
    )
    assert len(unbatch(answer)) > 1
    for viewer in (None, 1, 2):
        assert _shape(answer, viewer) == [("RecruitmentMoveMade", 0, ["hidden"])]


def test_a_batch_folds_like_its_events_and_replays_identically():
    """The batch folds as its inner events in order (same state) and ``decide`` is
    deterministic (the service's verify re-decides every command and compares)."""
    cmd = _commands(_table())["triple_health"]
    events = ENGINE.decide(_table(), 0, cmd, random.Random(5))
    assert [e.to_dict() for e in events] == [
        e.to_dict() for e in ENGINE.decide(_table(), 0, cmd, random.Random(5))
    ]
    batched, flat = _table(), _table()
    for e in events:
        batched = ENGINE.evolve(batched, e)
    for e in unbatch(events):
        flat = ENGINE.evolve(flat, e)
    assert batched == flat


def test_a_reshuffle_caused_by_a_hidden_move_stays_inside_its_batch():
    """Recruiting Walter White ("open another slot ... with the top card of the draw pile")
    when the draw pile is empty reshuffles the discard pile first ("When the common draw
    pile ever becomes empty, shuffle the discard pile"). Rules 3 put the public
    ``DrawPileReshuffled`` between two ``RecruitmentMoves`` (three envelopes: the others saw
    that the move drew past the end of the pile); rules 4 keep it inside the one batch: one
    ``RecruitmentMoveMade`` for the others, the mover sees its three events and the new
    pile as a count only, and the others' view keeps the piles as Recruitment began."""
    from domain.games.aipokalypse.spec import RULES_VERSION

    state = _table()
    take(state, "S13")
    state.players[0].hand.append("S13")
    state.discard = state.draw + state.discard
    state.draw = []
    pile = len(state.discard)
    state.set_table_public(  # the piles as this Recruitment Phase began (fold of its start)
        {"discard": list(state.discard), "draw": 0, "specials": 9, "ammo_deck": 9}
    )
    piles = ENGINE.view(state, 1)["draw_pile"], ENGINE.view(state, 1)["discard_pile"]
    events = ENGINE.decide(
        state, 0, {"type": "recruit", "card": "S13", "slot": 1}, random.Random(5)
    )
    assert RULES_VERSION == "4"
    assert [(e.type, e.seat) for e in unbatch(events)] == [
        ("UnitRecruited", 0),
        ("DrawPileReshuffled", 0),
        ("SlotOpened", 0),
    ]
    assert [(e.type, e.seat) for e in events] == [("RecruitmentMoves", 0)]
    for viewer in (None, 1, 2):
        assert _shape(events, viewer) == [("RecruitmentMoveMade", 0, ["hidden"])]
    own = ENGINE.redact(events[0], 0)["events"]
    assert own[1] == {
        "type": "DrawPileReshuffled",
        "seat": 0,
        "data": {"count": len(state.discard)},
    }
    after = state
    for event in events:
        after = ENGINE.evolve(after, event)
    assert not after.discard and len(after.draw) == pile - 1
    assert (ENGINE.view(after, 1)["draw_pile"], ENGINE.view(after, 1)["discard_pile"]) == piles
