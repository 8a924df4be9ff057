"""A game's phrasebook: every event and command in the rulebook's words.

Each game keeps one phrasebook (``domain/games/<game>/phrasebook.json``), served with its
card data (``GET /v1/games/{game}/cards`` -> ``"phrasebook"``). This module renders it for
``arena play`` without importing ``domain``; ``api/web/js/phrases.js`` is the same
renderer for the web client (``tests/unit/test_phrasebooks.py`` holds both to the same
sentences). A third-party client may implement the format from docs/client-developers.md.

The format (``"format": 1``)::

    {"format": 1,
     "card": {"<card category or kind>" | "*": "<template over the card's own fields>"},
     "terms": {"<name>": {"<value>": "<words>"}},
     "events": {"<EventType>": <entry>},
     "commands": {"<command type>": <entry>}}

An entry is a template or a list of alternatives, the first that holds is used: a string
(always holds) or ``{"when": "<conditions>", "say": "<template>"}``. Conditions are joined
by ``&``: ``field`` (present and not null/false/0/empty), ``!field``, ``field=value``,
``field!=value`` (``you``/``!you``: the actor is the reader).

A template is text with ``{placeholder}`` s: ``{who}``/``{Who}`` (the actor: "you",
"Seat 1 (greedy bot)", a player's name), the verb endings ``{s}``, ``{es}``, ``{is}``,
``{has}``, ``{was}``, ``{your}`` (agreeing with the actor), and ``{path}`` or
``{path:format}`` over the event's ``data`` (or the command) with a dotted ``path``.
Formats: ``card`` (a card's name), ``card+text`` (name - effect text), ``cards``, ``seat``
(``Seat``: as a sentence's subject),
``seats``, ``cell``, ``cells``, ``n:<noun>`` (``3 cards``, ``1 card``), ``term:<name>``,
``words`` (underscores as spaces), ``list``, ``ordinal``, ``by_seat`` (``{seat: n}`` as
``Seat 0 (5) and you (3)``), ``thing`` (a card, else
``terms.option``), ``each:<part>`` (each item of a list through ``parts[<part>]``),
``part:<part>`` (an object through ``parts[<part>]``, which may be alternatives),
``command`` (a nested command), ``events`` (nested event envelopes, each in words).
A number prints as itself; ``true``/``false``/``null`` print as nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: ``card(id) -> face or None``: the card data of a card id.
Faces = Callable[[Any], "Mapping[str, Any] | None"]

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][\w.]*)(?::([^{}]*))?\}")
_VERBS = {
    "s": ("", "s"),
    "es": ("", "es"),
    "is": ("are", "is"),
    "has": ("have", "has"),
    "was": ("were", "was"),
    "your": ("your", "their"),
}
_IRREGULAR = {
    "ammo": "ammo",
    "damage": "damage",
    "strength": "strength",
    "VP": "VP",
    "Infection": "Infections",
    "health point": "health points",
    "copy": "copies",
    "battle": "battles",
    "ally": "allies",
    "enemy": "enemies",
}


def plural(noun: str, count: Any) -> str:
    """``"3 cards"`` / ``"1 card"``; ``noun`` may name its plural after a ``|``
    (``"copy|copies"``)."""
    one, _, many = noun.partition("|")
    if not many:
        many = _IRREGULAR.get(one) or (
            one[:-1] + "ies"
            if one.endswith("y") and one[-2:-1] not in "aeiou"
            else one + ("es" if one.endswith(("s", "x", "ch", "sh")) else "s")
        )
    return f"{count} {one if count == 1 else many}"


def join(items: Iterable[str], empty: str = "nothing") -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``; ``empty`` for none."""
    items = [i for i in items if i]
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def seat_name(
    seat: Any,
    seats: Iterable[Mapping[str, Any]] = (),
    you: int | None = None,
    *,
    subject: bool = False,
) -> str:
    """A seat in a sentence: ``"you"`` (``"You"`` as ``subject``) for the reader, a bot's
    seat and level (``"Seat 1 (greedy bot)"``), a player's name (``"ann (seat 2)"``), a seat
    of the table by its name (``kind`` ``"table"``: ``"the A.I.Toma"``),
    ``"Seat 2"``; ``"the table"`` for no seat."""
    if seat is None:
        return "The table" if subject else "the table"
    if seat == you:
        return "You" if subject else "you"
    info = next((s for s in seats if s.get("seat") == seat), {}) if seats else {}
    if info.get("kind") == "table" and info.get("name"):  # the A.I.Toma
        name = str(info["name"])
        return name[:1].upper() + name[1:] if subject else name
    if info.get("kind") == "bot" or info.get("bot"):
        return f"Seat {seat} ({info.get('bot') or 'a'} bot)"
    if info.get("name"):
        return f"{info['name']} (seat {seat})"
    return f"Seat {seat}"


