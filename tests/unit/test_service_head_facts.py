"""``pending`` and ``result`` are computed once per append (issue 13 item 5): the meta
fields, the book-keeping after the append and the seat's representation share one
:func:`service.usecases.context.head_facts`, on both paths of ``act`` (the verified one, and the
fast one on this process's cached fold) and at creation."""

from __future__ import annotations

import pytest

from tests.support.games import HIGH_CARD

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def calls(monkeypatch):
    """Counts of ``HIGH_CARD.pending`` / ``result`` calls made by the service itself (not
    from inside the engine's own ``decide`` / ``legal_actions``)."""
    counts = {"pending": 0, "result": 0}
    inside = [0]

    def counted(name):
        original = getattr(HIGH_CARD, name)

        def wrapper(*args, **kwargs):
            if not inside[0]:
                counts[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(HIGH_CARD, name, wrapper)

    def nested(name):
        original = getattr(HIGH_CARD, name)

        def wrapper(*args, **kwargs):
            inside[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                inside[0] -= 1

        monkeypatch.setattr(HIGH_CARD, name, wrapper)

    counted("pending")
    counted("result")
    nested("decide")
    nested("legal_actions")
    return counts


def _reset(counts):
    counts.update(pending=0, result=0)


def test_one_pending_per_append_on_both_act_paths_and_at_creation(service, calls):
    mid = service.create_match("high-card", HUMANS2, {"rounds": 2})["match_id"]
    assert calls["pending"] == 1
    card = service.legal_actions(mid, 1)["actions"][0]
    _reset(calls)
    service.act(mid, 1, card)  # the fold of this process, read by legal_actions
    assert calls["pending"] == 1
    assert calls["result"] == 2  # "is it finished?" before deciding, then the head's
    card = service.legal_actions(mid, 0)["actions"][0]
    service.folds.clear()
    _reset(calls)
    service.act(mid, 0, card)  # verified path: the fold is read from the store
    assert calls["pending"] == 1 and calls["result"] == 2


def test_the_representation_reuses_the_facts_of_the_append(service, calls):
    mid = service.create_match("high-card", HUMANS2, {"rounds": 2})["match_id"]
    card = service.legal_actions(mid, 1)["actions"][0]
    _reset(calls)
    answer = service.act(mid, 1, card, represent=True)
    assert calls["pending"] == 1
    assert answer["legal_actions"] == service.legal_actions(mid, 1)
    assert answer["pending"] == {"0": "play"} and answer["status"] == "running"
