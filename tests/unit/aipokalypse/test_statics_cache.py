"""The static-modifier lookup (``effects.modifiers.statics``) answers from a cache keyed by
the cards in play: the same answer object while the units and factions stay, a fresh answer
as soon as a unit moves, changes or leaves, or a faction changes (issue 23: the expert's
rollouts ask it millions of times)."""

from __future__ import annotations

from domain.games.aipokalypse.effects import modifiers

from .helpers import one, put, table


def test_same_cards_answer_the_same_object_and_a_change_answers_afresh() -> None:
    state = table(n=1)
    p = state.players[0]
    scream = one("The Scream")
    slot = put(state, 0, scream)
    first = modifiers.statics(p, "never_fights")
    assert first == ((slot, {"op": "never_fights"}),)
    assert modifiers.statics(p, "never_fights") is first  # cached: no walk over the cards
    assert modifiers.never_fights(p, slot)
    p.slots[slot].unit = None  # the unit leaves: the cache must not answer the old board
    assert modifiers.statics(p, "never_fights") == ()
    assert not modifiers.never_fights(p, slot)
    other = put(state, 0, one("Dreadator"))
    p.slots[slot].unit = scream  # back, with a second unit to its right
    assert modifiers.statics(p, "never_fights") == ((slot, {"op": "never_fights"}),)
    assert modifiers.ammo_bonus(p, 0) == 1 == modifiers.ammo_bonus(p, other)


def test_a_faction_is_part_of_the_key() -> None:
    state = table(n=1)
    p = state.players[0]
    assert modifiers.statics(p, "ammo") == ()
    faction = next(
        fid for fid in modifiers.catalogue().faction if modifiers.catalogue()[fid].has("ammo")
    )
    p.faction = faction
    assert modifiers.statics(p, "ammo") != ()
