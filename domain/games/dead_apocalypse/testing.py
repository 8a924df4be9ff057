"""Dead Apocalypse's settings for the generic tests (:class:`domain.testing.GameTesting`): the
seats and options of the generic end-to-end matches, the set-ups the view tests play, every
mode the contract test plays, and the hidden-information model the leak tests check every
answer against (written from the game's rules and views, never trusting the projections
under test)."""

from __future__ import annotations

import random
import re
from typing import Any

from domain.engine import Event
from domain.testing import GameTesting, Secrecy, redeal_cards

from .state import dump_state, load_state


# views.py: a hand is its seat's; deck and stack orders are nobody's (shuffles and stack
# formations carry a count), drawn cards only the drawer's (``CardsDrawn`` names its
# seat in ``data``). Infection and Adept Survivor stacks are identical cards in a fixed
# order: nothing to hide.
def _dead_private(state: Any, seat: int) -> set[str]:
    return set(state.seats[seat].hand)


def _dead_unseen(state: Any) -> dict[str, list[str]]:
    out = {"zombie_stack": list(state.zombie_stack), "resource_stack": list(state.resource_stack)}
    for i, s in enumerate(state.seats):
        out[f"deck:{i}"] = list(s.deck)
    return out


def _dead_owner(event: Event) -> int | None:
    seat = event.data.get("seat") if event.seat is None else event.seat
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


SECRECY = Secrecy(
    card=re.compile(r"[a-z0-9-]+#(?:s\d+\.)?\d+"),
    private=_dead_private,
    unseen=_dead_unseen,
    owner=_dead_owner,
)


def redeal(state: Any, seat: int, rng: random.Random) -> Any:
    """The position with what ``seat`` cannot see dealt again (issue 23 "bots never
    peek"): every other seat's hand and deck are shuffled together and dealt back by
    their sizes (which cards a seat owns is public: it bought them from the Resource Row
    in view of all; which of them are in its hand and in what order its deck lies is
    not); the seat's own deck, the Zombie Stack and the Resource Stack are put in another
    order. ``state`` is not changed."""
    hidden: set[str] = set()
    groups: dict[str, str] = {}
    for other, s in enumerate(state.seats):
        group = set(s.deck) | (set(s.hand) if other != seat else set())
        groups.update({card: f"seat {other}" for card in group})
    groups.update({card: "zombie" for card in state.zombie_stack})
    groups.update({card: "resource" for card in state.resource_stack})
    hidden = set(groups)
    return load_state(redeal_cards(dump_state(state), hidden, rng, class_of=groups.__getitem__))


TESTING = GameTesting(
    seats=3,
    options={},
    secrecy=SECRECY,
    view_setups=((3, {}),),
    modes=((1, {}), (3, {"competitive": True}), (2, {"difficulty": "easiest"})),
    redeal=redeal,
)
