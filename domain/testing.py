"""The shape of a game's test settings: what the generic tests need to know about a game,
kept in the game's own folder (``<game package>/testing.py`` exposing ``TESTING``, a
:class:`GameTesting`), so adding a game touches no generic test.

Pure data and functions over a game's raw state: nothing here runs in the server; the
generic tests (``tests/``) read each installed game's settings with :func:`testing_of`.

- :class:`Secrecy`: the game's hidden-information model, written from its rules (not from
  the projections under test): which card ids only one seat may see, which lie face down
  for everybody, who owns an event. The leak tests compare every HTTP answer with it.
- :class:`GameTesting`: the seats and options of the generic end-to-end matches, the
  set-ups the view tests fold, every mode the contract test plays, the secrecy model and
  the game's *re-deal* (issue 23 "bots never peek").
- :func:`redeal_cards`: the shared part of a re-deal: another arrangement of the cards a
  seat cannot see, written into a state's dumped form.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from domain.engine import Event


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value: dict keys and values, list/tuple items (in
    no particular order). Iterative, with exact-type checks first: the leak tests walk
    millions of nested values (a recursive generator cost one frame resume per level)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = json_kind(item)
        if kind is str:
            yield item
        elif kind is dict:
            for key, inner in item.items():
                if isinstance(key, str):
                    yield key
                stack.append(inner)
        elif kind is list:
            stack.extend(item)


#: types :func:`json_kind` knows hold no string
_SCALARS = frozenset({int, float, bool, type(None)})


def json_kind(value: Any) -> type | None:
    """``str``, ``dict`` (any Mapping), ``list`` (a list or tuple) or None (anything else)
    for a JSON-like value: exact types first, the abstract checks only for other types."""
    kind = type(value)
    if kind is str or kind is dict or kind is list:
        return kind
    if kind is tuple:
        return list
    if kind in _SCALARS:
        return None
    if isinstance(value, str):
        return str
    if isinstance(value, Mapping):
        return dict
    if isinstance(value, (list, tuple)):
        return list
    return None


def seat_of_event(event: Event) -> int | None:
    """The envelope seat of ``event`` (the usual :attr:`Secrecy.owner`)."""
    return event.seat


@dataclass(frozen=True)
class Secrecy:
    """The secrets of one game over its raw folded state (the engine's ``state``).

    - ``card``: a regular expression every card id of the game matches (whole string);
      ids are also found inside free text (an error's ``detail``) between non-word
      characters. Card ids are strings as answers show them (a game with numbered cards
      shows them as numbers: :meth:`ids` reads numbers too when ``numbers`` is set).
    - ``private(state, seat) -> set[str]``: card ids only ``seat`` may see now (its hand,
      reserve, face-down choice, ...).
    - ``unseen(state) -> dict[str, list[str]]``: face-down stacks nobody may see, top
      first; their ids are secret to every viewer that never saw them, and their order to
      everybody.
    - ``owner(event) -> int | None``: the seat an event is about (shown its full data).
    - ``bound(state, seat) -> set[str]``: public ids no answer may show tied to ``seat``
      (inside a JSON object whose ``"seat"`` is ``seat``) except under ``listing_keys``.
    - ``parts(event) -> list[Event]``: the atomic events ``event`` stands for, each with
      its own seat (``[event]`` unless the game batches events, see A.I.Pokalypse).
    """

    card: re.Pattern[str]
    private: Callable[[Any, int], set[str]]
    unseen: Callable[[Any], dict[str, list[str]]]
    owner: Callable[[Event], int | None] = seat_of_event
    bound: Callable[[Any, int], set[str]] = lambda state, seat: set()
    listing_keys: frozenset[str] = frozenset()
    parts: Callable[[Event], list[Event]] = lambda event: [event]

    def ids(self, value: Any) -> set[str]:
        """The card ids among the strings of ``value`` or mentioned inside them."""
        return self.ids_in(strings(value))

    def ids_in(self, texts: Iterable[str]) -> set[str]:
        """The card ids that the strings ``texts`` are or mention."""
        card = self.card
        found: set[str] = set()
        for text in texts:
            named = _ids_in(card, text)
            if named:
                found |= named
        return found


@lru_cache(maxsize=1 << 16)
def _ids_in(card: re.Pattern[str], text: str) -> frozenset[str]:
    """The card ids (``card``) that ``text`` is or mentions, remembered per string: the
    leak tests ask this of the same keys, names and ids again and again (an A.I.Pokalypse
    match's hidden-information test, over a million strings)."""
    if card.fullmatch(text):
        return frozenset((text,))
    return frozenset(m.group(0) for m in _mention(card).finditer(text))


@cache
def _mention(card: re.Pattern[str]) -> re.Pattern[str]:
    """A card id mentioned inside a longer text. A number written "version N" in prose (a
    version conflict's detail) is a version, not a card id (AI: 100% Human's card ids are
    3-digit numbers)."""
    return re.compile(rf"(?<![\w#-])(?<!version )(?:{card.pattern})(?![\w#-])")


#: one set-up: ``(seats, options)``
SetUp = tuple[int, Mapping[str, Any]]

#: a game's re-deal: ``redeal(state, seat, rng) -> new state`` (see :class:`GameTesting`)
Redeal = Callable[[Any, int, random.Random], Any]


def redeal_cards(
    dumped: Any,
    hidden: Iterable[str],
    rng: random.Random,
    class_of: Callable[[str], Hashable] = lambda card: None,
    extra: Iterable[str] = (),
) -> Any:
    """Another arrangement of the cards a seat cannot see, in a state's dumped form.

    ``dumped``: a JSON-like value (``engine.dump_state(state)``); ``hidden``: the card ids
    lying where the seat cannot see them (none of them may occur in its view); ``extra``:
    card ids that are nowhere in the state and unseen by the seat (e.g. cards never
    dealt), which may take a hidden card's place. Every class (``class_of(card)``: cards
    that may stand for each other, e.g. the same deck) of ``hidden`` + ``extra`` is
    permuted at random; every string of ``dumped`` (values and dict keys) naming a hidden
    card is replaced by its image, so each hidden place (hands, deck orders, a face-down
    choice naming a hand card, ...) gets another card of its class, each card once.

    Returns a new value (``dumped`` is not changed); the same ``rng`` state gives the same
    arrangement (pools are sorted before the shuffle).
    """
    pools: dict[Hashable, list[str]] = {}
    for card in sorted(set(hidden) | set(extra)):
        pools.setdefault(class_of(card), []).append(card)
    image: dict[str, str] = {}
    for key in sorted(pools, key=repr):
        pool = pools[key]
        shuffled = list(pool)
        rng.shuffle(shuffled)
        image.update(zip(pool, shuffled, strict=True))
    moved = set(hidden)

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return image[value] if value in moved else value
        if isinstance(value, Mapping):
            return {swap(key): swap(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [swap(item) for item in value]
        return value

    return swap(dumped)


@dataclass(frozen=True)
class GameTesting:
    """One game's settings for the generic tests.

    - ``seats`` / ``options``: the all-human matches of the generic end-to-end tests (the
      hidden-information test, the contract and client tests, the CLI's play test).
    - ``secrecy``: the game's :class:`Secrecy` (hidden-information model).
    - ``view_setups``: the set-ups the view and fold tests play out in-process (at least
      one; cover the modes whose views differ).
    - ``modes``: every mode of the game, played over HTTP by the contract test (default:
      ``view_setups``).
    - ``leak_check_every``: commands between two rounds of checks in the hidden-information
      test (1: after every command, for a short game whose secrets live one command long).
    - ``redeal(state, seat, rng) -> state``: the same position with everything ``seat``
      cannot see (other seats' hands and face-down cards, deck orders, ...) replaced by
      another arrangement consistent with what it can see (``view(new, seat) ==
      view(state, seat)``), written from the game's rules; ``state`` is not changed. The
      no-peeking tests (``tests/unit/test_bots_never_peek.py``) ask every bot level and
      the game's estimator the same question on both. ``None`` only for a game that is
      not installed in the suite (an installed game without one fails that test).
    """

    seats: int
    options: Mapping[str, Any]
    secrecy: Secrecy
    view_setups: tuple[SetUp, ...]
    modes: tuple[SetUp, ...] = field(default=())
    leak_check_every: int = 8
    redeal: Redeal | None = None

    def all_modes(self) -> tuple[SetUp, ...]:
        """``modes``, or ``view_setups`` when the game lists none."""
        return self.modes or self.view_setups


def testing_of(package: str) -> GameTesting:
    """The ``TESTING`` settings of the game package ``package`` (its ``testing`` module).
    Raises ModuleNotFoundError (no ``testing`` module) or AttributeError (no ``TESTING``),
    TypeError when ``TESTING`` is not a :class:`GameTesting`."""
    settings = importlib.import_module(f"{package}.testing").TESTING
    if not isinstance(settings, GameTesting):
        raise TypeError(f"{package}.testing.TESTING must be a domain.testing.GameTesting")
    return settings
