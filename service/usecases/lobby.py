"""The lobby use case: the public list of listed matches (``GET /v1/matches``).

Filters: ``game``; ``status`` ``open`` (running with a seat nobody joined yet: the ones to
join), ``running`` (running, every seat taken) or ``finished`` (finished or abandoned);
``open_seat`` True (a seat to join, whatever the status). Newest first (creation time,
then id), cursor pagination: the cursor is opaque to clients (base64url of the last
item's position). Items hold only public facts (no token, seed, view or hidden card):
``{match_id, game, status, seats: [{seat, kind, name?, bot?}], open_seats, version,
created_at, spectators}`` and once it has a result ``finished_at`` and ``result``
(``{"outcome"?, "winners"}``). Unlisted matches are never listed. The index is
:class:`service.store.match_index.MatchIndex` (sharded, updated only when these facts change);
items are read from each match's meta hash in one pipeline.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from typing import Any

from service import errors
from service.log.match_record import MatchRecord
from service.usecases.context import MatchContext

STATUSES = ("open", "running", "finished")
MAX_LIMIT = 100


def encode_cursor(position: tuple[float, str], owner: str | None = None) -> str:
    """The opaque cursor after ``(created_at, match_id)``: base64url of ``[created_at,
    match_id]``, or with ``owner`` (the list's owner: a player's history names the player
    id) ``[created_at, match_id, owner]``, so a list of another owner refuses it."""
    parts: list[Any] = [position[0], position[1]]
    if owner is not None:
        parts.append(owner)
    raw = json.dumps(parts, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_owned_cursor(cursor: str, what: str) -> tuple[float, str, str | None]:
    """Inverse of :func:`encode_cursor`: ``(created_at, match_id, owner)`` (``owner``
    ``None`` for a cursor that names none). Raises InvalidCursor (its detail names
    ``what``: the list the cursor was sent to) for anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        parts = json.loads(raw)
        if not isinstance(parts, list) or len(parts) not in (2, 3):
            raise ValueError(cursor)
        score, match_id = parts[0], parts[1]
        owner = parts[2] if len(parts) == 3 else None
        if (
            isinstance(score, bool)
            or not isinstance(score, (int, float))
            or not math.isfinite(score)  # 1e999 and NaN parse; no position holds them
            or not isinstance(match_id, str)
            or (len(parts) == 3 and not isinstance(owner, str))
        ):
            raise ValueError(cursor)
        return float(score), match_id, owner
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise errors.InvalidCursor(what) from None


def decode_cursor(cursor: str, what: str = "the lobby") -> tuple[float, str]:
    """Inverse of :func:`encode_cursor` for a list without owners (the lobby): a cursor
    naming an owner (a player's history's) is refused too. Raises InvalidCursor (its
    detail names ``what``)."""
    score, match_id, owner = decode_owned_cursor(cursor, what)
    if owner is not None:
        raise errors.InvalidCursor(what)
    return score, match_id


def lobby_item(record: MatchRecord, claimed: set[int]) -> dict[str, Any]:
    """The public lobby entry of one match (see module docstring)."""
    seats = []
    for entry in record.public_seats(claimed):
        seats.append({k: entry[k] for k in ("seat", "kind", "name", "bot", "player") if k in entry})
    item: dict[str, Any] = {
        "match_id": record.match_id,
        "game": record.game,
        "status": "open" if record.lobby_bucket(claimed) == "open" else record.status,
        "seats": seats,
        "open_seats": record.open_seats(claimed),
        "version": record.version,
        "created_at": record.created_at,
        "spectators": record.spectators,
    }
    if record.finished:
        result = record.result if isinstance(record.result, dict) else {}
        summary = {"winners": list(result.get("winners") or [])}
        if result.get("outcome"):
            summary["outcome"] = result["outcome"]
        item["finished_at"] = record.finished_at
        item["result"] = summary
    return item


class Lobby:
    """``list_matches`` over the lobby index (see module docstring)."""

    def __init__(self, ctx: MatchContext):
        self.ctx = ctx

    def list_matches(
        self,
        game: str | None = None,
        status: str | None = None,
        open_seat: bool = False,
        cursor: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """``{"items": [...], "next_cursor": str|None}`` newest first (see module
        docstring). Raises UnknownGame, InvalidCursor; ``status`` must be one of
        :data:`STATUSES` or ``None`` (ValueError otherwise: the API validates it)."""
        if game is not None:
            self.ctx.engine(game)
        if status is not None and status not in STATUSES:
            raise ValueError(status)
        limit = max(1, min(int(limit), MAX_LIMIT))
        before = decode_cursor(cursor) if cursor else None
        bucket = status or "all"
        found: list[tuple[tuple[float, str], dict[str, Any]]] = []
        while len(found) <= limit:
            want = limit + 1 - len(found)
            rows, summaries = self._page(bucket, game, before, want)
            for (score, match_id), (meta, claimed) in zip(rows, summaries, strict=True):
                before = (score, match_id)
                if not meta or "game" not in meta:
                    continue  # gone (expired or deleted): the index entry is stale
                record = MatchRecord.parse(match_id, meta)
                if not record.listed or (
                    status is not None and record.lobby_bucket(claimed) != status
                ):
                    continue  # filed in a bucket it has left (an index update in flight)
                item = lobby_item(record, claimed)
                if open_seat and not item["open_seats"]:
                    continue
                found.append((before, item))
            if len(rows) < want:
                break
        next_cursor = encode_cursor(found[limit - 1][0]) if len(found) > limit else None
        return {"items": [item for _, item in found[:limit]], "next_cursor": next_cursor}

    def _page(
        self, bucket: str, game: str | None, before: tuple[float, str] | None, want: int
    ) -> tuple[list[tuple[float, str]], list[tuple[dict, set[int]]]]:
        """Up to ``want`` index rows after ``before`` and each one's ``(meta, claimed)``:
        the Redis index merged with the archive's finished matches (:mod:`service.upkeep.archive`;
        buckets ``all`` and ``finished`` only), newest first, each match once (a match
        being moved may be in both)."""
        index, archive = self.ctx.stores.index, self.ctx.archive
        rows = index.lobby_page(bucket, game, before, want)
        if archive is None or bucket not in ("all", "finished"):
            return rows, index.summaries(m for _, m in rows)
        archived = {
            mid: ((score, mid), (meta, claimed))
            for score, mid, meta, claimed in archive.lobby_page(game, before, want)
        }
        merged = {mid: (score, mid) for score, mid in rows if mid not in archived}
        merged.update({mid: row for mid, (row, _) in archived.items()})
        rows = sorted(merged.values(), key=lambda r: (r[0], r[1]), reverse=True)[:want]
        in_redis = [mid for _, mid in rows if mid not in archived]
        found = dict(zip(in_redis, index.summaries(in_redis), strict=True))
        summaries = []
        for _, mid in rows:
            meta, claimed = archived[mid][1] if mid in archived else found[mid]
            if not meta:  # moved between the two reads: its row answers
                meta = self.ctx.archived_meta(mid)
                claimed = set(archive.digests(mid) or {}) if meta else claimed
            summaries.append((meta, claimed))
        return rows, summaries
