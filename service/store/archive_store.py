"""The PostgreSQL archive adapter (psycopg 3): finished matches moved out of Redis, and
the players and rating history of issue 22 (tables ``arena_players`` and
``arena_rating_history``: one row per rated match per participant, so a rating curve can be
drawn from the archive).

One table, ``arena_archive`` (created on first use), one row per archived match, keyed by
``(prefix, match_id)`` (``prefix``: ``ARENA_KEY_PREFIX``, so deployments may share a
database):

=============  ==================  =====================================================
``game``       text                the lobby's game filter
``status``     text                ``finished`` or ``abandoned``
``listed``     boolean             shown in the lobby
``created_ts`` double precision    the lobby's sort key (Unix seconds, as in Redis)
``meta``       jsonb               the match's meta hash as it was in Redis (strings)
``tokens``     jsonb               seat -> SHA-256 hex of its token (never a token)
``log``        bytea               the compacted log (:mod:`service.store.compact_store`)
``log_sha256`` text                SHA-256 hex of ``log`` (the mover's read-back check)
=============  ==================  =====================================================

Each thread has its own connection (autocommit), opened on first use and re-opened after
it broke. Errors are psycopg's (``psycopg.OperationalError`` when the server is down).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from service.log.match_record import MatchRecord

TABLE = "arena_archive"

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
  prefix text NOT NULL,
  match_id text NOT NULL,
  game text NOT NULL,
  status text NOT NULL,
  listed boolean NOT NULL,
  created_ts double precision NOT NULL,
  meta jsonb NOT NULL,
  tokens jsonb NOT NULL,
  log bytea NOT NULL,
  log_sha256 text NOT NULL,
  archived_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (prefix, match_id));
CREATE INDEX IF NOT EXISTS {TABLE}_lobby
  ON {TABLE} (prefix, created_ts DESC, match_id COLLATE "C" DESC) WHERE listed;
"""

#: players and rating history (issue 22), beside the archive when it is configured
PLAYERS_TABLE = "arena_players"
HISTORY_TABLE = "arena_rating_history"
PLAYER_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {PLAYERS_TABLE} (
  prefix text NOT NULL,
  player_id text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (prefix, player_id));
CREATE TABLE IF NOT EXISTS {HISTORY_TABLE} (
  prefix text NOT NULL,
  participant text NOT NULL,
  board text NOT NULL,
  match_id text NOT NULL,
  ended_at timestamptz NOT NULL,
  mu double precision NOT NULL,
  sigma double precision NOT NULL,
  ordinal double precision NOT NULL,
  PRIMARY KEY (prefix, participant, board, match_id));
CREATE INDEX IF NOT EXISTS {HISTORY_TABLE}_curve
  ON {HISTORY_TABLE} (prefix, participant, board, ended_at);
"""

UPSERT = f"""
INSERT INTO {TABLE} (prefix, match_id, game, status, listed, created_ts, meta, tokens, log,
                     log_sha256)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (prefix, match_id) DO UPDATE SET
  meta = EXCLUDED.meta || CASE WHEN coalesce({TABLE}.meta->>'rematch', '') <> ''
                               THEN jsonb_build_object('rematch', {TABLE}.meta->'rematch')
                               ELSE '{{}}'::jsonb END,
  tokens = EXCLUDED.tokens
