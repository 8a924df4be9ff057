"""One standard situation per trigger ("probe") to show that a card's effect changes the game.

``outcome(card_id, probe)`` sets up the probe's table with ``card_id`` in play (or in hand /
as faction), performs the probe's action and returns a signature of everything observable
except the card's own identity. Tests compare it with the same probe run with a control card
whose effects cannot act in that probe.
"""

from __future__ import annotations

import json
import random

from domain.games.aipokalypse import ENGINE, flow
from domain.games.aipokalypse.actions import legal_actions, pending
from domain.games.aipokalypse.effects.resolve import gain_ammo, origin_of, run
from tests.unit.aipokalypse.helpers import (
    CAT,
    act,
    empty_slot,
    give_ammo,
    hand,
    ids,
    one,
    put,
    run_flow,
    table,
    take,
)

BATTLE_CONTROL = {
    "blue": "Recruit",
    "red": "Goldfish",
    "yellow": "Brute",
    "purple": "Drifter",
    "green": "A.I.Lien Alpha",
}
WITH_TEMP = {c.id for c in CAT.cards.values() if c.name == "Were.Wolf"}
_STATIC_PROBE = {
    "ammo_bonus": "spend",
    "ammo_temp": "spend",
    "double_strength": "spend",
    "red_double": "spend",
    "special_choice": "legal",
    "pair_triple": "legal",
    "wild_triple": "legal",
    "ammo_triple": "legal",
    "idle_first_round": "legal",
    "max_ammo": "ammo",
    "ammo_per_damage": "ammo",
    "stash": "ready",
    "exchange": "legal",
}
_HOOK_PROBE = {
    "discard_effect": "hand_discard",
    "unit_discarded": "hand_discard",
    "ammo_spent": "spend",
}
_TRIGGER_PROBE = {
    "recruit": "recruit",
    "discard": "discard",
    "round_bonus": "round",
    "start": "start",
    "triple": "triple",
}


def _plain(card) -> bool:
    return not any(e["trigger"] in ("passive", "battle", "preparation") for e in card.effects)


def probe_for(cid: str) -> str:
    """The probe that shows ``cid``'s first effect."""
    card = CAT[cid]
    for eff in card.effects:
        if eff["trigger"] in _TRIGGER_PROBE:
            return _TRIGGER_PROBE[eff["trigger"]]
    for eff in card.effects:
        for op in eff["ops"]:
            if op["op"] in _STATIC_PROBE:
                return _STATIC_PROBE[op["op"]]
            if op["op"] == "listen" and op["on"] in _HOOK_PROBE:
                return _HOOK_PROBE[op["on"]]
    return "battle"


def control_for(cid: str, probe: str) -> str:
    """A card of the same category whose effects cannot act in ``probe``."""
    card = CAT[cid]
    if card.category == "faction":
        return one("Sky Harbor") if probe == "battle" or probe != "start" else one("Night Market")
    if probe == "triple":
        return one("Bartender")
    if probe == "battle":
        return ids(BATTLE_CONTROL[card.color], 2)[-1]
    return ids("Sniper", 3)[-1]


def _base(cid: str, probe: str, tie: bool = False) -> tuple[dict, int | None]:
    card = CAT[cid]
    battle_colour = card.color if card.color in ("blue", "red", "yellow") else "blue"
    draw = [
        c.id
        for c in CAT.cards.values()
        if c.category == "basic" and c.color == battle_colour and c.id != cid
    ][:12]
    fill = [
        c.id
        for c in CAT.cards.values()
        if c.category == "basic"
        and c.name in ("Commander", "Sniper")
        and c.id != cid
        and c.id not in draw
    ]
    alien = ids("A.I.Lien Beta", 2)[1]
    state = table(2, round_=1 if probe == "legal" else 2, draw=draw[:2] + [alien] + draw[2:] + fill)
    state.sudden_death = True
    take(state, cid)
    me = state.players[0]
    me.health = me.health[:3]
    if card.category == "faction":
        me.faction = cid
        x_slot = None
    unit_names = ["Commander", "Heavy Tank", "Brute"] if probe != "battle" else None
    if probe == "battle":
        same = [
            c.id
            for c in CAT.cards.values()
            if c.category == "basic"
            and c.color == battle_colour
            and c.id != cid
            and c.id not in draw
            and _plain(c)
        ][:4]
        if card.category != "faction":
            x_slot = put(state, 0, cid, 5)
        for u in same:
            put(state, 0, u, 5)
        opp = [
            c.id
            for c in CAT.cards.values()
            if c.category == "basic"
            and c.color == battle_colour
            and c.id not in draw
            and c.id not in same
            and c.id != cid
            and _plain(c)
        ][:5]
        for k, u in enumerate(opp):
            put(state, 1, u, 5 if tie else (3, 2, 1, 1, 1)[k])
        if cid in WITH_TEMP:
            state.players[0].slots[0].temp = 1
        state.players[1].pool.append(take(state, state.specials[0]))
        state.players[0].pool.append(take(state, state.specials[0]))
        return state, x_slot
    for name in unit_names:
        put(state, 0, ids(name, 3)[-1], {"Commander": 3, "Heavy Tank": 2, "Brute": 4}[name])
    for name in ("Sniper", "Heavy Tank", "Brute"):
        put(state, 1, ids(name, 2)[0], 5)
    hand(
        state,
        0,
        ids("Recruit", 3)[0],
        ids("Veteran", 3)[0],
        ids("Veteran", 3)[1],
        ids("Journalist", 3)[0],
        ids("Journalist", 3)[1],
    )
    hand(state, 1, ids("Drifter", 2)[0], ids("Hacker", 3)[0])
    give_ammo(state, 0, 3 if probe == "legal" else 2)
    give_ammo(state, 1, 1)
    state.discard.append(take(state, ids("Drifter", 2)[1]))
    state.players[0].pool.append(take(state, state.specials[0]))
    state.players[1].pool.append(take(state, state.specials[0]))
    x_slot = None
    if card.category != "faction":
        if probe in ("recruit", "triple"):
            empty_slot(state, 0)
            if probe == "recruit":
                hand(state, 0, cid)
        elif probe == "spend":
            red = next(s for s in state.specials if CAT[s].red_slot.get(3) == "ammo")
            x_slot = put(state, 0, cid, 1, red=red)
        else:
            x_slot = put(state, 0, cid, 4)
    return state, x_slot


