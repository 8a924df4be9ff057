"""Builders for tests against the A.I.Toma (solo / co-op): hand-made tables, no randomness."""

from __future__ import annotations

import random

from domain.engine import Event
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.context import Ctx
from domain.games.aipokalypse.state import Fight, MatchState, Player
from tests.unit.aipokalypse.helpers import CAT, filler, take


def basic(color: str, value: int, k: int = 1, skip: int = 0) -> list[str]:
    """``k`` basic unit ids of ``color`` and card ``value`` (Humans/Mechs/Mutants/Rogues/A.I.Lien)."""
    found = [c for c in CAT.basic if CAT[c].color == color and CAT[c].value == value]
    if len(found) < k + skip:
        raise KeyError(f"only {len(found)} {color} {value}")
    return found[skip : skip + k]


def special_with(symbols: tuple[str, ...], color: str | None = None, skip: int = 0) -> str:
    """A Special Unit whose action symbols are exactly ``symbols`` (and of ``color``)."""
    found = [
        c
        for c in CAT.special
        if CAT[c].action_symbols == tuple(symbols) and (color is None or CAT[c].color == color)
    ]
    return found[skip]


def toma_table(
    n: int = 1,
    mode: str = "solo",
    piles: list[list[str]] | None = None,
    toma_health: list[str] | None = None,
    phase: str = "battle",
    round_: int = 2,
    draw: list[str] | None = None,
) -> MatchState:
    """A state with ``n`` human seats (empty boards, 6 distinct health points each) and the
    A.I.Toma (``players[n]``) with the given ``piles`` and health stack (``toma_health`` on
    top, filled up to 6 with other Special Units). Draw pile: ``draw`` or 30 fillers."""
    specials = list(CAT.special)
    toma_health = list(toma_health or [])
    rest = [c for c in specials if c not in toma_health]
    health = [rest[6 * i : 6 * i + 6] for i in range(n)]
    if len(toma_health) < 6:
        spare = [c for c in rest[6 * n :] if c not in toma_health]
        toma_health += spare[: 6 - len(toma_health)]
    deck = [c for c in rest[6 * n :] if c not in toma_health]
    piles = [list(p) for p in (piles or [])]
    used = {c for p in piles for c in p}
    if draw is None:
        draw = [c for c in filler(40) if c not in used][:30]
    ammo = list(CAT.faction[:20])
    state = ENGINE.evolve(
        None,
        Event(
            "MatchStarted",
            {
                "n": n,
                "mode": mode,
                "offered": [[] for _ in range(n)],
                "health": health,
                "hands": [[] for _ in range(n)],
                "draw": list(draw),
                "specials": deck,
                "ammo_deck": ammo,
                "toma": {
                    "difficulty": "boss",
                    "health": toma_health,
                    "piles": piles,
                    "ignored": [],
                },
            },
        ),
    )
    state.phase, state.round, state.factions_revealed = phase, round_, True
    return state


def toma(state: MatchState) -> Player:
    """The A.I.Toma's player entry."""
    return state.players[state.toma.seat]


def flow_ctx(state: MatchState, seed: int = 0) -> Ctx:
    """A decision context on ``state`` (events fold into ``ctx.state``)."""
    return Ctx(state, random.Random(seed))


def current(
    state: MatchState, seat: int, card: str, slot: int | None, fights: bool, ammo: int = 0
) -> None:
    """Give ``seat`` a revealed battle card (as ``BattleCardRevealed`` would)."""
    take(state, card)
    state.players[seat].current = Fight(card=card, slot=slot, fights=fights, placed=True, ammo=ammo)
