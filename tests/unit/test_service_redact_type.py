"""The optional engine capability ``redact_type``: the service shows each viewer the envelope
type the engine chooses (a hidden move's kind stays secret), exports keep the stored type.

Uses a variant of the test game ``high-card`` whose ``CardPlayed`` is shown to the other seat
and spectators as ``MoveMade``; on fakeredis under this test's own key prefix."""

from __future__ import annotations

import fakeredis
import pytest
from rq import Queue

from domain.engine import Event, redacted_type
from service import bootstrap
from service.match_service import MatchService
from service.store.keys import Keys
from tests.support.games import ENGINES, HighCard
from workers.scheduling import TurnScheduler


class VeiledHighCard(HighCard):
    """High Card whose played-card events are type-less for everybody but the player."""

    game_id = "high-card-veiled"

    def redact_type(self, event, viewer, state=None):
        """``MoveMade`` for a ``CardPlayed`` seen by another seat or a spectator."""
        if event.type == "CardPlayed" and viewer != event.seat:
            return "MoveMade"
        return event.type


class BrokenVeil(HighCard):
    """An engine whose ``redact_type`` breaks the contract (returns no string)."""

    game_id = "high-card-broken"

    def redact_type(self, event, viewer, state=None):
        return None


@pytest.fixture
def veiled_service(fake_redis_server, key_prefix):
    keys = Keys(key_prefix)
    queue = Queue(f"{key_prefix}-turns", connection=fakeredis.FakeRedis(server=fake_redis_server))
    engines = {**ENGINES, VeiledHighCard.game_id: VeiledHighCard()}
    svc = MatchService(
        fakeredis.FakeRedis(server=fake_redis_server, decode_responses=True),
        keys,
        TurnScheduler(queue, keys, job_timeout_s=5),
        engines,
        snapshot_every=5,
        blocking_reads=False,
    )
    bootstrap.install(svc)
    yield svc
    bootstrap.reset()


def _types(events):
    return [e["type"] for e in events]


def test_other_viewers_see_the_neutral_type_and_the_player_the_real_one(veiled_service):
    svc = veiled_service
    mid = svc.create_match(
        "high-card-veiled", [{"kind": "human"}, {"kind": "human"}], {"rounds": 1}
    )["match_id"]
    card = svc.legal_actions(mid, 0)["actions"][0]
    answer = svc.act(mid, 0, card)
    assert _types(answer["events"]) == ["CardPlayed"]  # the actor's own answer
    after = answer["version"] - 1
    assert _types(svc.events(mid, 0, after=after)["events"]) == ["CardPlayed"]
    assert _types(svc.events(mid, 1, after=after)["events"]) == ["MoveMade"]
    assert _types(svc.events(mid, None, after=after)["events"]) == ["MoveMade"]
    assert svc.events(mid, 1, after=after)["events"][0]["data"] == {}


def test_export_keeps_the_stored_type_and_still_verifies(veiled_service):
    svc = veiled_service
    mid = svc.create_match(
        "high-card-veiled", [{"kind": "human"}, {"kind": "human"}], {"rounds": 1}
    )["match_id"]
    while svc.match_view(mid, None)["status"] == "running":
        for seat in map(int, svc.match_view(mid, None)["pending"]):
            svc.act(mid, seat, svc.legal_actions(mid, seat)["actions"][0])
    log = svc.export(mid)
    assert _types(log["events"]).count("CardPlayed") == 2
    assert "MoveMade" not in _types(log["events"])
    assert svc.verify(log)["valid"] is True
    # after the end the public log still shows the neutral type to the other seat
    assert _types(svc.events(mid, 1)["events"]).count("MoveMade") == 1


def test_redacted_type_falls_back_to_the_stored_type_and_rejects_non_strings():
    event = Event("CardPlayed", {"card": 3}, 0)
    assert redacted_type(ENGINES["high-card"], event, 1) == "CardPlayed"
    assert redacted_type(VeiledHighCard(), event, 1) == "MoveMade"
    assert redacted_type(VeiledHighCard(), event, 0) == "CardPlayed"
    with pytest.raises(TypeError):
        redacted_type(BrokenVeil(), event, 1)
