"""Timeout answers (shared RULINGS "General": "A seat whose turn timer runs out takes the
answer that uses nothing and changes least: pass, keep, decline every optional ("may",
"can") effect, spend no card ... Where the book prescribes a timing ("typically … at the
beginning of the turn"), the timeout follows it."), one test per decision of the game."""

from __future__ import annotations

import random

from domain.games.dead_apocalypse import ENGINE as E

from .support import act, table

DECK = {0: [f"survivor#s0.{k}" for k in range(1, 8)]}


def timeout(state, seat):
    """What the service sends for a timed-out ``seat`` (``service.usecases.turns.run_turn_timeout``)."""
    return E.bots[E.timeout_bot].choose(state, seat, random.Random(0))


def _scout(amount, seat=0, ally=False):
    return {
        "seat": seat,
        "source": "scout#2",
        "title": "Scout",
        "kind": "human",
        "faction": "Civilian",
        "amount": amount,
        "ally": ally,
    }


def test_turn_resolves_zombie_repeats_first_then_location_repeats_then_passes():
    """Repeat: "Typically Zombie Repeat abilities should be resolved at the beginning of the
    turn" — first, left to right; the Location's Repeat is owed ("each turn that card
    resolves its ability"); then end_turn: no card played ("You are not required to play
    every card in your hand"), no Human placed ("may instead decide to place"), no Call for
    Help ("you may Call for Help": 1 + 3 + 1 cannot reach the Brute's 7), the 1 damage
    unspent (the Shambler, HP 1, stays)."""
    state = table(
        seats=2,
        attackers=[3],
        zombie_row=["shambler#1", "spitter#1", "screamer#1", "brute#1", None],
        hands={0: ["soldier#2", "survivor#s0.1"], 1: []},
        decks=DECK,
    )
    state.seats[0].locations = [{"card": "police-station#1", "occupants": []}]
    state.damage = [_scout(1)]
    legal = E.legal_actions(state, 0)
    assert {"type": "call_for_help"} in legal and {"type": "defeat", "column": 0} in legal
    assert {"type": "occupy", "card": "soldier#2", "location": "police-station#1"} in legal
    assert timeout(state, 0) == {"type": "use_repeat", "card": "spitter#1"}
    _, state = act(state, 0, timeout(state, 0))
    assert timeout(state, 0) == {"type": "use_repeat", "card": "screamer#1"}
    _, state = act(state, 0, timeout(state, 0))
    assert timeout(state, 0) == {"type": "use_repeat", "card": "police-station#1"}
    _, state = act(state, 0, timeout(state, 0))
    assert timeout(state, 0) == {"type": "end_turn"}


def test_ditch_prompts_are_skipped():
    """Watchtower "Repeat: You may Ditch a card from your hand", Scavenger "You may Ditch a
    card from your hand", Priest "You may Ditch up to 2 cards from your discard pile"."""
    state = table(hands={0: ["infection#1", "shotgun#2"]}, decks=DECK)
    state.seats[0].locations = [{"card": "watchtower#1", "occupants": []}]
    _, state = act(state, 0, {"type": "use_repeat", "card": "watchtower#1"})
    assert state.prompt["kind"] == "ditch" and timeout(state, 0) == {"type": "skip"}
    state = table(hands={0: ["scavenger#1", "infection#1"]}, decks=DECK)
    _, state = act(state, 0, {"type": "play", "card": "scavenger#1"})
    assert state.prompt["kind"] == "ditch" and timeout(state, 0) == {"type": "skip"}
    state = table(hands={0: ["priest#1"]}, discards={0: ["infection#1", "survivor#s0.1"]})
    _, state = act(state, 0, {"type": "play", "card": "priest#1"})
    assert state.prompt["from"] == "discard" and timeout(state, 0) == {"type": "skip"}


def test_recruiters_placement_is_skipped():
    """Recruiter: "You may place a Human from your hand beneath one of your Locations"."""
    state = table(hands={0: ["recruiter#1", "soldier#2"]})
    state.seats[0].locations = [{"card": "base-camp#s0.1", "occupants": []}]
    _, state = act(state, 0, {"type": "play", "card": "recruiter#1"})
    assert state.prompt["kind"] == "occupy" and timeout(state, 0) == {"type": "skip"}


def test_a_call_for_help_is_declined_and_an_assist_ends_without_a_card():
    """ "the opposing player (ally) may then choose to assist": a timed-out ally declines,
    even with a Shotgun that would defeat the Sprinter; one that assisted plays no more."""
    state = table(
        seats=2,
        attackers=[3],
        hands={0: [], 1: ["shotgun#2"]},
        help={"called": True, "queue": [1], "assisting": None, "assisted": []},
    )
    assert E.bots["cooperative"].choose(state, 1, random.Random(0)) == {"type": "assist"}
    assert timeout(state, 1) == {"type": "decline"}
    _, state = act(state, 1, {"type": "assist"})
    assert timeout(state, 1) == {"type": "end_assist"}


def test_a_reward_takes_the_adept_survivor_leaving_the_row_card_to_the_active_player():
    """ "the opposing player (ally) has the choice to take the adjacent card ... or to take
    an Adept Survivor instead. The active player then takes the Resource Row card (if not
    chosen)": the Adept Survivor; the Resource Row card only when no Adept is left."""
    state = table(
        seats=2,
        attackers=[3],
        hands={0: [], 1: []},
        help={"called": True, "queue": [], "assisting": None, "assisted": [1]},
    )
    state.damage = [_scout(3, seat=1, ally=True)]
    _, state = act(state, 0, {"type": "defeat", "column": 3})
    assert state.prompt["kind"] == "reward" and timeout(state, 1) == {
        "type": "claim",
        "choice": "adept",
    }
    state.adept_stack = []
    assert timeout(state, 1) == {"type": "claim", "choice": "resource"}


def test_a_resigned_seat_is_played_for_the_team():
    """Ruling R-RESIGN: a resigned seat's turns are played by the cooperative policy (the
    service reaches it through the timeout bot)."""
    state = table(seats=2, hands={0: ["shotgun#2"], 1: []}, resigned=[0])
    assert timeout(state, 0) == {"type": "play", "card": "shotgun#2"}
    state.resigned = []
    assert timeout(state, 0) == {"type": "end_turn"}
