"""The match record kept in ``P:{mid}:meta``: static facts plus the head of the stream."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from service.log.codec import LOG_FORMAT_V1, loads


def _seconds(text: str) -> int | float:
    """A stored number of seconds: ``int`` when integral (``"300.0"`` -> ``300``)."""
    value = float(text)
    return int(value) if value.is_integer() else value


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """Parsed meta hash of one match.

    ``seats``: list of ``{"seat", "kind": "human"|"bot"|"open", "bot"?, "bot_options"?,
    "name"?}`` as created (``bot_options``: the validated, non-empty per-seat options of a
    bot seat; public, like the level);
    ``names``: seat -> name given at join; ``pending``: seat -> decision kind at ``version``;
    ``decisions``: seat -> ``[since, kind]`` for each pending seat: the version its current
    decision started at (see :func:`service.usecases.decisions.decisions_after`); matches stored
    before decisions were tracked give every pending seat ``since`` 0;
    ``seed``: 32 secret bytes (never leaves the server before the result);
    ``status``: ``running``, ``finished`` or ``abandoned`` (no human acted for
    ``ARENA_ABANDON_AFTER_S``; a finished match too, see :attr:`finished`);
    ``listed``: shown in the lobby (``unlisted: true`` at creation makes it False);
    ``spectators``: tokenless reads allowed while running (``spectators: false`` at
    creation makes them 403); ``human_at``: ISO time of the last human command (or the
    creation); ``finished_at``: ISO time of the event that ended it (``""`` while
    running); ``resigned``: seats that resigned (auto-played by the timeout policy when
    the game plays on); ``rematch``: id of this finished match's rematch (``""``: none);
    ``quota_client``: the client whose running bot matches count this one
    (:mod:`service.store.quotas`; ``""``: none); ``compacted``: bytes of the compacted log
    once the finished match was compacted (0: its event stream is in Redis,
    :mod:`service.upkeep.compaction`); ``archived``: read from the PostgreSQL archive
    (:mod:`service.upkeep.archive`); ``log_format``: the format its hash chain has
    (:mod:`service.log.codec`; ``apocalypse-arena/log@1`` for matches stored before log@2);
    ``players``: seat -> player id bound at join (``player:<seat>`` fields; a seat bound at
    creation has ``player`` in its ``seats`` entry); ``rated``: created with ``rated: true``
    (issue 22);
    ``turn_timeout_s``: seconds, an ``int`` when integral (``300``, also for matches stored
    as ``300.0``).
    Matches stored before these fields existed read as listed, spectated, nobody resigned.
    """

    match_id: str
    game: str
    version: int
    head_hash: str
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    seed: bytes
    seed_commitment: str
    status: str
    pending: dict[int, str]
    result: Any
    turn_timeout_s: float | None
    created_at: str
    names: dict[int, str]
    forked_from: Any
    decisions: dict[int, list]
    listed: bool = True
    spectators: bool = True
    human_at: str = ""
    finished_at: str = ""
    resigned: frozenset = frozenset()
    rematch: str = ""
    quota_client: str = ""
    compacted: int = 0
    archived: bool = False
    log_format: str = LOG_FORMAT_V1
    players: dict[int, str] = field(default_factory=dict)
    rated: bool = False

    @classmethod
    def parse(cls, match_id: str, meta: Mapping[str, str]) -> MatchRecord:
        """Build from the raw hash (strings); ``KeyError`` when fields are missing."""
        names = {int(k[5:]): v for k, v in meta.items() if k.startswith("name:")}
        players = {int(k[7:]): v for k, v in meta.items() if k.startswith("player:")}
        timeout = meta.get("turn_timeout_s") or ""
        pending = {int(k): v for k, v in loads(meta.get("pending", "{}")).items()}
        raw_decisions = meta.get("decisions")
        decisions = (
            {int(k): v for k, v in loads(raw_decisions).items()}
            if raw_decisions
            else {seat: [0, kind] for seat, kind in pending.items()}
        )
        return cls(
            match_id=match_id,
            game=meta["game"],
            version=int(meta.get("version", 0)),
            head_hash=meta.get("head_hash", ""),
            seats=loads(meta["seats"]),
            options=loads(meta["options"]),
            seed=bytes.fromhex(meta["seed"]),
            seed_commitment=meta["seed_commitment"],
            status=meta.get("status", "running"),
            pending=pending,
            result=loads(meta.get("result", "null")),
            turn_timeout_s=_seconds(timeout) if timeout else None,
            created_at=meta.get("created_at", ""),
            names=names,
            forked_from=loads(meta.get("forked_from", "null")),
            decisions=decisions,
            listed=meta.get("listed", "1") != "0",
            spectators=meta.get("spectators", "1") != "0",
            human_at=meta.get("human_at") or meta.get("created_at", ""),
            finished_at=meta.get("finished_at", ""),
            resigned=frozenset(loads(meta.get("resigned") or "[]")),
            rematch=meta.get("rematch", ""),
            quota_client=meta.get("quota_client", ""),
            compacted=int(meta.get("compacted") or 0),
            archived=meta.get("archived") == "1",
            log_format=meta.get("log_format") or LOG_FORMAT_V1,
            players=players,
            rated=meta.get("rated") == "1",
        )

    @property
    def finished(self) -> bool:
        """True once the match has a result (``finished`` or ``abandoned``)."""
        return self.status in ("finished", "abandoned")

    @property
    def created_ts(self) -> float:
        """The creation time as Unix seconds (the lobby's sort key; 0 when unknown)."""
        try:
            return datetime.fromisoformat(self.created_at).timestamp()
        except ValueError:
            return 0.0

    def open_seats(self, claimed: set[int]) -> list[int]:
        """The ``open`` seats nobody joined yet."""
        return [s["seat"] for s in self.seats if s["kind"] == "open" and s["seat"] not in claimed]

    def lobby_bucket(self, claimed: set[int]) -> str:
        """``finished`` (also abandoned), ``open`` (running with a seat to join) or
        ``running`` (the lobby index bucket, :mod:`service.store.match_index`)."""
        if self.finished:
            return "finished"
        return "open" if self.open_seats(claimed) else "running"

    def plays_itself(self, seat: int) -> bool:
        """True when a worker decides for ``seat``: a bot seat, or a seat that resigned
        in a match that plays on (its decisions go to the game's timeout policy)."""
        return self.is_bot(seat) or seat in self.resigned

    def seat_kind(self, seat: int, claimed: bool) -> str:
        """``bot``, ``human``, or ``open`` (an open seat nobody joined yet)."""
        kind = self.seats[seat]["kind"]
        if kind == "open":
            return "human" if claimed else "open"
        return kind

    def is_bot(self, seat: int) -> bool:
        """True when ``seat`` is played by a bot."""
        return self.seats[seat]["kind"] == "bot"

    def bot_options(self, seat: int) -> dict[str, Any]:
        """The per-seat bot options of ``seat`` (``{}``: the level's defaults; also for
        matches stored before bot options existed)."""
        return dict(self.seats[seat].get("bot_options") or {})

    def public_seats(self, claimed: set[int]) -> list[dict[str, Any]]:
        """Seat list for any viewer: kind, bot level and bot options, name (never tokens)."""
        out = []
        for item in self.seats:
            seat = item["seat"]
            entry: dict[str, Any] = {"seat": seat, "kind": self.seat_kind(seat, seat in claimed)}
            if item.get("bot"):
                entry["bot"] = item["bot"]
            if item.get("bot_options"):
                entry["bot_options"] = dict(item["bot_options"])
            name = self.names.get(seat) or item.get("name")
            if name:
                entry["name"] = name
            player = self.player_of(seat)
            if player:
                entry["player"] = player
            out.append(entry)
        return out

    def player_of(self, seat: int) -> str | None:
        """The id of the player ``seat`` is bound to (at creation or join), or ``None``."""
        return self.players.get(seat) or self.seats[seat].get("player")

    def seat_of_player(self, player_id: str) -> int | None:
        """The seat bound to ``player_id`` (the lowest one), or ``None``."""
        for item in self.seats:
            if self.player_of(item["seat"]) == player_id:
                return item["seat"]
        return None
