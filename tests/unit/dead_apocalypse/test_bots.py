"""Bots choose legal commands from their own view; ``cooperative`` answers sensibly."""
from __future__ import annotations

import random

from domain.games.dead_apocalypse import ENGINE as E

from .support import act, table


def coop(state, seat):
    return E.bots["cooperative"].choose(state, seat, random.Random(0))


def test_bot_levels_and_the_timeout_policy():
    """Timeouts take the answer that uses nothing (shared RULINGS, test_timeout_answers)."""
    assert set(E.bots) == {"random", "cooperative", "idle"} and E.timeout_bot == "idle"


def _scout(amount, seat=0, ally=False):
    return {"seat": seat, "source": "scout#2", "title": "Scout", "kind": "human", "faction": "Civilian",
            "amount": amount, "ally": ally}


def test_cooperative_takes_the_win_before_calling_for_help():
    """Issue 17 item 7: the Shambler (HP 1) in the CDC's column is not attacking, the Brute
    (HP 7) attacks and 3 damage cannot defeat it, so a Call for Help is legal; after an
    assist only attacking Zombies may be defeated — the bot defeats the Shambler (the win)."""
    state = table(seats=2, attackers=[0], hands={0: [], 1: ["shotgun#2"]},
                  zombie_row=["brute#1", None, "shambler#1", None, None],
                  resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"])
    state.damage = [_scout(3)]
    assert {"type": "call_for_help"} in E.legal_actions(state, 0)
    assert coop(state, 0) == {"type": "defeat", "column": 2}
    events, state = act(state, 0, coop(state, 0))
    assert E.result(state)["outcome"] == "won"


def test_cooperative_takes_the_win_before_a_plague_carrier_ends_the_game():
    """The Plague Carrier's Repeat would Ditch the last Resource Stack cards (the loss); the
    win in hand (4 damage, Rotting Walker HP 3 in the CDC's column) comes first."""
    state = table(zombie_row=["plague-carrier#1", None, "rotting-walker#1", None, None],
                  resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"],
                  resource_stack=["scout#1", "scout#2"], hands={0: []})
    state.damage = [_scout(4)]
    assert E.legal_actions(state, 0)[0] == {"type": "use_repeat", "card": "plague-carrier#1"}
    assert coop(state, 0) == {"type": "defeat", "column": 2}


def test_cooperative_ally_judges_the_pooled_shortfall_of_all_attackers_together():
    """Four Rotting Walkers (HP 3) attack and the pool holds 7: two defeats. No single
    attacker has a shortfall (3 < 7 each), yet the ally's Shotgun (3) makes 10: a third
    defeat. It assists and plays the Shotgun, keeping the Survivor."""
    state = table(seats=2, attackers=[0, 1, 3, 4], hands={0: [], 1: ["shotgun#2", "survivor#s1.1"]},
                  zombie_row=["rotting-walker#1", "rotting-walker#2", None, "rotting-walker#3",
                              "rotting-walker#4"],
                  help={"called": True, "queue": [1], "assisting": None, "assisted": []})
    state.damage = [_scout(7)]
    assert coop(state, 1) == {"type": "assist"}
    _, state = act(state, 1, {"type": "assist"})
    assert coop(state, 1) == {"type": "play", "card": "shotgun#2"}
    _, state = act(state, 1, {"type": "play", "card": "shotgun#2"})
    assert coop(state, 1) == {"type": "end_assist"}
    _, state = act(state, 1, {"type": "end_assist"})
    for _ in range(8):                            # the defeats and the ally's reward claims
        seat = next(iter(E.pending(state)))
        command = coop(state, seat)
        if command["type"] == "end_turn":
            break
        _, state = act(state, seat, command)
    assert state.defeated == 3 and state.seats[1].hand == ["survivor#s1.1"]


def test_cooperative_ally_declines_when_its_hand_adds_no_defeat():
    """Same table, the ally holds a Survivor (1): 8 damage still defeats two; it declines."""
    state = table(seats=2, attackers=[0, 1, 3, 4], hands={0: [], 1: ["survivor#s1.1"]},
                  zombie_row=["rotting-walker#1", "rotting-walker#2", None, "rotting-walker#3",
                              "rotting-walker#4"],
                  help={"called": True, "queue": [1], "assisting": None, "assisted": []})
    state.damage = [_scout(7)]
    assert coop(state, 1) == {"type": "decline"}


def test_cooperative_resolves_a_zombie_repeat_last_and_defeats_the_zombie_first():
    """R-ZOMBIE-REPEAT: the Screamer (HP 4) is defeated with the Assault Rifle (4) before its
    Repeat, so it discards nothing; the Spitter's Repeat waits until the end of the turn."""
    state = table(zombie_row=["spitter#1", "screamer#1", None, None, None], hands={0: ["assault-rifle#1"]})
    assert coop(state, 0) == {"type": "play", "card": "assault-rifle#1"}
    _, state = act(state, 0, coop(state, 0))
    assert coop(state, 0) == {"type": "defeat", "column": 1}
    _, state = act(state, 0, coop(state, 0))
    assert coop(state, 0) == {"type": "use_repeat", "card": "spitter#1"}


def test_cooperative_plays_its_cards_before_defeating_and_takes_the_best_zombie():
    state = table(hands={0: ["shotgun#2", "survivor#s0.1"]},
                  zombie_row=["shambler#1", None, "pack-hunter#1", None, None],
                  resource_row=["radio#1", "soldier#1", "assault-rifle#1", "nurse#1", "machete#1"])
    assert coop(state, 0) == {"type": "play", "card": "shotgun#2"}
    _, state = act(state, 0, {"type": "play", "card": "shotgun#2"})
    _, state = act(state, 0, coop(state, 0))
    assert coop(state, 0) == {"type": "defeat", "column": 0}         # 4 damage: only the Shambler


def test_cooperative_goes_for_the_cdc_column_first():
    state = table(resource_row=["shotgun#1", "soldier#1", "cdc#1", "nurse#1", "machete#1"],
                  zombie_row=["shambler#1", None, "shambler#2", None, None])
    state.damage = [{"seat": 0, "source": "scout#2", "title": "Scout", "kind": "human", "faction": "Civilian",
                     "amount": 1, "ally": False}]                # one Shambler (HP 1) only
    assert coop(state, 0) == {"type": "defeat", "column": 2}


def test_cooperative_calls_for_help_only_when_its_cards_cannot_cover_the_attack():
    """Call for Help: "If the cards in your hand and/or in play will not gain enough damage
    for you to defeat any or all of the attacking Zombies, you may Call for Help"."""
    state = table(seats=2, attackers=[3], hands={0: [], 1: ["shotgun#2", "soldier#2", "survivor#s1.1"]})
    assert coop(state, 0) == {"type": "call_for_help"}              # 0 damage < Sprinter's 3
    state.damage = [{"seat": 0, "source": "scout#2", "title": "Scout", "kind": "human", "faction": "Civilian",
                     "amount": 6, "ally": False}]
    assert {"type": "call_for_help"} not in E.legal_actions(state, 0)
    assert coop(state, 0) == {"type": "defeat", "column": 3}
    alone = table(seats=2, attackers=[], hands={0: []})
    alone.damage = [dict(state.damage[0], amount=6)]
    assert {"type": "call_for_help"} not in E.legal_actions(alone, 0)  # not attacked: no help
    assert coop(alone, 0)["type"] == "defeat"


def test_cooperative_ally_joins_a_covered_attack_with_one_spare_card():
    # Seat 1 already assisted and the pool (6) covers the Sprinter (HP 3): seat 2 joins with
    # its weakest card, keeping 6 for the Zombies waiting in the row.
    state = table(seats=3, attackers=[3], hands={0: [], 1: [], 2: ["shotgun#2", "soldier#2", "survivor#s2.1"]},
                  help={"called": True, "queue": [2], "assisting": None, "assisted": [1]})
    state.damage = [{"seat": 1, "source": "scout#2", "title": "Scout", "kind": "human", "faction": "Civilian",
                     "amount": 6, "ally": True}]
    assert coop(state, 2) == {"type": "assist"}
    _, state = act(state, 2, {"type": "assist"})
    spare = coop(state, 2)
    assert spare == {"type": "play", "card": "survivor#s2.1"}
    _, state = act(state, 2, spare)
    assert coop(state, 2) == {"type": "end_assist"}
    _, state = act(state, 2, {"type": "end_assist"})
    assert coop(state, 0)["type"] == "defeat" and coop(state, 0)["column"] == 3


def test_cooperative_ally_assists_with_damage_then_stops_and_takes_an_adept():
    state = table(seats=2, attackers=[0], hands={0: [], 1: ["shotgun#2", "soldier#2", "survivor#s1.1"]},
                  zombie_row=["screamer#1", "brute#1", None, None, None])
    _, state = act(state, 0, {"type": "call_for_help"})
    assert coop(state, 1) == {"type": "assist"}
    _, state = act(state, 1, {"type": "assist"})
    # Screamer HP 4: the fewest cards with the least surplus are a 3 and the Survivor (1).
    assert coop(state, 1) == {"type": "play", "card": "shotgun#2"}
    _, state = act(state, 1, {"type": "play", "card": "shotgun#2"})
    assert coop(state, 1) == {"type": "play", "card": "survivor#s1.1"}
    _, state = act(state, 1, {"type": "play", "card": "survivor#s1.1"})
    assert coop(state, 1) == {"type": "end_assist"}                  # covered: keep the Soldier
    assert state.seats[1].hand == ["soldier#2"]
    _, state = act(state, 1, {"type": "end_assist"})
    assert coop(state, 0) == {"type": "defeat", "column": 0}
    _, state = act(state, 0, {"type": "defeat", "column": 0})
    assert coop(state, 1) == {"type": "claim", "choice": "adept"}


def test_cooperative_ally_declines_without_damage_cards():
    state = table(seats=2, attackers=[0], hands={0: [], 1: ["infection#1", "base-camp#s1.1"]})
    _, state = act(state, 0, {"type": "call_for_help"})
    assert coop(state, 1) == {"type": "decline"}


def test_cooperative_occupies_when_the_kill_plan_does_not_need_the_human():
    state = table(hands={0: ["soldier#2"]}, zombie_row=["brute#1", None, None, None, None])
    state.seats[0].locations = [{"card": "base-camp#s0.1", "occupants": []}]
    assert coop(state, 0) == {"type": "occupy", "card": "soldier#2", "location": "base-camp#s0.1"}
    state.zombie_row = ["plague-carrier#1", None, None, None, None]   # HP 4 = 1 + 2 + 1 (+1)
    state.damage = [{"seat": 0, "source": "scout#2", "title": "Scout", "kind": "human", "faction": "Civilian",
                     "amount": 1, "ally": False}]
    state.seats[0].hand = ["police-officer#2", "survivor#s0.1", "survivor#s0.2"]
    assert coop(state, 0)["type"] == "play"                          # without the Officer: 3 < 4


def test_cooperative_ditches_survivors_only_from_a_healthy_deck():
    thin = table(hands={0: ["crowbar#1", "survivor#s0.1"]}, decks={0: ["survivor#s0.2"]})
    _, thin = act(thin, 0, {"type": "play", "card": "crowbar#1"})
    assert coop(thin, 0) == {"type": "skip"}
    strong = ["shotgun#2", "shotgun#3", "soldier#2", "soldier#3", "assault-rifle#1"]
    fat = table(hands={0: ["crowbar#1", "survivor#s0.1"]}, decks={0: [f"survivor#s0.{k}" for k in range(2, 8)]},
                discards={0: strong})
    _, fat = act(fat, 0, {"type": "play", "card": "crowbar#1"})
    assert coop(fat, 0) == {"type": "choose", "card": "survivor#s0.1"}


def test_cooperative_ally_keeps_its_hand_when_joining_would_cost_its_own_kill():
    # The Shambler (HP 1) attacking in column 0 is covered by the active seat's 6 damage.
    # Giving up the Survivor would leave the ally 3 damage: less than the cheapest Zombie
    # waiting in the row (the Screamer, HP 4), so it declines.
    state = table(seats=2, attackers=[0], hands={0: [], 1: ["shotgun#2", "survivor#s1.1"]},
                  zombie_row=["shambler#1", "screamer#1", None, None, None])
    state.damage = [{"seat": 0, "source": "scout#2", "title": "Scout", "kind": "human", "faction": "Civilian",
                     "amount": 6, "ally": False}]
    state.help = {"called": True, "queue": [1], "assisting": None, "assisted": []}
    assert coop(state, 1) == {"type": "decline"}
    state.seats[1].hand.append("soldier#2")                        # the rest (6) beats HP 4
    assert coop(state, 1) == {"type": "assist"}
