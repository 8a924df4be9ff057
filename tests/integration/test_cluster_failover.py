"""A Redis Cluster failover in the middle of play, over real HTTP.

A private cluster (3 masters + 3 replicas, tests/support/cluster.py) serves the event
store with ``ARENA_REDIS_WAIT_REPLICAS=1`` (every append is confirmed by the replica
before it is answered); RQ is on the standalone test Redis. Two clients play two matches
of the test game ``race`` over HTTP with an ``Idempotency-Key`` per move: one match lives
on the master that is SIGKILLed mid-play, the other on another master. The test checks:

- every answer during the failover is 200, 409 or 503 ``store_unavailable`` with
  ``Retry-After`` (never a 500), and at least one 503 was seen on the killed master's match;
- play resumes on the promoted replica (more moves are acknowledged after the kill);
- no acknowledged event is lost: every version and hash a client was answered with is in
  the final log, and the log is gap-free and chained.

Nothing is timed: the clients poll until enough moves were acknowledged, with generous
overall limits.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from itertools import pairwise

import pytest
from werkzeug.serving import make_server

from api.app import create_app
from service.bootstrap import build_service
from tests.e2e.http_helpers import Http
from tests.support.cluster import running_cluster, wait_until

pytestmark = pytest.mark.integration

MOVES_BEFORE_KILL = 15
MOVES_AFTER_KILL = 15


@pytest.fixture
def private_cluster():
    yield from running_cluster()


@pytest.fixture
def served(private_cluster, real_config):
    config = real_config.with_(
        redis_url=private_cluster.url,
        rq_redis_url=real_config.redis_url,
        wait_replicas=1,
        wait_ms=200,
    )
    service = build_service(config)
    server = make_server("127.0.0.1", 0, create_app(service), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", service
    finally:
        server.shutdown()
        thread.join(5)


class Player(threading.Thread):
    """Plays one match move by move; records every answer and every acknowledged event."""

    def __init__(self, url: str, match_id: str, tokens: dict[int, str]):
        super().__init__(daemon=True)
        self.http = Http(url)
        self.match_id, self.tokens = match_id, tokens
        self.statuses: Counter = Counter()
        self.bad: list = []
        self.acked: dict[int, str] = {}  # version -> hash the client was answered
        self.moves_after_kill = 0
        self.killed = threading.Event()
        self.stop = threading.Event()

    def _call(self, method, path, token, **kw):
        status, headers, body = self.http.call(method, path, token, **kw)
        self.statuses[status] += 1
        if status == 503 and (
            body.get("code") != "store_unavailable" or "Retry-After" not in headers
        ):
            self.bad.append((status, body))
        if status not in (200, 409, 503):
            self.bad.append((status, body))
        return status, body

    def run(self) -> None:
        while not self.stop.is_set():
            status, view = self._call("GET", f"/v1/matches/{self.match_id}", self.tokens[0])
            if status != 200:
                time.sleep(0.05)
                continue
            turn, version = view["view"]["turn"], view["version"]
            status, body = self._call(
                "POST",
                f"/v1/matches/{self.match_id}/actions",
                self.tokens[turn],
                body={"type": "add", "amount": 1},
                headers={"Idempotency-Key": f"move-{version}"},
            )
            if status == 200:
                for event in body["events"]:
                    self.acked[event["version"]] = event["hash"]
                if self.killed.is_set():
                    self.moves_after_kill += 1
            time.sleep(0.02)  # a human's pace, so neither match reaches its target


def test_killing_a_master_mid_play_answers_503_then_resumes_with_no_acknowledged_event_lost(
    private_cluster, served
):
    url, service = served
    http = Http(url)
    players = []
    for _ in range(2):
        status, _, created = http.post(
            "/v1/matches",
            {
                "game": "race",
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "options": {"target": 1000},
            },
        )
        assert status == 201, created
        players.append(
            Player(url, created["match_id"], {s["seat"]: s["token"] for s in created["seats"]})
        )
    victim, other = players
    killed_port = private_cluster.master_port_of(service.keys.events(victim.match_id))
    while private_cluster.master_port_of(service.keys.events(other.match_id)) == killed_port:
        status, _, created = http.post(
            "/v1/matches",
            {
                "game": "race",
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "options": {"target": 1000},
            },
        )
        other = players[1] = Player(
            url, created["match_id"], {s["seat"]: s["token"] for s in created["seats"]}
        )
    for player in players:
        player.start()
    try:
        assert wait_until(lambda: len(victim.acked) >= MOVES_BEFORE_KILL, 60)
        for player in players:
            player.killed.set()
        assert private_cluster.kill_master_of(service.keys.events(victim.match_id)) == killed_port
        # play resumes on the promoted replica
        assert wait_until(lambda: victim.moves_after_kill >= MOVES_AFTER_KILL, 120), victim.statuses
        assert wait_until(lambda: other.moves_after_kill >= MOVES_AFTER_KILL, 60), other.statuses
    finally:
        for player in players:
            player.stop.set()
        for player in players:
            player.join(90)
    print(
        f"\nfailover answers by status: victim {dict(victim.statuses)}, "
        f"other {dict(other.statuses)}"
    )
    assert victim.bad == [] and other.bad == []
    assert victim.statuses[503] >= 1  # the failover was seen
    for player in players:
        events: list = []
        while True:
            status, _, page = http.get(
                f"/v1/matches/{player.match_id}/events?after={len(events)}&limit=500",
                player.tokens[0],
            )
            assert status == 200, page
            if not page["events"]:
                break
            events += page["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        for before, after in pairwise(events):
            assert after["prev_hash"] == before["hash"]
        stored = {e["version"]: e["hash"] for e in events}
        lost = {v: h for v, h in player.acked.items() if stored.get(v) != h}
        print(f"match {player.match_id}: {len(player.acked)} acknowledged events, {len(lost)} lost")
        assert lost == {}
