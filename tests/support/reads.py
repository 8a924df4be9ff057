"""Every read answer of a finished match, to compare a match's answers before and after it
was compacted or archived."""

from __future__ import annotations

from typing import Any


def finish_by_hand(service, mid: str, key_prefix: str = "k") -> list[tuple[int, dict, str]]:
    """Play each pending seat's first legal action (with idempotency keys) until the match
    ends; the ``(seat, command, key)`` of every command sent."""
    sent = []
    while service.match_view(mid, None)["status"] == "running":
        for seat in map(int, service.match_view(mid, None)["pending"]):
            action = service.legal_actions(mid, seat)["actions"][0]
            key = f"{key_prefix}-{len(sent)}"
            service.act(mid, seat, action, idempotency_key=key)
            sent.append((seat, action, key))
    return sent


def every_read(service, mid: str, seats: int) -> dict[Any, Any]:
    """View, events (several cursors, a limit), state at every version, another seat's
    view, legal actions, export and its verification, for the spectator and each seat
    (the fold cache emptied first, so each load goes to the store)."""
    service.folds.clear()
    version = service.match_view(mid, None)["version"]
    out: dict[Any, Any] = {"export": service.export(mid)}
    for viewer in [None, *range(seats)]:
        out[("view", viewer)] = service.match_view(mid, viewer)
        for after in sorted({0, 1, max(0, version - 3), version - 1, version}):
            out[("events", viewer, after)] = service.events(mid, viewer, after=after)
        out[("events-limited", viewer)] = service.events(mid, viewer, after=2, limit=3)
        for at in range(1, version + 1):
            out[("state", viewer, at)] = service.state_at(mid, viewer, at)
    for seat in range(seats):
        out[("legal", seat)] = service.legal_actions(mid, seat)
        out[("state-of-seat", seat)] = service.state_at(mid, None, version - 1, seat=seat)
    out["verify"] = service.verify(out["export"])
    return out
