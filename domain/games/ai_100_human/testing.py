"""AI: 100% Human's settings for the generic tests (:class:`domain.testing.GameTesting`): the
seats and options of the generic end-to-end matches, the set-ups the view tests play, every
mode the contract test plays, and the hidden-information model the leak tests check every
answer against (written from the game's rules and views, never trusting the projections
under test)."""

from __future__ import annotations

import random
import re
from typing import Any

from domain.testing import GameTesting, Secrecy, redeal_cards, strings

from .cards import catalogue
from .state import dump_state, load_state
from .views import view


# views.py: hand, reserve, dealt cards and the hidden choice of the step are the seat's;
# the deck (and solo's timer stack) are nobody's; the chosen AI side is hidden until
# ``ai_revealed`` although both sides (``ai_cards_dealt``) are public.
def _ai100_private(state: Any, seat: int) -> set[str]:
    s = state.seats[seat]
    # a choice stays recorded after its reveal: a card of it lying face up is no secret
    face_up = set(s.tableau.values()) | {p["card"] for p in state.last_reveal}
    return set(s.hand) | set(s.reserve) | set(s.dealt) | (SECRECY.ids(s.choice or {}) - face_up)


def _ai100_unseen(state: Any) -> dict[str, list[str]]:
    return {"deck": list(state.deck), "timer": list(state.timer)}


def _ai100_bound(state: Any, seat: int) -> set[str]:
    s = state.seats[seat]
    return {s.ai_card} if s.ai_card and not s.ai_revealed else set()


SECRECY = Secrecy(
    card=re.compile(r"\d{3}|AI-\d{1,2}"),
    private=_ai100_private,
    unseen=_ai100_unseen,
    bound=_ai100_bound,
    listing_keys=frozenset({"ai_cards_dealt"}),
)


def redeal(state: Any, seat: int, rng: random.Random) -> Any:
    """The position with what ``seat`` cannot see dealt again (issue 23 "bots never
    peek"): the cards of the other seats' hands, reserves and reserve-creation cards, the
    deck and solo's timer stack are permuted among those places, a card only with cards of
    its own phase (rulebook "Set-up": one deck per phase); a hidden choice naming one of
    them names its image. Another seat's AI side chosen but not yet revealed is drawn
    again from its two public sides ("Choose your AI card"). ``state`` is not changed."""
    seen = set(strings(view(state, seat)))
    hidden: set[str] = set(state.deck) | set(state.timer)
    for other in range(state.seat_count):
        if other != seat:
            hidden |= _ai100_private(state, other)
    cards = catalogue().cards
    dumped = redeal_cards(
        dump_state(state),
        hidden - seen,
        rng,
        class_of=lambda card: cards[card].phase if card in cards else card,
    )
    for other, entry in enumerate(dumped["seats"]):
        if other != seat and entry["ai_card"] and not entry["ai_revealed"]:
            entry["ai_card"] = rng.choice(sorted(entry["ai_pair"]))
    return load_state(dumped)


TESTING = GameTesting(
    seats=3,
    options={"objectives": "starter"},
    secrecy=SECRECY,
    view_setups=((3, {}), (1, {})),
    modes=((1, {}), (2, {}), (3, {"objectives": "starter"})),
    redeal=redeal,
)