def signature(state: dict, events: list, extra=None) -> str:
    """Everything observable except card identities on the board."""
    players = []
    for p in state.players:
        players.append(
            [
                [
                    (
                        s.pos,
                        s.red,
                        bool(s.unit),
                        len(s.attached),
                        s.temp,
                        s.ammo_temp,
                        s.exhausted,
                        len(s.battle),
                    )
                    for s in p.slots
                ],
                len(p.hand),
                len(p.ammo),
                sorted(p.pool),
                len(p.health),
                len(p.stash),
                p.eliminated,
                len(p.extra_factions),
                p.score,
            ]
        )
    points = [
        (e.type, e.data.get("strengths"), e.data.get("winners"), e.data.get("damage"))
        for e in events
        if e.type in ("PointScored", "BattleEnded")
    ]
    return json.dumps(
        [
            players,
            len(state.draw),
            len(state.discard),
            len(state.specials),
            state.sudden_death,
            state.apocalypse,
            state.result,
            points,
            extra,
        ],
        sort_keys=True,
        default=str,
    )


def outcome(cid: str, probe: str, tie: bool = False) -> str:
    """Run ``probe`` with ``cid`` in play; return :func:`signature`."""
    state, x_slot = _base(cid, probe, tie)
    card = CAT[cid]
    if probe == "recruit":
        slot = len(state.players[0].slots) - 1
        cmds = [
            a
            for a in legal_actions(state, 0)
            if a["type"] == "recruit" and a["card"] == cid and a["slot"] == slot
        ]
        state, events = act(state, 0, cmds[0])
    elif probe == "discard":
        cmds = [a for a in legal_actions(state, 0) if a["type"] == "discard" and a["card"] == cid]
        state, events = act(state, 0, cmds[0])
    elif probe == "round":
        state, events = run_flow(state, flow.start_recruitment)
    elif probe == "start":

        def go(ctx):
            run(ctx, 0, card.ops("start"), origin_of(cid))

        state, events = run_flow(state, go)
    elif probe == "triple":
        trio = [c.id for c in CAT.cards.values() if c.name == card.name][:3]
        for c in trio:
            if c not in state.players[0].hand:
                hand(state, 0, c)
        pool_card = state.players[0].pool[0]
        state, events = act(
            state, 0, {"type": "triple", "cards": trio, "source": "pool", "special": pool_card}
        )
    elif probe == "spend":
        slot = x_slot if x_slot is not None else 0
        state, events = act(state, 0, {"type": "spend_ammo", "slot": slot})
    elif probe == "legal":
        return signature(
            state, [], sorted(json.dumps(a, sort_keys=True) for a in legal_actions(state, 0))
        )
    elif probe == "ammo":

        def go(ctx):
            gain_ammo(ctx, 0, 8)
            flow.apply_damage(ctx, {0: 2})

        state, events = run_flow(state, go)
    elif probe == "ready":
        state, events = act(state, 0, {"type": "ready"})
    elif probe == "hand_discard":
        salvage = one("Salvage Bot")
        hand(state, 0, salvage)
        state, events = act(state, 0, {"type": "discard", "card": salvage})
    else:
        state, events = run_flow(state, flow.start_battle)
        guard = 0
        while state.phase == "battle" and pending(state) and guard < 50:
            seat = sorted(pending(state))[0]
            state, more = act(
                state, seat, ENGINE.bots["idle"].choose(state, seat, random.Random(0))
            )
            events += more
            guard += 1
    return signature(state, events)
