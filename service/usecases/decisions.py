"""Per-seat decision ids: the precondition a client sends so that its command fails only
when *its own* pending decision moved (not when another seat acted meanwhile, e.g. a bot in
a simultaneous step).

The service tracks, for each pending seat, the version its current decision started at
(``since``), in the meta field ``decisions`` written by the same append script as the
events. A seat's decision restarts (``since`` = the new version) when the seat acted in the
batch (itself, its bot or its turn timeout), when its decision kind changed, or when it
was not pending before. Its id, as ``GET .../legal-actions`` shows it, also digests the
legal actions, so a decision whose options another seat's action changed is a moved one
too: ``"<since>-<16 hex digits>"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.log.codec import canonical_json, sha256_hex


def decisions_after(
    prior: Mapping[int, list], pending: Mapping[int, str], new_version: int, actor: int | None
) -> dict[int, list]:
    """The ``{seat: [since, kind]}`` of the pending seats after an append that ended at
    ``new_version``, from those before it (``prior``) and the seat that acted (``actor``,
    ``None`` for set-up)."""
    out: dict[int, list] = {}
    for seat, kind in pending.items():
        before = prior.get(seat)
        if before is not None and seat != actor and before[1] == kind:
            out[seat] = [before[0], kind]
        else:
            out[seat] = [new_version, kind]
    return out


def decision_id(
    decisions: Mapping[int, list], seat: int, actions: list[dict[str, Any]]
) -> str | None:
    """The id of ``seat``'s pending decision with legal ``actions`` (``None`` when the seat
    has nothing pending)."""
    entry = decisions.get(seat)
    if entry is None:
        return None
    since, kind = entry
    return f"{since}-{sha256_hex(canonical_json([kind, actions]))[:16]}"
