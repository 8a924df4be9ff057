"""``pending`` and ``legal_actions``: who must decide now and every command they may send.

``legal_actions`` is the single source of what may be done: ``decide`` accepts exactly
these commands (compared in the canonical form :func:`canonical`), and bots pick from them.
:func:`is_legal` answers "is this command one of them" without building and encoding the
whole list for the large kinds (reserve, draft, discard, placement).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from . import hacking, powers, roles, solo
from .duo import DISCARD
from .spec import RESERVE_KEEP, RESERVE_KEEP_ONGOING
from .state import MatchState
from .tableau import placement_cells

# decision kinds reported by pending()
CHOOSE_AI_SIDE = "choose_ai_side"
KEEP_RESERVE = "keep_reserve"
DRAFT = "draft"
PLACE = "place"
COPY = "copy"
EXCHANGE_RESERVE = "exchange_reserve"
MOVE_CARD = "move_card"
PLACE_EXTRA = "place_extra"
AI6_DISCARD = "ai6_discard"  # AI-6 step 2 (ruling R-AI6-STEPS), within the draft step
# DISCARD = "discard" (2-player mode, imported from .duo)


def keep_count(state: MatchState, seat: int) -> int:
    """Cards kept when creating the reserve (A.1): 2, or 3 at the start of Phase 2 for a
    seat whose tableau holds 117/118; never more than were dealt. RULINGS R-KEEP3."""
    s = state.seats[seat]
    keep = (
        RESERVE_KEEP_ONGOING if state.phase == 2 and roles.keeps_three(s.tableau) else RESERVE_KEEP
    )
    return min(keep, len(s.dealt))


def placeable(state: MatchState, seat: int) -> list[str]:
    """Reserve cards ``seat`` may place this turn (not the card 115/116 returned)."""
    s = state.seats[seat]
    return [c for c in s.reserve if c != s.locked]


def seat_pending(state: MatchState, seat: int) -> str | None:
    """The decision ``seat`` owes in the current step, or ``None``.

    RULINGS R-SHARED-STEPS, R-NOPLACE.
    """
    s = state.seats[seat]
    if state.result is not None or s.done:
        return None
    if state.step == "setup":
        if state.phase == 1 and s.ai_card is None:
            return CHOOSE_AI_SIDE
        return KEEP_RESERVE if s.dealt else None
    if state.step == "draft":
        if s.ai6_discarding:
            return AI6_DISCARD
        if state.mode == "solo":
            return DRAFT if solo.offer(state) else None
        return DRAFT if s.hand else None
    if state.step == DISCARD:
        return DISCARD if s.hand else None
    if state.step == "place":
        return PLACE if placeable(state, seat) else None
    if state.step in ("resolve", "extra"):
        return s.need
    return None


def pending(state: MatchState) -> dict[int, str]:
    """``{seat: decision kind}`` for every seat that must act now (simultaneous steps)."""
    out = {}
    for seat in range(state.seat_count):
        kind = seat_pending(state, seat)
        if kind is not None:
            out[seat] = kind
    return out


def legal_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now, in canonical form (empty when nothing to do)."""
    if not isinstance(seat, int) or not 0 <= seat < state.seat_count:
        return []
    kind = seat_pending(state, seat)
    s = state.seats[seat]
    if kind is None:
        return []
    if kind == CHOOSE_AI_SIDE:
        return [{"type": CHOOSE_AI_SIDE, "card": c} for c in s.ai_pair]
    if kind == KEEP_RESERVE:
        return [
            {"type": KEEP_RESERVE, "cards": sorted(combo)}
            for combo in combinations(sorted(s.dealt), keep_count(state, seat))
        ]
    if kind == DRAFT:
        cards = sorted(c for _, c in solo.offer(state)) if state.mode == "solo" else sorted(s.hand)
        return (
            [{"type": DRAFT, "card": c} for c in cards]
            + powers.ai6_actions(state, seat)
            + powers.ai5_actions(state, seat)
        )
    if kind == AI6_DISCARD:
        return powers.ai6_discards(state, seat)
    if kind == DISCARD:
        return [{"type": DISCARD, "card": c} for c in sorted(set(s.hand))]
    if kind == PLACE:
        cells = placement_cells(s.tableau, diagonal=powers.diagonal(state, seat))
        return [
            {"type": PLACE, "card": c, "cell": [r, col]}
            for c in sorted(set(placeable(state, seat)))
            for r, col in cells
        ] + powers.ai5_actions(state, seat)
    if kind == COPY:
        assert s.played is not None  # a copy is pending for the card just played
        return [
            {"type": COPY, "card": t} for t in hacking.copy_targets(state, seat, s.played["card"])
        ]
    if kind == EXCHANGE_RESERVE:
        return hacking.reserve_exchanges(state, seat)
    if kind == MOVE_CARD:
        moves = hacking.moves_to_empty(s.tableau, powers.diagonal(state, seat))
        return [{"type": MOVE_CARD, "from": [a[0], a[1]], "to": [b[0], b[1]]} for a, b in moves] + [
            {"type": "decline"}
        ]
    if kind == PLACE_EXTRA:
        return powers.extra_placements(state, seat)
    return []


