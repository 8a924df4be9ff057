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
"""

from __future__ import annotations

import json
import logging
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
        """The end-of-match job: count the match for its players, file it when it is
        rated, and advance the fold. Returns ``{"status", "counted", "rated" (the reason
        when not), "folded"}``; a running or unknown match is a no-op."""
        try:
            record = self.ctx.record(match_id)
        except errors.MatchNotFound:
            return {"status": "unknown"}
        if not record.finished:
            return {"status": "running"}
        counted = self.players.count_end(record)
        outcome: Any = "casual"
        if record.rated:
            doc = {
                "match_id": match_id,
                "events": self.ctx.envelopes(match_id, record, upto=record.version),
            }
            outcome = rating_input(doc)
            if isinstance(outcome, RatingInput):
                self.store.register(
                    match_id, outcome.end_us, json.dumps(outcome.to_json(), sort_keys=True)
                )
        folded = self.advance()
        return {
            "status": "ok",
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
                self._archive(ops)
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
        ops: list[tuple] = []
        for match in inputs:
            mine = {
                p: current.get((match.board, p)) or start_rating(match.board, p, self.starts)
                for p in participants(match)
            }
            for p, rating in rate(match, mine).items():
                current[(match.board, p)] = rating
                ops += self._rating_ops(match.board, p, rating)
                ops.append(
                    (
                        "L",
                        self.store.key(f"history:{p}"),
                        json.dumps(history_entry(match, rating), sort_keys=True),
                    )
                )
        return ops, inputs[-1]

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
        for board in sorted(table):
            for p in sorted(table[board]):
                ops += self._rating_ops(board, p, table[board][p])
        for p in sorted(history):
            for point in history[p]:
                ops.append(("L", self.store.key(f"history:{p}"), json.dumps(point, sort_keys=True)))
        last = max(inputs, key=lambda m: m.order) if inputs else None
        new = {
            "applied": applied,
            "match_id": last.match_id if last else None,
            "end_us": last.end_us if last else None,
        }
        if last is None:
            new = {"applied": 0}
        if not self.store.apply(raw, new, ops):
            return False
        self._archive(ops, replace_all=True)
        return True

    def _archive(self, ops: list[tuple], replace_all: bool = False) -> None:
        """Copy the curve points just written to the archive's ``arena_rating_history``
        when an archive is configured (after the Redis script: a crash in between leaves
        rows missing that ``arena ratings rebuild --write`` restores). A failing archive is
        logged, never fails the fold."""
        archive = getattr(self.ctx, "archive", None)
        if archive is None or not hasattr(archive, "put_rating_points"):
            return
        prefix = self.store.key("history:")
        points = []
        for op in ops:
            if op[0] == "L" and op[1].startswith(prefix):
                point = json.loads(op[2])
                points.append(
                    {
                        **point,
                        "participant": op[1][len(prefix) :],
                        "ordinal": ordinal(point["mu"], point["sigma"]),
                    }
                )
        try:
            archive.put_rating_points(points, replace_all=replace_all)
        except Exception:
            log.exception("archiving %d rating points failed", len(points))

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
        "bot" | "game", "player_id"?, "bot"?, "mu", "sigma", "ordinal", "matches",
        "provisional"}]}``; names are the caller's to add. Raises UnknownGame,
        ServiceError ``unknown_mode`` (404)."""
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
        for place, (who, _score, rating) in enumerate(rows, start=offset + 1):
            entry: dict[str, Any] = {"rank": place, "participant": who}
            kind, _, rest = who.partition(":")
            entry["kind"] = kind
            if kind == "player":
                entry["player_id"] = rest
            elif kind == "bot":
                entry["bot"] = rest.partition(":")[2]
            pub = public(who, board, rating)
            entry.update({k: pub[k] for k in ("mu", "sigma", "ordinal", "matches", "provisional")})
            items.append(entry)
        return {"game": game, "mode": mode, "total": total, "offset": offset, "items": items}


def replay(docs: Iterable[Mapping[str, Any]], starts=None) -> dict[str, Any]:
    """The ratings computed from export documents alone (``arena ratings replay``):
    ``{"rated", "skipped", "boards": {board: [public rating + "participant"], best
    first}}``."""
    inputs: list[RatingInput] = []
    skipped: dict[str, int] = {}
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
    return {"rated": len(inputs), "skipped": skipped, "boards": boards}
