"""The ratings projection's use cases (issue 22 items 2-4): the end-of-match job, the fold's
advance with its checkpoint, rebuild from stored logs, replay from exports, leaderboards.

Exactly once per match: the job files the match's input (``HSETNX`` + ``ZADD NX``: a repeat
files nothing), then :meth:`Ratings.advance` folds every filed match after the checkpoint,
in end order, and writes the new ratings together with the new checkpoint in one script
that runs only if the checkpoint is still the one it read
(:meth:`service.store.rating_store.RatingStore.apply`). A worker killed before that script
changed nothing; one killed after it left a checkpoint past the match, so the repeat folds
nothing. Two workers racing compute from the same checkpoint; one script wins, the other
re-reads and finds nothing left. A match filed late with an end before the checkpoint (its
job ran after a later match's) makes the next advance refold every filed input from the
start, so the table always equals the fold in end order, which is what ``rebuild`` and
``replay`` compute from the logs.

Never lost: the append that ends a match with a player files it in its index shard's
``end-jobs`` set (:class:`service.store.end_jobs.EndJobs`, in the append's own script); the
job takes it out only once the counters, the fold and the archive's rows are done. A job
never enqueued, or whose worker died, leaves it there, and every reconcile pass enqueues
the job again (:meth:`service.upkeep.reconcile.Reconciler.reconcile`). The job being
idempotent, a match counts once however often it runs.

The archive (PostgreSQL ``arena_rating_history``, when configured) is written after the
Redis script, from the projection's own record: the script files each folded match's
rating points in ``points`` (and a refold sets ``pg-refold``); the job then upserts its
match's rows (:meth:`Ratings.sync_archive`, keyed by match and participant), or replaces
every row after a refold. A crash in between leaves the match in ``end-jobs``, so the
retried job writes the rows again.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from service import errors
from service.ratings.families import modes_of
from service.ratings.fold import (
    fold,
    history_entry,
    load_bot_ratings,
    ordinal,
    participants,
    public,
    rate,
    start_rating,
)
from service.ratings.inputs import RatingInput, rating_input
from service.store.rating_store import RatingStore
from service.usecases.context import MatchContext

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 50


class Ratings:
    """See module docstring. ``players``: :class:`service.usecases.players.Players` (its
    counters are updated by the same job)."""

    def __init__(self, ctx: MatchContext, store: RatingStore, players: Any):
        self.ctx = ctx
        self.store = store
        self.players = players
        self.starts = load_bot_ratings()

    # ---------------------------------------------------------------- the job
    def on_match_ended(self, match_id: str) -> dict[str, Any]:
        """The end-of-match job: count the match for its players (not when it was aborted:
        :meth:`service.usecases.players.Players.count_end`), file it when it is rated,
        advance the fold and write the match's rows to the archive (when one is
        configured), then take the match out of the ``end-jobs`` set. Returns ``{"status",
        "counted", "rated" (the reason when not), "folded"}``; a running or unknown match
        is a no-op. An archive failure answers ``status`` ``"archive_failed"`` and leaves
        the match in ``end-jobs`` (reconcile runs the job again)."""
        end_jobs = self.ctx.stores.end_jobs
        try:
            record = self.ctx.record(match_id)
        except errors.MatchNotFound:
            end_jobs.done(match_id)
            return {"status": "unknown"}
        if not record.finished:
            return {"status": "running"}
        events = self.ctx.envelopes(match_id, record, upto=record.version)
        counted = self.players.count_end(record, events)
        outcome: Any = "casual"
        if record.rated:
            outcome = rating_input({"match_id": match_id, "events": events})
            if isinstance(outcome, RatingInput):
                self.store.register(
                    match_id, outcome.end_us, json.dumps(outcome.to_json(), sort_keys=True)
                )
        folded = self.advance()
        status = "ok"
        if isinstance(outcome, RatingInput):
            try:
                self.sync_archive(match_id)
            except errors.ServiceError:
                raise
            except Exception:  # noqa: BLE001 - PostgreSQL down: reconcile runs the job again
                log.exception("archiving the rating rows of %s failed; retried", match_id)
                status = "archive_failed"
        if status == "ok":
            end_jobs.done(match_id)
        return {
            "status": status,
            "counted": counted,
            "rated": True if isinstance(outcome, RatingInput) else outcome,
            "folded": folded,
        }

    def advance(self) -> int:
        """Fold every filed match after the checkpoint (see module docstring); returns
        how many this call folded."""
        for _attempt in range(MAX_ATTEMPTS):
            raw, point = self.store.checkpoint()
            applied = int(point.get("applied", 0))
            rank = self.store.rank(point["match_id"]) if point.get("match_id") else -1
            if rank is None or rank + 1 != applied:
                if self._refold(raw):  # a match was filed before the checkpoint
                    return len(self.store.ended())
                continue
            pending = self.store.ended(applied)
            if not pending:
                return 0
            inputs = [
                RatingInput.from_json(json.loads(text))
                for text in self.store.inputs([m for m, _ in pending])
                if text
            ]
            ops, last = self._incremental(inputs)
            new = {
                "applied": applied + len(pending),
                "match_id": last.match_id,
                "end_us": last.end_us,
            }
            if self.store.apply(raw, new, ops):
                return len(pending)
        raise errors.ServiceError("ratings_busy", 503, "The ratings are being updated; try again.")

    def _incremental(self, inputs: list[RatingInput]) -> tuple[list[tuple], RatingInput]:
        """The writes of folding ``inputs`` (in order) into the stored table."""
        current: dict[tuple[str, str], dict[str, Any]] = {}
        needed: dict[str, set[str]] = {}
        for match in inputs:
            needed.setdefault(match.board, set()).update(participants(match))
        for board, who in needed.items():
            for p, rating in self.store.ratings(board, sorted(who)).items():
                current[(board, p)] = rating
        ops: list[tuple] = self._name_ops(set().union(*needed.values()))
        archived = self._archived()
        for match in inputs:
            mine = {
                p: current.get((match.board, p)) or start_rating(match.board, p, self.starts)
                for p in participants(match)
            }
            points = []
            for p, rating in rate(match, mine).items():
                current[(match.board, p)] = rating
                ops += self._rating_ops(match.board, p, rating)
                entry = history_entry(match, rating)
                ops.append(("L", self.store.key(f"history:{p}"), json.dumps(entry, sort_keys=True)))
                points.append({"participant": p, **entry})
            if archived:
                ops.append(self._points_op(match.match_id, points))
        return ops, inputs[-1]

    def _archived(self) -> bool:
        """True when an archive takes the rating history (the ``points`` record is kept)."""
        archive = getattr(self.ctx, "archive", None)
        return archive is not None and hasattr(archive, "put_rating_points")

    def _points_op(self, match_id: str, points: list[dict[str, Any]]) -> tuple:
        return (
            "H",
            self.store.key("points"),
            match_id,
            json.dumps(sorted(points, key=lambda p: p["participant"]), sort_keys=True),
        )

    def _name_ops(self, who: Iterable[str]) -> list[tuple]:
        """``names`` writes for the players among ``who`` (one pipelined read of their
        hashes): the leaderboard reads the names with the board in one script."""
        ids = sorted(p[len("player:") :] for p in who if p.startswith("player:"))
        found = self.players.store.get_many(ids)
        return [
            ("h", self.store.key("names"), f"player:{pid}", raw.get("name", ""))
            for pid, raw in sorted(found.items())
        ]

    def _rating_ops(self, board: str, p: str, rating: Mapping[str, Any]) -> list[tuple]:
        return [
            ("H", self.store.key(f"table:{board}"), p, json.dumps(dict(rating), sort_keys=True)),
            (
                "Z",
                self.store.key(f"board:{board}"),
                repr(ordinal(rating["mu"], rating["sigma"])),
                p,
            ),
        ]

    def _refold(self, raw: str) -> bool:
        """Rewrite the whole table as the fold of every filed input (CAS on ``raw``)."""
        ended = self.store.ended()
        texts = self.store.inputs([m for m, _ in ended])
        inputs = [RatingInput.from_json(json.loads(t)) for t in texts if t]
        return self._write_all(raw, inputs, len(ended))

    def _write_all(self, raw: str, inputs: list[RatingInput], applied: int) -> bool:
        table, history = fold(inputs, self.starts)
        ops: list[tuple] = [("D", key) for key in self.store.written()]
        ops += self._name_ops({p for rows in table.values() for p in rows})
        for board in sorted(table):
            for p in sorted(table[board]):
                ops += self._rating_ops(board, p, table[board][p])
        points: dict[str, list[dict[str, Any]]] = {}
        for p in sorted(history):
            for point in history[p]:
                ops.append(("L", self.store.key(f"history:{p}"), json.dumps(point, sort_keys=True)))
                points.setdefault(point["match_id"], []).append({"participant": p, **point})
        if self._archived():
            ops += [self._points_op(m, points[m]) for m in sorted(points)]
            token = secrets.token_hex(8)
            ops += [
                ("s", self.store.key("pg-gen"), token),
                ("s", self.store.key("pg-refold"), token),
            ]
        last = max(inputs, key=lambda m: m.order) if inputs else None
        new = {
            "applied": applied,
            "match_id": last.match_id if last else None,
            "end_us": last.end_us if last else None,
        }
        if last is None:
            new = {"applied": 0}
        return self.store.apply(raw, new, ops)

    def sync_archive(self, match_id: str | None = None) -> int:
        """Write the archive's ``arena_rating_history`` rows from the projection's record:
        every row again when a refold is pending (``pg-refold``: one transaction replacing
        them all), else the rows of ``match_id`` (an upsert keyed by match and
        participant, so a repeat rewrites the same values). When a refold happened while
        it wrote (``pg-gen`` changed), it writes again, so a row written from points read
        before the refold never stays. Returns how many rows it wrote (0 without an
        archive). Raises what the archive raises (the job leaves its match in
        ``end-jobs``)."""
        if not self._archived():
            return 0
        archive: Any = self.ctx.archive
        written = 0
        for _attempt in range(MAX_ATTEMPTS):
            gen, refold, raw = self.store.archive_state(match_id)
            if refold:
                rows = [self._row(p) for p in self.store.all_points()]
                archive.put_rating_points(rows, replace_all=True)
                self.store.clear_refold(refold)
                written += len(rows)
            elif raw:
                rows = [self._row(p) for p in json.loads(raw)]
                archive.put_rating_points(rows)
                written += len(rows)
            if self.store.generation() == gen:
                return written
        raise errors.ServiceError("ratings_busy", 503, "The ratings are being updated; try again.")

    @staticmethod
    def _row(point: Mapping[str, Any]) -> dict[str, Any]:
        return {**point, "ordinal": ordinal(point["mu"], point["sigma"])}

    # ---------------------------------------------------------------- rebuild, replay
    def inputs_from_logs(
        self, match_ids: Iterable[str]
    ) -> tuple[list[RatingInput], dict[str, int]]:
        """The rating inputs of the finished rated matches among ``match_ids`` read from
        their stored (or archived) logs, and a count of the reasons of the others."""
        found: list[RatingInput] = []
        reasons: dict[str, int] = {}
        for match_id in sorted(match_ids):
            try:
                record = self.ctx.record(match_id)
            except errors.MatchNotFound:
                continue
            if not record.finished:
                reasons["running"] = reasons.get("running", 0) + 1
                continue
            doc = {
                "match_id": match_id,
                "events": self.ctx.envelopes(match_id, record, upto=record.version),
            }
            outcome = rating_input(doc)
            if isinstance(outcome, RatingInput):
                found.append(outcome)
            else:
                reasons[outcome] = reasons.get(outcome, 0) + 1
        return found, reasons

    def rebuild(self, match_ids: Iterable[str], write: bool = False) -> dict[str, Any]:
        """Recompute every rating from the logs of ``match_ids``: ``{"rated", "skipped"
        (reason -> count), "same" (the live table equals the rebuilt one), "written"}``.
        ``write``: replace the live table (and the filed inputs) by the rebuilt one."""
        inputs, reasons = self.inputs_from_logs(match_ids)
        table, history = fold(inputs, self.starts)
        same = self.live_table() == (table, history)
        written = False
        if write:
            self.store.forget_inputs()
            for match in inputs:
                self.store.register(
                    match.match_id, match.end_us, json.dumps(match.to_json(), sort_keys=True)
                )
            for _attempt in range(MAX_ATTEMPTS):
                raw, _ = self.store.checkpoint()
                if self._write_all(raw, inputs, len(inputs)):
                    written = True
                    break
            self.sync_archive()
        return {"rated": len(inputs), "skipped": reasons, "same": same, "written": written}

    def live_table(
        self,
    ) -> tuple[dict[str, dict[str, dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
        """The stored ``(table, history)`` in the shape of :func:`service.ratings.fold.fold`."""
        table: dict[str, dict[str, dict[str, Any]]] = {}
        history: dict[str, list[dict[str, Any]]] = {}
        prefix = self.store.key("")
        for key, value in self.store.snapshot().items():
            name = key[len(prefix) :]
            if name.startswith("table:") and value:
                table[name[6:]] = {p: json.loads(v) for p, v in value.items()}
            elif name.startswith("history:") and value:
                history[name[8:]] = [json.loads(v) for v in value]
        return table, history

    # ---------------------------------------------------------------- reads
    def filed(self, match_ids: list[str]) -> set[str]:
        """Those of ``match_ids`` filed as rated matches (their input in the ratings hash:
        the end job or a rebuild found them rated); one ``HMGET``."""
        found = self.store.inputs(list(match_ids))
        return {m for m, text in zip(match_ids, found, strict=True) if text}

    def ratings_of(self, participant: str) -> list[dict[str, Any]]:
        """Every rating of one participant, with its curve (``history``: the ordinal after
        each rated match)."""
        boards = [
            f"{game}:{mode}"
            for game in sorted(self.ctx.engines)
            for mode in modes_of(
                game, self.ctx.engines[game].min_seats, self.ctx.engines[game].max_seats
            )
        ]
        found = self.store.ratings_of(participant, boards)
        curve = self.store.history(participant)
        out = []
        for board, rating in found.items():
            entry = public(participant, board, rating)
            entry["history"] = [
                {"match_id": h["match_id"], "at": h["at"], "ordinal": ordinal(h["mu"], h["sigma"])}
                for h in curve
                if h["board"] == board
            ]
            out.append(entry)
        return out

    def leaderboard(
        self, game: str, mode: str | None, offset: int = 0, limit: int = 50
    ) -> dict[str, Any]:
        """One page of the ``game``/``mode`` leaderboard, best ordinal first: ``{"game",
        "mode", "total", "offset", "items": [{"rank", "participant", "kind": "player" |
        "bot" | "game", "player_id"?, "name"?, "bot"?, "mu", "sigma", "ordinal",
        "matches", "provisional"}]}``. One Redis round trip: a script reads the board, the
        ratings and the players' names (all on the ratings slot); a player rated before
        names were kept there costs one more read, which files the name for the next
        time. Raises UnknownGame, ServiceError ``unknown_mode`` (404)."""
        engine = self.ctx.engine(game)
        modes = modes_of(game, engine.min_seats, engine.max_seats)
        mode = mode or modes[0]
        if mode not in modes:
            raise errors.ServiceError(
                "unknown_mode", 404, f"{game} has no rated mode {mode!r}; one of {list(modes)}."
            )
        board = f"{game}:{mode}"
        total, rows = self.store.page(board, offset, limit)
        items = []
        unnamed = []
        for place, (who, _score, rating, name) in enumerate(rows, start=offset + 1):
            entry: dict[str, Any] = {"rank": place, "participant": who}
            kind, _, rest = who.partition(":")
            entry["kind"] = kind
            if kind == "player":
                entry["player_id"] = rest
                entry["name"] = name
                if name is None:
                    unnamed.append(entry)
            elif kind == "bot":
                entry["bot"] = rest.partition(":")[2]
            pub = public(who, board, rating)
            entry.update({k: pub[k] for k in ("mu", "sigma", "ordinal", "matches", "provisional")})
            items.append(entry)
        if unnamed:
            found = self.players.store.get_many(sorted({e["player_id"] for e in unnamed}))
            names = {f"player:{pid}": raw.get("name", "") for pid, raw in found.items()}
            self.store.set_names(names)
            for entry in unnamed:
                entry["name"] = names.get(entry["participant"], "")
        return {"game": game, "mode": mode, "total": total, "offset": offset, "items": items}


def unique_matches(
    docs: Iterable[Mapping[str, Any]],
) -> tuple[list[Mapping[str, Any]], dict[str, int]]:
    """``docs`` (export documents) with each ``match_id`` once, and match id -> how many
    more times it was given. Of one match's documents the one with the most events is
    kept (an export taken later holds the earlier one's events and more); documents
    without a ``match_id`` are all kept."""
    kept: dict[str, Mapping[str, Any]] = {}
    unnamed: list[Mapping[str, Any]] = []
    duplicates: dict[str, int] = {}
    for doc in docs:
        match_id = doc.get("match_id")
        if not isinstance(match_id, str) or not match_id:
            unnamed.append(doc)
            continue
        if match_id in kept:
            duplicates[match_id] = duplicates.get(match_id, 0) + 1
            if len(doc.get("events") or []) <= len(kept[match_id].get("events") or []):
                continue
        kept[match_id] = doc
    return [*kept.values(), *unnamed], duplicates


def replay(docs: Iterable[Mapping[str, Any]], starts=None) -> dict[str, Any]:
    """The ratings computed from export documents alone (``arena ratings replay``):
    ``{"rated", "skipped", "duplicates", "boards": {board: [public rating +
    "participant"], best first}}``. Each match counts once however often it is given
    (:func:`unique_matches`); ``duplicates``: match id -> the copies left out."""
    inputs: list[RatingInput] = []
    skipped: dict[str, int] = {}
    docs, duplicates = unique_matches(docs)
    for doc in docs:
        outcome = rating_input(doc)
        if isinstance(outcome, RatingInput):
            inputs.append(outcome)
        else:
            skipped[outcome] = skipped.get(outcome, 0) + 1
    table, _history = fold(inputs, starts)
    boards = {}
    for board, rows in sorted(table.items()):
        listed = [{"participant": p, **public(p, board, r)} for p, r in rows.items()]
        boards[board] = sorted(listed, key=lambda e: (-e["ordinal"], e["participant"]))
    return {"rated": len(inputs), "skipped": skipped, "duplicates": duplicates, "boards": boards}
