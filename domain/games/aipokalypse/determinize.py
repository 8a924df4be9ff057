"""Determinization for the ``expert`` bot: one sample world a seat cannot tell apart from the
real one, built from what that seat sees (issue 23).

:func:`sample_world` answers a *dumped* state (``engine.dump_state`` form, JSON-shaped) in
which everything ``view(state, seat)`` does not show is dealt again at random, consistently
with that view; ``engine.load_state`` turns it into a playable state. It reads the live
state only through the engine API (``view``, ``dump_state``); the dumped form is the
persistence contract (``state.py`` module doc), so this module does not depend on how the
live state is held.

What the seat cannot see (``views.py`` module doc, RULINGS R-PRIVACY, R-HEALTH-PRIVATE):

- the order and content of the draw pile, the Special Units deck and the ammo deck;
- every health stack (its own too: "face down, even for the owner"), every battle card
  stack, face-down battle cards (over units and beside the slots), the faction faces of
  ammo (its own too: "ammo lies ammo side up") and of ammo lying on units;
- the other seats' hands, face-down slot cards, Megaton and Kollektah cards, Erit Lux /
  Sic Mundus stashes, offered factions, open offers and secret XxX guesses;
- during the private Recruitment Phase the other seats' boards, hands, pools and the
  shared piles as they are *now*: the view shows them as the phase began (``public``,
  ``table_public``).

How a world is dealt:

1. **The cards in play.** Every card id of the dumped state (its piles, hands, stacks,
   slots, pools, ammo, attached and battle cards), skipping the copies that only record
   what was shown (``public``, ``table_public``, ``colony_seen``, ``choice``): the same
   multiset whatever the hidden arrangement is.
2. **The known cards.** Every card the seat's view shows (plus, during Recruitment, the
   boards and piles of the others as the phase began). The unseen cards are the cards in
   play minus the known ones, by kind (basic units ``B``, Special Units ``S``, factions
   ``F``), sorted and shuffled by ``rng``: the deal does not depend on where they really lie.
3. **The skeleton from the view.** Other seats get the view's board (face-down slot cards
   and battle cards dealt from the unseen basic units), hands of the view's count dealt
   from the unseen basic units, health stacks of the view's counts from the unseen Special
   Units, ammo from the unseen factions. During Recruitment another seat's board, hand and
   pool are those it had when the phase began (its hand drawn up to 6 cards, "At the
   beginning of the Recruitment Phase, all players draw cards ... until each player has 6
   cards in hand") and it is not ready: its Recruitment is played again by the rollout
   policy. The seat's own hand, board, pool and open effect decision are its own (the held
   command is its own command and re-runs with its recorded seed, which holds no card: the
   piles it draws from are dealt again; an option card the seat sees nowhere else was
   drawn by that command and goes on top of the draw pile). The remaining unseen cards form
   the draw pile (basic units), the Special Units deck and the ammo deck.

The A.I.Toma (solo / co-op) lies face up; only its health stack, battle stack, ammo faces
and face-down battle cards are dealt again.

Determinism: the answer depends only on ``view(state, seat)``, the seat's own dumped
player entry, the public parts of the dump and ``rng``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .spec import HAND_SIZE

#: keys of the dump that copy what was shown (never a card's place)
_RECORD_KEYS = frozenset({"public", "table_public", "colony_seen", "choice"})
_KINDS = ("B", "S", "F")


#: a card id (``cards.py``): kind letter, number, ``-2`` for the second copy (5-8 Player Variant)
_CARD_ID = re.compile(r"[BSF]\d{2,3}(?:-2)?")


def _is_card(value: Any) -> bool:
    return isinstance(value, str) and _CARD_ID.fullmatch(value) is not None


def cards_in(value: Any, skip: frozenset[str] = _RECORD_KEYS) -> Counter:
    """Multiset of the card ids in a JSON-shaped ``value`` (keys in ``skip`` not entered)."""
    out: Counter = Counter()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in skip)
        elif isinstance(item, list):
            stack.extend(item)
        elif _is_card(item):
            out[item] += 1
    return out


class _Deal:
    """The unseen cards by kind, shuffled; :meth:`take` deals from them."""

    def __init__(self, unseen: Counter, rng: random.Random):
        self.piles: dict[str, list[str]] = {k: [] for k in _KINDS}
        for cid in sorted(unseen.elements()):
            self.piles[cid[0]].append(cid)
        for kind in _KINDS:
            rng.shuffle(self.piles[kind])

    def take(self, kind: str, count: int) -> list[str]:
        """Up to ``count`` cards of ``kind`` (fewer when that kind ran out)."""
        pile = self.piles[kind]
        out, self.piles[kind] = pile[:count], pile[count:]
        return out

    def one(self, kind: str) -> str | None:
        got = self.take(kind, 1)
        return got[0] if got else None


def _slot_from_view(v: Mapping[str, Any], deal: _Deal, live: bool) -> dict[str, Any]:
    """A slot of another seat rebuilt from its view: the face-down slot card, face-down
    battle cards and ammo faces dealt (dump shape of ``state.new_slot``)."""
    card = v["card"] if v.get("red") else deal.one("B")
    battle = [[c if up else deal.one("B"), up] for c, up in (v.get("battle") or [])] if live else []
    return {
        "card": card,
        "red": bool(v.get("red")),
        "unit": v.get("unit"),
        "pos": v.get("pos", 0),
        "attached": list(v.get("attached") or []),
        "temp": v.get("temp", 0),
        "battle": battle,
        "exhausted": bool(v.get("exhausted")) if live else False,
        "ammo_temp": v.get("ammo_temp", 0),
        "ammo_cards": deal.take("F", v.get("ammo_on", 0)),
    }


def _public_board(p: Mapping[str, Any], hand: int, health: int, ammo: int) -> dict[str, Any]:
    """The ``public`` snapshot of a rebuilt seat (dump shape of ``state.public_board``)."""
    keys = ("card", "red", "unit", "pos", "attached", "temp", "ammo_temp")
    return {
        "faction": p["faction"],
        "extra_factions": list(p["extra_factions"]),
        "slots": [dict({k: s[k] for k in keys}, ammo_on=len(s["ammo_cards"])) for s in p["slots"]],
        "ammo": ammo,
        "hand": hand,
        "health": health,
        "pool": list(p["pool"]),
        "colony": p.get("colony"),
        "megaton": len(p.get("megaton", [])),
    }


def _face_down(pairs: Iterable[list], deal: _Deal) -> list[list]:
    return [[c if up else deal.one("B"), up] for c, up in pairs]


def _known(view: Mapping[str, Any]) -> Counter:
    """The cards the view shows in a place of their own (not the strengths or choice)."""
    known = cards_in(
        {
            "discard": view["discard_pile"],
            "seats": view["seats"],
            "toma": view.get("toma"),
            "table_factions": view.get("table_factions"),
        },
        skip=frozenset(),
    )
    return known


def sample_world(
    dump: Mapping[str, Any], view: Mapping[str, Any], seat: int, rng: random.Random
) -> dict[str, Any]:
    """A dumped state consistent with ``view`` (``view(state, seat)``) with every hidden
    part dealt again by ``rng`` (module doc). ``dump`` is ``engine.dump_state(state)`` of
    the real state; it is not modified. Raises KeyError/IndexError only for a dump that is
    not an A.I.Pokalypse state."""
    recruiting = dump["phase"] == "recruitment"
    in_play = cards_in(dump)
    known = _known(view)  # the seat's own hand, slot cards, offer ... are in its view
    unseen = in_play - known
    deal = _Deal(unseen, rng)
    world = {k: v for k, v in dump.items() if k != "players"}
    choice = dump.get("choice")
    top: list[str] = []
    if choice:
        # the held command is the seat's own and re-runs with its seed; an option card the
        # seat sees nowhere else was drawn by that command: it lies on top of the draw pile
        world["choice"] = dict(choice) if choice["seat"] == seat else None
        if choice["seat"] == seat:
            for option in choice.get("options", []):
                if _is_card(option) and option in deal.piles.get(option[0], []):
                    deal.piles[option[0]].remove(option)
                    top.append(option)
    # a card of the discard pile as the phase began that the seat holds now (a reshuffle
    # this phase) is the seat's: its own live entry wins
    mine = cards_in(dump["players"][seat])
    world["discard"] = [c for c in view["discard_pile"] if not mine[c]]
    players: list[dict[str, Any]] = []
    seats_view = {s["seat"]: s for s in view["seats"]}
    for index, p in enumerate(dump["players"]):
        if index == seat:
            players.append(_own(p, deal))
        elif p.get("toma"):
            players.append(_toma(p, deal))
        else:
            players.append(
                _other(p, seats_view[index], deal, recruiting, dump["round"], set(world["discard"]))
            )
    world["players"] = players
    world["draw"] = top + deal.take("B", len(deal.piles["B"]))
    world["specials"] = deal.take("S", len(deal.piles["S"]))
    world["ammo_deck"] = deal.take("F", len(deal.piles["F"]))
    return world


def _own(p: Mapping[str, Any], deal: _Deal) -> dict[str, Any]:
    """The seat's own entry: its health stack, battle stack, ammo faces and face-down battle
    cards dealt again (hidden from the owner too), everything else kept."""
    out = dict(p)
    out["health"] = deal.take("S", len(p["health"]))
    out["stack"] = deal.take("B", len(p["stack"]))
    out["ammo"] = deal.take("F", len(p["ammo"]))
    out["beside"] = _face_down(p["beside"], deal)
    out["slots"] = [
        dict(
            s,
            battle=_face_down(s.get("battle", []), deal),
            ammo_cards=deal.take("F", len(s.get("ammo_cards") or [])),
        )
        for s in p["slots"]
    ]
    return out


def _toma(p: Mapping[str, Any], deal: _Deal) -> dict[str, Any]:
    """The A.I.Toma's entry: face up but for its health stack, battle stack, ammo faces and
    face-down battle cards."""
    out = dict(p)
    out["health"] = [deal.one(c[0]) or c for c in p.get("health", [])]
    out["stack"] = [deal.one(c[0]) or c for c in p.get("stack", [])]
    out["ammo"] = deal.take("F", len(p.get("ammo", [])))
    out["beside"] = _face_down(p.get("beside", []), deal)
    out["slots"] = [
        dict(s, battle=_face_down(s.get("battle", []), deal)) for s in p.get("slots", [])
    ]
    return out


def _other(
    p: Mapping[str, Any],
    v: Mapping[str, Any],
    deal: _Deal,
    recruiting: bool,
    round_: int,
    discarded: set[str],
) -> dict[str, Any]:
    """Another seat rebuilt from its view (module doc). A unit its board showed when the
    phase began that the discard pile shows too left its slot before (the board is the last
    reveal's): the slot is empty."""
    out = dict(p)
    hand = v["hand_count"]
    if recruiting and round_ > 1:
        hand = max(hand, HAND_SIZE)  # it drew up to 6 when the phase began
    out.update(
        faction=v["faction"],
        extra_factions=list(v["extra_factions"]),
        pool=list(v["pool"]),
        eliminated=v["eliminated"],
        score=v["score"],
        offered=[],
        offer=[],
        offer_ctx=None,
        stash=[],
        guess=None,
        packet=[],
        drafted=[],
        used=[],
        triples=0,
        colony=v.get("colony"),
        current=v.get("current"),
        beside=_face_down(v.get("beside", []), deal),
    )
    out["slots"] = [_slot_from_view(s, deal, not recruiting) for s in v["slots"]]
    for slot in out["slots"]:
        if slot["unit"] in discarded:
            slot.update(unit=None, pos=0, attached=[], temp=0)
    out["hand"] = deal.take("B", hand)
    out["health"] = deal.take("S", v["health_count"])
    out["ammo"] = deal.take("F", v["ammo"])
    out["stack"] = deal.take("B", v["battle_stack"])
    out["megaton"] = deal.take("B", v.get("megaton_count", 0))
    out["tucked"] = {k: deal.take("B", n) for k, n in sorted((v.get("tucked_count") or {}).items())}
    out["ready"] = False if recruiting else v["ready"]  # its Recruitment is played again
    if recruiting and "moved" in out:
        out["moved"] = False
    # the last reveal as this seat saw it (Prof. Boom aims by it), face-down cards dealt
    out["public"] = _public_board(out, v["hand_count"], v["health_count"], v["ammo"])
    return out
