"""Duel's settings for the generic tests (:class:`domain.testing.GameTesting`).

Hidden information (RULINGS D-hidden in ``RULES.md``): a seat's hand and the card it laid
in the current trick are its own; the undealt cards are never in the state (nobody sees
them, so nothing lies face down to check)."""
from __future__ import annotations

import re

from domain.testing import GameTesting, Secrecy


def _private(state, seat: int) -> set[str]:
    laid = state.laid[seat]
    return set(state.hands[seat]) | ({laid} if laid is not None else set())


TESTING = GameTesting(
    seats=2, options={"tricks": 9}, leak_check_every=1,
    secrecy=Secrecy(card=re.compile(r"D\d{2}"), private=_private, unseen=lambda state: {}),
    view_setups=((2, {"tricks": 9}),), modes=((2, {}), (2, {"tricks": 1})))