def canonical(command: Mapping[str, Any]) -> str:
    """A comparable key for a command: sorted keys, order-free lists sorted."""
    c = dict(command)
    if c.get("type") == KEEP_RESERVE and isinstance(c.get("cards"), list):
        c["cards"] = sorted(c["cards"], key=str)
    if c.get("type") == AI6_DISCARD and isinstance(c.get("cards"), list):
        c["cards"] = sorted(c["cards"], key=str)
    if c.get("type") == "use_ai5" and isinstance(c.get("cells"), list):
        c["cells"] = sorted((list(x) for x in c["cells"]), key=str)
    return json.dumps(c, sort_keys=True, separators=(",", ":"))


def _fields(command: Mapping[str, Any], *names: str) -> bool:
    """True when ``command`` has exactly the keys ``type`` and ``names``."""
    return len(command) == len(names) + 1 and all(n in command for n in names)


def _card_field(command: Mapping[str, Any]) -> str | None:
    """The ``card`` of a command with exactly the keys ``type`` and ``card`` (a string),
    else ``None``."""
    card = command.get("card")
    return card if _fields(command, "card") and type(card) is str else None


def _cell_field(value: Any) -> tuple[int, int] | None:
    """``(row, col)`` of a cell written as a list (or tuple) of two ints, else ``None``
    (``True`` or ``1.0`` is not the ``1`` of a legal action's canonical form)."""
    if (
        type(value) in (list, tuple)
        and len(value) == 2
        and type(value[0]) is int
        and type(value[1]) is int
    ):
        return value[0], value[1]
    return None


def _in_list(command: Mapping[str, Any], actions: list[dict[str, Any]]) -> bool:
    """``command`` among ``actions``, compared in canonical form."""
    key = canonical(command)
    return any(canonical(a) == key for a in actions)


def is_legal(state: MatchState, seat: int, command: Mapping[str, Any]) -> bool:
    """True exactly when ``canonical(command)`` is the canonical form of one of
    ``legal_actions(state, seat)`` (``decide``'s last check).

    The kinds with long lists are checked directly: the AI side, the reserve (a
    sub-multiset of the dealt cards of the kept size), the draft (a hand or offered card;
    ``use_ai6`` when AI-6 is available), the 2-player discard and the placement (a
    placeable card and an open cell); AI-5's exchanges and the rarer kinds compare with
    their own, short, list. ``tests/unit/ai_100_human/test_fast_legality.py`` checks the
    agreement on random states and commands."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seat_count:
        return False
    kind = seat_pending(state, seat)
    if kind is None or not isinstance(command, Mapping):
        return False
    ctype = command.get("type")
    s = state.seats[seat]
    if kind == CHOOSE_AI_SIDE:
        return ctype == CHOOSE_AI_SIDE and _card_field(command) in s.ai_pair
    if kind == KEEP_RESERVE:
        cards = command.get("cards")
        if (
            ctype != KEEP_RESERVE
            or not _fields(command, "cards")
            or type(cards) is not list
            or len(cards) != keep_count(state, seat)
            or not all(type(c) is str for c in cards)
        ):
            return False
        return not Counter(cards) - Counter(s.dealt)
    if kind == DRAFT and ctype == DRAFT:
        card = _card_field(command)
        if card is None:
            return False
        return card in ({c for _, c in solo.offer(state)} if state.mode == "solo" else s.hand)
    if kind == DRAFT and ctype == "use_ai6":
        return _fields(command) and powers.ai6_available(state, seat)
    if kind in (DRAFT, PLACE) and ctype == "use_ai5":
        return _in_list(command, powers.ai5_actions(state, seat))
    if kind == DRAFT:
        return False
    if kind == DISCARD:
        return ctype == DISCARD and _card_field(command) in s.hand
    if kind == PLACE:
        cell = _cell_field(command.get("cell"))
        if (
            ctype != PLACE
            or not _fields(command, "card", "cell")
            or cell is None
            or type(command["card"]) is not str
            or command["card"] not in placeable(state, seat)
        ):
            return False
        return cell in placement_cells(s.tableau, diagonal=powers.diagonal(state, seat))
    return _in_list(command, legal_actions(state, seat))
