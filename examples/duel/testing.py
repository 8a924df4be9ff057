"""Duel's settings for the generic tests (:class:`domain.testing.GameTesting`).

Hidden information (RULINGS D-hidden in ``RULES.md``): a seat's hand and the card it laid
in the current trick are its own; the undealt cards are never in the state (nobody sees
them, so nothing lies face down to check)."""

from __future__ import annotations

import random
import re
from typing import Any

from domain.testing import GameTesting, Secrecy, redeal_cards, strings

from . import spec
from .state import dump_state, load_state
from .views import view


def _private(state, seat: int) -> set[str]:
    laid = state.laid[seat]
    return set(state.hands[seat]) | ({laid} if laid is not None else set())


SECRECY = Secrecy(card=re.compile(r"D\d{2}"), private=_private, unseen=lambda state: {})


def redeal(state: Any, seat: int, rng: random.Random) -> Any:
    """The position with the other seat's hand and face-down laid card dealt again from
    every card ``seat`` cannot see (RULES.md "Set-up": the 20 cards less its own hand, its
    laid card and the last trick's two cards face up; the undealt cards and the cards of
    earlier tricks are not in its view, so they may stand in)."""
    other = 1 - seat
    seen = set(strings(view(state, seat)))
    hidden = _private(state, other)
    extra = set(spec.DECK) - seen - hidden
    return load_state(redeal_cards(dump_state(state), hidden, rng, extra=extra))


TESTING = GameTesting(
    seats=2,
    options={"tricks": 9},
    leak_check_every=1,
    secrecy=SECRECY,
    view_setups=((2, {"tricks": 9}),),
    modes=((2, {}), (2, {"tricks": 1})),
    redeal=redeal,
)