WHERE {TABLE}.log_sha256 = EXCLUDED.log_sha256
"""


def sha256_hex(blob: bytes) -> str:
    """SHA-256 hex digest of ``blob``."""
    return hashlib.sha256(blob).hexdigest()


class ArchiveMismatch(RuntimeError):
    """The archive holds another log under this match id (never overwritten)."""


class ArchiveStore:
    """Rows of archived matches of one deployment (``prefix``) in the PostgreSQL at
    ``url`` (``postgresql://...``, libpq syntax)."""

    def __init__(self, url: str, prefix: str, connect_timeout_s: int = 5):
        self.url = url
        self.prefix = prefix
        self.connect_timeout_s = connect_timeout_s
        self._local = threading.local()
        self._schema_ready = False
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ connection
    def _conn(self) -> psycopg.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            conn = psycopg.connect(
                self.url, autocommit=True, connect_timeout=self.connect_timeout_s
            )
            self._local.conn = conn
        if not self._schema_ready:
            with self._lock:
                if not self._schema_ready:
                    self._create_schema(conn)
                    self._schema_ready = True
        return conn

    @staticmethod
    def _create_schema(conn: psycopg.Connection) -> None:
        """Create the table and index; concurrent creators may collide once: retry."""
        for attempt in range(3):
            try:
                with conn.transaction():
                    conn.execute(SCHEMA)
                    conn.execute(PLAYER_SCHEMA)
                return
            except (
                psycopg.errors.UniqueViolation,
                psycopg.errors.DuplicateTable,
                psycopg.errors.DuplicateObject,
            ):
                if attempt == 2:
                    raise

    def _one(self, sql: str, params: tuple) -> tuple | None:
        return self._conn().execute(sql, params).fetchone()

    def close(self) -> None:
        """Close this thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # ------------------------------------------------------------------ writes
    def put(
        self, match_id: str, meta: Mapping[str, str], tokens: Mapping[str, str], blob: bytes
    ) -> None:
        """Insert the match's row, or refresh ``meta``/``tokens`` of the row already
        there (a re-run of an interrupted move; a rematch id claimed in the archive is
        kept). Raises ArchiveMismatch when a row with another log exists."""
        digest = sha256_hex(blob)
        result = self._conn().execute(
            UPSERT,
            (
                self.prefix,
                match_id,
                meta["game"],
                meta.get("status", "finished"),
                meta.get("listed", "1") != "0",
                created_ts(meta),
                Jsonb(dict(meta)),
                Jsonb({str(k): v for k, v in tokens.items()}),
                blob,
                digest,
            ),
        )
        if result.rowcount != 1:
            raise ArchiveMismatch(f"the archive holds another log for {match_id}")

    def claim_rematch(self, match_id: str, candidate: str) -> str:
        """Set the archived match's ``rematch`` id to ``candidate`` unless it has one
        (atomic); the id it holds now. Raises KeyError when the match is not archived."""
        self._conn().execute(
            f"UPDATE {TABLE} SET meta = jsonb_set(meta, '{{rematch}}', to_jsonb(%s::text)) "
            f"WHERE prefix = %s AND match_id = %s AND coalesce(meta->>'rematch', '') = ''",
            (candidate, self.prefix, match_id),
        )
        row = self._one(
            f"SELECT meta->>'rematch' FROM {TABLE} WHERE prefix = %s AND match_id = %s",
            (self.prefix, match_id),
        )
        if row is None:
            raise KeyError(match_id)
        return row[0]

    # ------------------------------------------------------------------ reads
    def row(self, match_id: str) -> tuple[dict[str, str], dict[str, str], str] | None:
        """``(meta, tokens, log_sha256)`` of the archived match, or ``None``."""
        row = self._one(
            f"SELECT meta, tokens, log_sha256 FROM {TABLE} WHERE prefix = %s AND match_id = %s",
            (self.prefix, match_id),
        )
        return None if row is None else (row[0], row[1], row[2])

    def meta(self, match_id: str) -> dict[str, str]:
        """The archived meta hash with ``archived`` = ``"1"`` (``{}`` when not archived)."""
        row = self._one(
            f"SELECT meta FROM {TABLE} WHERE prefix = %s AND match_id = %s", (self.prefix, match_id)
        )
        return {} if row is None else {**row[0], "archived": "1"}

    def digests(self, match_id: str) -> dict[int, str] | None:
        """Seat -> token digest of the archived match (``None`` when not archived)."""
        row = self._one(
            f"SELECT tokens FROM {TABLE} WHERE prefix = %s AND match_id = %s",
            (self.prefix, match_id),
        )
        return None if row is None else {int(k): v for k, v in row[0].items()}

    def blob(self, match_id: str) -> bytes | None:
        """The compacted log of the archived match, or ``None``."""
        row = self._one(
            f"SELECT log FROM {TABLE} WHERE prefix = %s AND match_id = %s", (self.prefix, match_id)
        )
        return None if row is None else bytes(row[0])

    def lobby_page(
        self, game: str | None, before: tuple[float, str] | None, count: int
    ) -> list[tuple[float, str, dict[str, str], set[int]]]:
        """Up to ``count`` listed archived matches ``(created_ts, match_id, meta, claimed
        seats)``, newest first (ties: greater id first), strictly after ``before`` (the
        lobby's cursor position), optionally of one ``game``."""
        sql = f"SELECT created_ts, match_id, meta, tokens FROM {TABLE} WHERE prefix = %s AND listed"
        params: list[Any] = [self.prefix]
        if game is not None:
            sql += " AND game = %s"
            params.append(game)
        if before is not None:
            sql += ' AND (created_ts < %s OR (created_ts = %s AND match_id COLLATE "C" < %s))'
            params += [before[0], before[0], before[1]]
        sql += ' ORDER BY created_ts DESC, match_id COLLATE "C" DESC LIMIT %s'
        params.append(count)
        rows = self._conn().execute(sql, tuple(params)).fetchall()
        return [
            (float(ts), mid, {**meta, "archived": "1"}, {int(s) for s in tokens})
            for ts, mid, meta, tokens in rows
        ]

    # ------------------------------------------------------------------ players (issue 22)
    def put_player(self, player_id: str, name: str, created_at: str) -> None:
        """Record a player (id, name, creation time; never its key); a repeat changes
        nothing."""
        self._conn().execute(
            f"INSERT INTO {PLAYERS_TABLE} (prefix, player_id, name, created_at) "
            "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (self.prefix, player_id, name, created_at),
        )

    def put_rating_points(self, points: list[Mapping[str, Any]], replace_all: bool = False) -> None:
        """Record rating-history rows ``{"participant", "board", "match_id", "at", "mu",
        "sigma", "ordinal"}`` (one per rated match per participant: an upsert keyed by
        participant, board and match, so a repeat writes the same row again and a refold's
        new values replace the old ones). ``replace_all``: the history was refolded from
        the start: every row of this prefix is replaced in one transaction."""
        conn = self._conn()
        with conn.transaction():
            if replace_all:
                conn.execute(f"DELETE FROM {HISTORY_TABLE} WHERE prefix = %s", (self.prefix,))
            with conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO {HISTORY_TABLE} (prefix, participant, board, match_id, "
                    "ended_at, mu, sigma, ordinal) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (prefix, participant, board, match_id) DO UPDATE SET "
                    "ended_at = EXCLUDED.ended_at, mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, "
                    "ordinal = EXCLUDED.ordinal",
                    [
                        (
                            self.prefix,
                            p["participant"],
                            p["board"],
                            p["match_id"],
                            p["at"],
                            p["mu"],
                            p["sigma"],
                            p["ordinal"],
                        )
                        for p in points
                    ],
                )

    def rating_curve(self, participant: str, board: str) -> list[dict[str, Any]]:
        """The rows of one participant on one board, oldest first."""
        rows = (
            self._conn()
            .execute(
                f"SELECT match_id, ended_at, mu, sigma, ordinal FROM {HISTORY_TABLE} "
                "WHERE prefix = %s AND participant = %s AND board = %s ORDER BY ended_at, match_id",
                (self.prefix, participant, board),
            )
            .fetchall()
        )
        return [
            {"match_id": m, "at": at.isoformat(), "mu": mu, "sigma": sg, "ordinal": od}
            for m, at, mu, sg, od in rows
        ]

    def player_names(self) -> dict[str, str]:
        """player id -> name of this prefix's recorded players."""
        rows = (
            self._conn()
            .execute(
                f"SELECT player_id, name FROM {PLAYERS_TABLE} WHERE prefix = %s", (self.prefix,)
            )
            .fetchall()
        )
        return {pid: name for pid, name in rows}

    def match_ids(self) -> list[str]:
        """Every archived match id of this prefix (``arena ratings rebuild``)."""
        rows = (
            self._conn()
            .execute(f"SELECT match_id FROM {TABLE} WHERE prefix = %s", (self.prefix,))
            .fetchall()
        )
        return [row[0] for row in rows]

    def count(self) -> int:
        """How many matches of this deployment are archived."""
        row = self._one(f"SELECT count(*) FROM {TABLE} WHERE prefix = %s", (self.prefix,))
        assert row is not None  # count(*) always answers one row
        return int(row[0])


def created_ts(meta: Mapping[str, str]) -> float:
    """The creation time of a meta hash as Unix seconds (the lobby's sort key)."""
    try:
        return MatchRecord.parse("", meta).created_ts
    except (KeyError, ValueError, json.JSONDecodeError):
        return 0.0
