"""Issue 17 (rules fidelity, round 3), A.I.Pokalypse items 1, 3, 4 and 5: Vault A.F.K.'s first
Recruitment Phase, Lieutenant Dan's ammo alternative, Big Benji's "at any time" and the
"take nothing" answers of Big Benji's steal and Scammer's swap. Each test quotes the book
(``shared/rules/aipokalypse-rulebook.txt``) and checks a concrete value. The timeout answers
(item 2) are in ``test_timeout_answers.py``."""
from __future__ import annotations

from domain.games.aipokalypse.actions import legal_actions
from tests.unit.aipokalypse.helpers import act, hand, ids, one, table, types

# ------------------------------------------------------------------ item 1: Vault A.F.K.

def _vault_round_1(*cards):
    state = table(2, round_=1, factions=[one("Vault A.F.K."), None])
    hand(state, 0, *cards)
    return state


def test_vault_afk_discarding_painkiller_in_round_1_draws_no_card():
    """Vault A.F.K.: "in the first Recruitment Phase, you can not do anything but decide
    which of the 6 cards you want to keep". Painkiller's discard effect ("draw 2 cards, then
    discard one") does not resolve: the hand goes from 3 cards to 2, no card is drawn, the
    draw pile keeps its cards."""
    painkiller = ids("Painkiller", 1)[0]
    state = _vault_round_1(painkiller, *ids("Sniper", 2))
    draw = len(state["draw"])
    state, events = act(state, 0, {"type": "discard", "card": painkiller})
    assert len(state["players"][0]["hand"]) == 2
    assert "CardsDrawn" not in types(events) and len(state["draw"]) == draw
    assert state["discard"] == [painkiller]


def test_vault_afk_discarding_module_in_round_1_gains_no_red_slot():
    """Vault A.F.K.: "in the first Recruitment Phase, you can not do anything but decide
    which of the 6 cards you want to keep". Module's discard effect ("you may discard 2 more
    cards ...; if you do, gain a Red Slot") does not resolve: no decision is asked, the seat
    keeps 0 slots and the 2 other cards stay in the hand."""
    module = ids("Module", 1)[0]
    state = _vault_round_1(module, *ids("Sniper", 2))
    state, events = act(state, 0, {"type": "discard", "card": module}, defaults=False)
    assert state["choice"] is None and "ChoiceRequested" not in types(events)
    assert state["players"][0]["slots"] == [] and "RedSlotPlaced" not in types(events)
    assert sorted(state["players"][0]["hand"]) == sorted(ids("Sniper", 2))


def test_vault_afk_discards_resolve_again_from_round_2():
    """From the second Recruitment Phase on a discard is a discard: Painkiller draws 2 and
    discards 1 (3 hand cards -> 1 + 2 - 1 = 3)."""
    painkiller = ids("Painkiller", 1)[0]
    state = _vault_round_1(painkiller, *ids("Sniper", 2))
    state["round"] = 2
    state, events = act(state, 0, {"type": "discard", "card": painkiller})
    assert "CardsDrawn" in types(events) and len(state["players"][0]["hand"]) == 3


def test_vault_afk_round_1_offers_only_hand_discards_and_ready():
    state = _vault_round_1(ids("Module", 1)[0], *ids("Sniper", 2))
    kinds = {a["type"] for a in legal_actions(state, 0)}
    assert kinds == {"discard", "ready"}
