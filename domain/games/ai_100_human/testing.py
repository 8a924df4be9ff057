"""AI: 100% Human's settings for the generic tests (:class:`domain.testing.GameTesting`): the
seats and options of the generic end-to-end matches, the set-ups the view tests play, every
mode the contract test plays, and the hidden-information model the leak tests check every
answer against (written from the game's rules and views, never trusting the projections
under test)."""
from __future__ import annotations

import re
from typing import Any

from domain.testing import GameTesting, Secrecy

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


SECRECY = Secrecy(card=re.compile(r"\d{3}|AI-\d{1,2}"), private=_ai100_private,
                  unseen=_ai100_unseen, bound=_ai100_bound,
                  listing_keys=frozenset({"ai_cards_dealt"}))


TESTING = GameTesting(
    seats=3, options={"objectives": "starter"}, secrecy=SECRECY,
    view_setups=((3, {}), (1, {})),
    modes=((1, {}), (2, {}), (3, {"objectives": "starter"})))
