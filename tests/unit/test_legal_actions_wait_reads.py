"""``GET .../legal-actions?wait=`` (``Reads.legal_actions`` with ``wait_s``) held over
other seats' moves reads the store once per wake: one head read (meta and tail in one
script call), which also gives the answer once the seat is pending; no meta read per
wake and no second head read for the answer (issue 21: server CPU per move)."""

from __future__ import annotations

import threading
import uuid

import pytest

from service.bootstrap import build_service
from service.config import Config


def _play_first(service, match_id: str, seat: int) -> None:
    legal = service.legal_actions(match_id, seat)
    service.act(match_id, seat, dict(legal["actions"][0]), decision_id=legal["decision_id"])


def _pending(service, match_id: str) -> list[int]:
    return sorted(int(s) for s in service.match_view(match_id, None)["pending"])


def _version(service, match_id: str) -> int:
    return service.match_view(match_id, None)["version"]


def test_a_held_legal_actions_wait_reads_one_head_per_wake_and_answers_from_it(monkeypatch):
    service = build_service(Config(key_prefix=f"waitreads-{uuid.uuid4().hex[:8]}"))
    match_id = service.create_match("ai-100-human", [{"kind": "human"}] * 3)["match_id"]
    # AI: 100% Human, 3 seats: all three seats have decisions in turn 1; once seat 0 has
    # made its own it waits while seats 1 and 2 make theirs
    while 0 in _pending(service, match_id):
        _play_first(service, match_id, 0)
    assert _pending(service, match_id) == [1, 2]
    events = service._reads.ctx.stores.events
    reads: list[tuple[str, int]] = []  # the held wait's store reads: (kind, version read)
    plain_meta, plain_head = events.meta, events.head

    def counting_meta(match_id_, *args, **kwargs):
        meta = plain_meta(match_id_, *args, **kwargs)
        if threading.get_ident() == held.ident:
            reads.append(("meta", int(meta["version"])))
        return meta

    def counting_head(match_id_, *args, **kwargs):
        read = plain_head(match_id_, *args, **kwargs)
        if threading.get_ident() == held.ident:
            reads.append(("head", int(read.meta["version"])))
        return read

    monkeypatch.setattr(events, "meta", counting_meta)
    monkeypatch.setattr(events, "head", counting_head)
    answer: dict = {}
    held = threading.Thread(
        target=lambda: answer.update(out=service.legal_actions(match_id, 0, wait_s=30))
    )

    def read_at(version: int) -> None:
        """Until the held wait has read the head at ``version`` (or answered): one wake per
        move, whatever the machine's speed (a bounded wait, not a timing assumption)."""
        for _ in range(600):
            if any(v == version for _kind, v in reads) or not held.is_alive():
                return
            held.join(0.05)
        pytest.fail(f"the held wait never read version {version}: {reads}")

    versions = [_version(service, match_id)]
    held.start()
    read_at(versions[0])
    while held.is_alive() and 0 not in _pending(service, match_id):
        _play_first(service, match_id, min(_pending(service, match_id)))
        versions.append(_version(service, match_id))
        read_at(versions[-1])
    held.join(30)
    assert not held.is_alive()

    out = answer["out"]
    assert out["actions"] and out["version"] == versions[-1]
    assert out == service.legal_actions(match_id, 0)
    wakes = len(versions) - 1
    assert wakes >= 2  # seats 1 and 2 each moved before seat 0 was pending again
    # the first read, then one head read per wake (the last one answers): before, each
    # wake read the meta hash and the answer read meta and head again (2 meta + 2 head
    # reads for this wait over two moves)
    assert reads == [("head", v) for v in versions]