class Phrasebook:
    """One game's phrasebook (the ``"phrasebook"`` member of its card data) rendered for
    one reader.

    - ``book``: the phrasebook document (``{}``: every sentence falls back to the type's
      words, e.g. ``"Card drafted"``).
    - ``faces(card_id)``: the card data of an id (:class:`cli.render.cards.CardBook.get`).
    """

    def __init__(self, book: Mapping[str, Any] | None, faces: Faces):
        self.book = dict(book or {})
        self.faces = faces

    # -- cards -------------------------------------------------------------------------
    def card(self, card_id: Any) -> str:
        """A card by name (the book's ``card`` template for its kind); an unknown id
        as itself."""
        face = self.faces(card_id)
        if not face:
            return str(card_id)
        rules = self.book.get("card") or {}
        template = (
            rules.get(str(face.get("category") or ""))
            or rules.get(str(face.get("kind") or ""))
            or rules.get("*")
        )
        if not template:
            return str(face.get("name") or face.get("title") or card_id)
        return self._fill(template, dict(face, id=card_id), None, (), None).strip()

    def thing(self, value: Any) -> str:
        """An answer of unknown kind: a card by name, else ``terms.option``, else words."""
        if self.faces(value):
            return self.card(value)
        return self.term("option", value)

    def card_text(self, card_id: Any) -> str:
        """``"Y3 - 8 VP per square of purple/red"``: the name and the effect text."""
        face = self.faces(card_id) or {}
        text = str(face.get("text") or "").strip()
        return f"{self.card(card_id)} — {text}" if text else self.card(card_id)

    # -- sentences ---------------------------------------------------------------------
    def event(
        self,
        envelope: Mapping[str, Any],
        seats: Iterable[Mapping[str, Any]] = (),
        you: int | None = None,
    ) -> str:
        """An event envelope (``{"type", "seat", "data", "cause"?}``, redacted for the
        reader) as one sentence; ``"(timeout)"`` etc. when not the player's own move."""
        kind = str(envelope.get("type") or "")
        entry = (self.book.get("events") or {}).get(kind)
        seat = envelope.get("seat")
        data = envelope.get("data") or {}
        text = (
            self._say(entry, data, seat, list(seats), you)
            if entry is not None
            else words_of(kind).capitalize()
        )
        cause = envelope.get("cause")
        if cause and cause not in ("player", "bot") and entry is not None:
            text += f" ({self.term('cause', cause)})"
        return sentence(text)

    def command(
        self,
        action: Mapping[str, Any],
        seats: Iterable[Mapping[str, Any]] = (),
        you: int | None = None,
    ) -> str:
        """A legal command as the reader's choice (``"Draft Y3 - ..."``)."""
        kind = str(action.get("type") or "")
        entry = (self.book.get("commands") or {}).get(kind)
        if entry is None:
            return sentence(words_of(kind).capitalize())
        return sentence(self._say(entry, action, you, list(seats), you))

    def part(
        self,
        name: str,
        data: Mapping[str, Any],
        seats: Iterable[Mapping[str, Any]] = (),
        you: int | None = None,
    ) -> str:
        """``parts[name]`` (a template or alternatives, as an event's entry) over ``data``,
        e.g. Dead Apocalypse's ``condition`` over a damage entry's ``cond``: ``"+2 while
        another Military card is in play"``; ``""`` when the book has no such part."""
        entry = (self.book.get("parts") or {}).get(name)
        return "" if entry is None else self._say(entry, data, None, list(seats), you)

    def term(self, name: str, value: Any) -> str:
        """``terms[name][value]``, else the value in words."""
        table = (self.book.get("terms") or {}).get(name) or {}
        key = str(value).lower() if isinstance(value, bool) else str(value)
        return str(table[key]) if key in table else words_of(str(value))

    # -- the template language -----------------------------------------------------------
    def _say(
        self,
        entry: Any,
        data: Mapping[str, Any],
        seat: Any,
        seats: list[Mapping[str, Any]],
        you: int | None,
    ) -> str:
        for alt in entry if isinstance(entry, list) else [entry]:
            if isinstance(alt, str):
                return self._fill(alt, data, seat, seats, you)
            if isinstance(alt, Mapping) and holds(
                alt.get("when", ""), data, seat == you and you is not None
            ):
                return self._fill(str(alt.get("say", "")), data, seat, seats, you)
        return ""

    def _fill(
        self,
        template: str,
        data: Mapping[str, Any],
        seat: Any,
        seats: Iterable[Mapping[str, Any]],
        you: int | None,
    ) -> str:
        mine = seat is not None and seat == you

        def one(match: re.Match[str]) -> str:
            name, fmt = match.group(1), match.group(2)
            if name in ("who", "Who") and fmt is None:
                return seat_name(seat, seats, you, subject=name == "Who")
            if name in _VERBS and fmt is None:
                return _VERBS[name][0 if mine else 1]
            return self._value(lookup(data, name), fmt or "", seats, you)

        return _PLACEHOLDER.sub(one, template)

    def _value(
        self, value: Any, fmt: str, seats: Iterable[Mapping[str, Any]], you: int | None
    ) -> str:
        kind, _, arg = fmt.partition(":")
        if kind == "card":
            return self.card(value) if value is not None else "a card"
        if kind == "card+text":
            return self.card_text(value)
        if kind == "cards":
            return join(
                (self.card(c.get("card") if isinstance(c, Mapping) else c) for c in _items(value)),
                "no cards",
            )
        if kind == "by_seat":
            pairs = value.items() if isinstance(value, Mapping) else enumerate(_items(value))
            return join(
                (
                    f"{seat_name(int(k) if str(k).isdigit() else k, seats, you)} ({v})"
                    for k, v in pairs
                ),
                "nobody",
            )
        if kind == "thing":
            return self.thing(value)
        if kind == "each":
            part = (self.book.get("parts") or {}).get(arg, "")
            return join(
                (
                    self._fill(part, item, None, seats, you)
                    for item in _items(value)
                    if isinstance(item, Mapping)
                ),
                "nothing",
            )
        if kind == "part":
            return self.part(arg, value, seats, you) if isinstance(value, Mapping) else ""
        if kind == "command":
            return self.command(value, seats, you) if isinstance(value, Mapping) else ""
        if kind == "events":
            return (
                "; ".join(
                    self.event(e, seats, you).rstrip(".")
                    for e in _items(value)
                    if isinstance(e, Mapping)
                )
                or "nothing to show"
            )
        if kind in ("seat", "Seat"):
            return seat_name(value, seats, you, subject=kind == "Seat")
        if kind == "seats":
            return join((seat_name(s, seats, you) for s in _items(value)), "nobody")
        if kind == "cell":
            return cell(value)
        if kind == "cells":
            return join((cell(c) for c in _items(value)), "no cell")
        if kind == "n":
            count = len(value) if isinstance(value, (list, tuple)) else value
            return plural(arg or "item", count if count is not None else 0)
        if kind == "term":
            return self.term(arg, value)
        if kind == "words":
            return words_of(str(value)) if value is not None else ""
        if kind == "list":
            return join((words_of(str(v)) for v in _items(value)), "none")
        if kind == "ordinal":
            return ordinal(value)
        if isinstance(value, bool):
            return ""
        if value is None:
            return ""
        if isinstance(value, (list, tuple, Mapping)):
            return join(str(v) for v in _items(value))
        return str(value)


