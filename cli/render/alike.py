"""Legal commands a person can tell apart: the menu lists one line per different move.

A game's legal commands name card instances (``survivor#s0.3``), so three Survivors in hand
are three commands whose words are the same ("Play Survivor — +1 damage."), and two Plague
Carriers in the Zombie Row two "Use the Repeat ability of Plague Carrier". The first are the
same move (identical cards in one place); the second are not (other columns). The web
client's action list does the same (``api/web/js/alike.js``; a test holds both to the same
lines).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: ``where(value, field) -> str | None``: a card's place in the seat's view in words (``value``
#: a card id), or what another field's value means there (Dead Apocalypse's ``spend`` plan)
Where = Callable[[Any, str], "str | None"]


@dataclass(frozen=True)
class Entry:
    """One menu line: ``action`` (the command sent: the first of its kind), ``text`` (its
    words, with where or how many alike) and ``count`` (the commands it stands for)."""

    action: Mapping[str, Any]
    text: str
    count: int


def tell_apart(
    actions: Sequence[Mapping[str, Any]], words: Callable[[Mapping[str, Any]], str], where: Where
) -> list[Entry]:
    """The menu of ``actions``: commands with the same words whose differences are only cards
    in one place (``where``) become one entry ("… (3 alike in your hand)"); commands with the
    same words whose cards lie in different places each say where ("… — in Zombie Row
    column 2"); commands nothing tells apart stay one entry each. Order: as ``actions``
    (a group where its first command was)."""
    by_words: dict[str, list[Mapping[str, Any]]] = {}
    for action in actions:
        by_words.setdefault(words(action), []).append(action)
    out: list[Entry] = []
    for text, group in by_words.items():
        if len(group) == 1:
            out.append(Entry(group[0], text, 1))
            continue
        fields = _differing(group)
        by_place: dict[str, list[Mapping[str, Any]]] = {}
        for action in group:
            places = [_place_of(f, action.get(f), where) for f in fields]
            place = ", ".join(p for p in places if p) if places and all(places) else ""
            by_place.setdefault(place, []).append(action)
        for place, same in by_place.items():
            if len(same) > 1 and not place:
                out.extend(Entry(action, text, 1) for action in same)
                continue
            apart = f" — {place}" if len(by_place) > 1 and place else ""
            alike = ""
            if len(same) > 1:
                alike = f" ({len(same)} alike" + ("" if len(by_place) > 1 else f" {place}") + ")"
            out.append(Entry(same[0], f"{text}{apart}{alike}", len(same)))
    return out


def _differing(group: Sequence[Mapping[str, Any]]) -> list[str]:
    fields = {f for action in group for f in action}
    return sorted(
        f for f in fields if len({json.dumps(a.get(f), sort_keys=True) for a in group}) > 1
    )


def _place_of(field: str, value: Any, where: Where) -> str | None:
    if isinstance(value, str):
        return where(value, field)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        places = list(dict.fromkeys(where(v, field) for v in value))
        return ", ".join(p for p in places if p) if all(places) else None
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{field.replace('_', ' ')} {value}"
    return where(value, field)
