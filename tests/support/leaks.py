"""Hidden-information bookkeeping for leak tests: what each viewer of a match may know,
followed event by event on the raw (server-side) log, and the check of one answer.

:class:`Knowledge` folds the full envelopes of a match (read from the event store, never
from an HTTP answer) with the game's engine and keeps

- ``public``: every card id a spectator was ever shown (its redacted events and views),
  admitted only when it was not, at that moment, a seat's private card or face down;
- ``known[seat]``: every card id the seat ever held privately (a passed draft card, a
  returned one) or was shown in its own events, again only when it was not another
  seat's secret at that moment. An event standing for several atomic events
  (``Secrecy.parts``: A.I.Pokalypse's ``RecruitmentMoves`` batch, whose envelope seat is
  the acting seat or none) counts part by part, each for the seat it is about
  (``Secrecy.owner``), as the server redacts it.

An answer to ``viewer`` leaks when it holds a card id that is now another seat's private
card or face down (``tests.support.secrecy``) and that the viewer never legitimately saw,
the whole order of a face-down stack, or a public id tied to the seat that keeps it
secret (the chosen AI side; not counting the viewer's own ``seat_state`` an SSE event
with ``views=true`` carries, :data:`OWN_KEYS`). A broken projection therefore fails either here (an
``AssertionError`` from :meth:`Knowledge.advance`) or in :meth:`Knowledge.leaks`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from domain.engine import Event
from domain.testing import json_kind
from tests.support.secrecy import SECRECY, Secrecy, strings, union

__all__ = ["Knowledge", "Walk", "strings", "sse_payloads", "string_lists"]

#: A face-down stack's order counts as shown when all of it, from this many cards on,
#: stands in one list of an answer (shorter stacks match old public lists by chance: a
#: reshuffled 3-card discard pile keeps its order one time in six).
ORDER_MIN = 5

#: members of an answer's object that are the viewer's own and not about the object's
#: ``"seat"``: an SSE event with ``views=true`` (``seat``: the acting seat) carries the
#: viewer's ``seat_state``, which may list, e.g., the public AI cards dealt. The seat
#: objects inside it are checked on their own.
OWN_KEYS = frozenset({"seat_state"})


class Walk:
    """One pass over a JSON-like answer (iterative: the hidden-information tests walk
    millions of nested values; three recursive generators spent a third of an
    A.I.Pokalypse match's checks resuming frames).

    Attributes:
        texts: every string inside it (dict keys and values, list items), in no order.
        lists: every list of strings (at least two strings) inside it, the strings in
            their order.
        seat_objects: every JSON object with a ``"seat"`` member, at any depth.
    """

    def __init__(self, value: Any):
        self.texts: list[str] = []
        self.lists: list[list[str]] = []
        self.seat_objects: list[Mapping[str, Any]] = []
        stack = [value]
        while stack:
            item = stack.pop()
            kind = json_kind(item)
            if kind is str:
                self.texts.append(item)
            elif kind is dict:
                if "seat" in item:
                    self.seat_objects.append(item)
                for key, inner in item.items():
                    if isinstance(key, str):
                        self.texts.append(key)
                    stack.append(inner)
            elif kind is list:
                listed = [inner for inner in item if isinstance(inner, str)]
                if len(listed) >= 2:
                    self.lists.append(listed)
                self.texts += listed
                stack.extend(inner for inner in item if json_kind(inner) not in (str, None))


def string_lists(value: Any) -> list[list[str]]:
    """Every list of strings (at least two) inside a JSON-like value."""
    return Walk(value).lists


def _contains_run(haystack: list[str], run: list[str]) -> bool:
    n = len(run)
    return any(haystack[i : i + n] == run for i in range(len(haystack) - n + 1))


def sse_payloads(text: str) -> list[Any]:
    """The JSON ``data`` of every server-sent event in an SSE body."""
    out = []
    for block in text.split("\n\n"):
        data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
        if data:
            out.append(json.loads("\n".join(data)))
    return out


class Knowledge:
    """What the viewers of one match may know, kept in step with its raw log.

    Args:
        engine: the game's ``Engine``.
        seats: the number of seats.
        secrecy: the game's :class:`~tests.support.secrecy.Secrecy` (default: by
            ``engine.game_id`` from ``SECRECY``).
    """

    def __init__(self, engine: Any, seats: int, secrecy: Secrecy | None = None):
        self.engine = engine
        self.seats = range(seats)
        self.secrecy = secrecy or SECRECY[engine.game_id]
        self.state: Any = None
        self.version = 0
        self.public: set[str] = set()
        self.known: dict[int, set[str]] = {s: set() for s in self.seats}

    # -------------------------------------------------------------- following the log
    def advance(self, envelopes: list[Mapping[str, Any]]) -> None:
        """Fold the next full envelopes (versions ``version + 1 ..``). Raises
        AssertionError when the engine shows a spectator, or a seat in its own event,
        a card that is at that moment another seat's secret."""
        if not envelopes:
            return
        for envelope in envelopes:
            assert envelope["version"] == self.version + 1, "envelopes out of order"
            event = Event.from_dict(envelope)
            self.state = self.engine.evolve(self.state, event)
            self.version = envelope["version"]
            where = f"v{self.version} {event.type}"
            private = {s: self.secrecy.private(self.state, s) for s in self.seats}
            self._publish(
                self.engine.redact(event, None, self.state), private, f"spectator's {where}"
            )
            # any version can be looked at later (GET .../state): what its spectator view
            # shows is public from then on
            self._publish(self.engine.view(self.state, None), private, f"spectator view at {where}")
            for seat in self.seats:
                self.known[seat] |= private[seat]
            # a batch (A.I.Pokalypse's RecruitmentMoves) stands for several atomic events of
            # different seats: each is its own seat's, as it was before batching
            for part in self.secrecy.parts(event):
                owner = self.secrecy.owner(part)
                if owner not in self.known:
                    continue
                shown = self.secrecy.ids(self.engine.redact(part, owner, self.state))
                others = union(private[b] for b in self.seats if b != owner)
                leak = (shown & others) - self.public - self.known[owner]
                part_at = where if part is event else f"{where} ({part.type})"
                assert not leak, f"seat {owner}'s own {part_at} shows {sorted(leak)}"
                self.known[owner] |= shown

    def _publish(self, shown_value: Any, private: dict[int, set[str]], where: str) -> None:
        shown = self.secrecy.ids(shown_value)
        secret = union(private.values()) | self._unseen_ids()
        leak = (shown & secret) - self.public
        assert not leak, f"{where} shows {sorted(leak)}"
        self.public |= shown

    def _unseen_ids(self) -> set[str]:
        return union(set(order) for order in self.secrecy.unseen(self.state).values())

    # -------------------------------------------------------------- checking answers
    def tied(self) -> bool:
        """True while some seat keeps a public id secretly tied to it (a chosen AI side
        before the reveal): a moment worth checking, it passes within a few commands."""
        return any(self.secrecy.bound(self.state, s) for s in self.seats)

    def forbidden(self, viewer: int | None) -> set[str]:
        """Card ids ``viewer`` (a seat, or ``None`` for a spectator) must not be shown now."""
        others = [s for s in self.seats if s != viewer]
        secret = union(self.secrecy.private(self.state, s) for s in others) | self._unseen_ids()
        return secret - self.public - (self.known[viewer] if viewer is not None else set())

    def leaks(self, answer: Any, viewer: int | None) -> list[str]:
        """What in ``answer`` (a decoded JSON body, or a list of them) ``viewer`` must not
        see: forbidden card ids, the order of a face-down stack (all of it, ORDER_MIN cards
        or more, in one list), an id tied to the seat keeping it secret. Empty = no leak."""
        walk = Walk(answer)
        forbidden = self.forbidden(viewer)
        shown = self.secrecy.ids_in(walk.texts) if forbidden else set()
        found = [f"card {c}" for c in sorted(forbidden & shown)]
        orders = [
            (name, order)
            for name, order in self.secrecy.unseen(self.state).items()
            if len(order) >= ORDER_MIN
        ]
        for listed in walk.lists if orders else ():
            found += [
                f"the order of {name}" for name, order in orders if _contains_run(listed, order)
            ]
        bound = {s: self.secrecy.bound(self.state, s) for s in self.seats if s != viewer}
        for obj in walk.seat_objects if any(bound.values()) else ():
            secret = bound.get(obj["seat"]) if isinstance(obj["seat"], int) else None
            if secret:
                tied = set(
                    strings(
                        {
                            k: v
                            for k, v in obj.items()
                            if k not in self.secrecy.listing_keys and k not in OWN_KEYS
                        }
                    )
                )
                found += [f"seat {obj['seat']}'s {c}" for c in sorted(secret & tied)]
        return found