def _items(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, Mapping):
        return list(value.values())
    return list(value) if isinstance(value, (list, tuple)) else [value]


def lookup(data: Any, path: str) -> Any:
    """``data["a"]["b"]`` for ``"a.b"`` (list items by number); ``None`` when absent."""
    for part in path.split("."):
        if isinstance(data, Mapping):
            data = data.get(part)
        elif isinstance(data, (list, tuple)) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        else:
            return None
    return data


def holds(conditions: str, data: Mapping[str, Any], mine: bool) -> bool:
    """Every ``&``-joined condition of an alternative holds (module docstring)."""
    for raw in str(conditions or "").split("&"):
        cond = raw.strip()
        if not cond:
            continue
        negate = cond.startswith("!") and "=" not in cond
        cond = cond[1:] if negate else cond
        if cond == "you":
            ok = mine
        elif "!=" in cond:
            path, want = cond.split("!=", 1)
            ok = _text(lookup(data, path.strip())) != want.strip()
        elif "=" in cond:
            path, want = cond.split("=", 1)
            ok = _text(lookup(data, path.strip())) == want.strip()
        else:
            value = lookup(data, cond)
            ok = value not in (None, False, 0, "", [], {}) and value != ()
        if ok == negate:
            return False
    return True


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def cell(value: Any) -> str:
    """``[1, 2]`` -> ``"row 1, column 2"`` (the views' 0-based rows and columns)."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return f"row {value[0]}, column {value[1]}"
    return str(value)


def ordinal(value: Any) -> str:
    """``1`` -> ``"1st"``."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def words_of(key: str) -> str:
    """``"end_turn"``/``"CardDrafted"`` -> ``"end turn"``/``"card drafted"``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).replace("_", " ")
    return spaced.lower() if any(c.isupper() for c in key[1:]) else spaced


def sentence(text: str) -> str:
    """Spaces tidied (a player's name keeps its case: templates begin with a capital,
    ``{Who}`` or ``{seat:Seat}``)."""
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\s+([,.;:)])", r"\1", text)
