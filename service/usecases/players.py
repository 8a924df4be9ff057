"""Players (issue 22 item 1): create, key rotation, authentication, profile, match history.

A player is ``{id, name, created_at}`` and a player key ``pk.<id>.<secret>`` (43 URL-safe
characters of secret) shown once at creation or rotation and stored only as its SHA-256
digest; a rotation replaces the digest, so the old key stops working at once. The key sent
as ``Authorization: Bearer`` on create or join binds the seat to the player (the player id
goes into the roster in the hash chain, :mod:`service.log.roster`), and acts for that
player's seat in any match (:meth:`Players.seat_for`).

Names follow :mod:`service.usecases.player_names`. Counters ``played`` / ``won`` per game and
mode family (:mod:`service.ratings.families`) are added once per finished match
(:meth:`Players.count_end`, run by the end-of-match job); an aborted match (a seat never
made its first decision) counts for nobody, and the history says it was aborted and not
rated (:meth:`Players.matches`).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from service import errors
from service.log.envelopes import utc_iso
from service.log.match_record import MatchRecord
from service.ratings.families import family_of, modes_of
from service.ratings.inputs import aborted
from service.store.player_store import TIE_PREFIX, PlayerStore, tie_of
from service.tokens import token_digest
from service.usecases.context import MatchContext
from service.usecases.lobby import decode_owned_cursor, encode_cursor
from service.usecases.player_names import (
    check_name,
    fold,
    imitates_a_bot,
    imitates_a_label,
    imitates_a_participant,
    name_key,
)

KEY_PREFIX = "pk."
#: history entries looked at per requested entry when filters drop some (bounds a page)
SCAN_FACTOR = 10
#: what an invalid history cursor's problem names
HISTORY = "this player's match history"


def is_player_key(token: str | None) -> bool:
    """True when a bearer token has the shape of a player key (``pk.<id>.<secret>``)."""
    return isinstance(token, str) and token.startswith(KEY_PREFIX)


def _split(key: str) -> str | None:
    parts = key.split(".")
    if len(parts) != 3 or parts[0] != "pk" or not parts[1] or not parts[2]:
        return None
    return (
        parts[1] if len(parts[1]) == 16 and all(c in "0123456789abcdef" for c in parts[1]) else None
    )


class Players:
    """The player use cases over :class:`service.store.player_store.PlayerStore`."""

    def __init__(self, ctx: MatchContext, store: PlayerStore):
        self.ctx = ctx
        self.store = store

    # ------------------------------------------------------------------ identity
    def create(self, name: Any) -> dict[str, Any]:
        """A new player ``{"player_id", "name", "created_at", "key"}`` (the key shown only
        here). Raises InvalidPlayerName (``invalid_player_name``, ``player_name_reserved``,
        ``player_name_taken``)."""
        name = check_name(name, self.ctx.engines.values())
        # unique by name_key: "Аda" (Cyrillic А) is taken when "Ada" is
        player_id = secrets.token_hex(8)
        key = f"{KEY_PREFIX}{player_id}.{secrets.token_urlsafe(32)}"
        created = utc_iso(self.ctx.clock())
        if not self.store.create(
            player_id,
            name_key(name),
            {"id": player_id, "name": name, "created_at": created, "key_digest": token_digest(key)},
        ):
            raise errors.InvalidPlayerName(
                "player_name_taken",
                f"Another player is called {name!r} or a name that looks the same.",
            )
        archive = getattr(self.ctx, "archive", None)
        if archive is not None and hasattr(archive, "put_player"):
            archive.put_player(player_id, name, created)  # its key is never archived
        return {"player_id": player_id, "name": name, "created_at": created, "key": key}

    def authenticate(self, key: str) -> str:
        """The id of the player whose current key is ``key`` (constant-time compare of
        digests). Raises InvalidPlayerKey."""
        player_id = _split(key) if isinstance(key, str) else None
        raw = self.store.get(player_id) if player_id else None
        if (
            player_id is None
            or raw is None
            or not hmac.compare_digest(raw.get("key_digest", ""), token_digest(key))
        ):
            raise errors.InvalidPlayerKey()
        return player_id

    def rotate(self, player_id: str, key: str) -> dict[str, Any]:
        """A new key for ``player_id`` authenticated by its current ``key``; the old one
        stops working. The store swaps the digests only while ``key``'s is still the
        current one (:meth:`service.store.player_store.PlayerStore.swap_digest`), so of two
        rotations racing with the same key exactly one answers a key, and that key works;
        the other is InvalidPlayerKey (401), as a rotated key is. Raises PlayerNotFound,
        InvalidPlayerKey, PlayerKeyMismatch (403: a valid key of another player; nothing
        changes)."""
        self._get(player_id)
        owner = self.authenticate(key)
        if owner != player_id:
            raise errors.PlayerKeyMismatch()
        new_key = f"{KEY_PREFIX}{player_id}.{secrets.token_urlsafe(32)}"
        if not self.store.swap_digest(player_id, token_digest(key), token_digest(new_key)):
            raise errors.InvalidPlayerKey()
        return {"player_id": player_id, "key": new_key}

    def check_seat_name(self, seat: int, name: str, player_id: str | None = None) -> None:
        """Refuse a seat name that passes for someone it is not: one that imitates a bot
        level or a game's own opponent (:func:`service.usecases.player_names.imitates_a_bot`,
        the rule of player names), a label clients print for a seat (``You``, ``Seat 1
        (greedy bot)``: :func:`service.usecases.player_names.imitates_a_label`) or a rated
        participant's id (``player:<id>``, ``bot:x``, ``game:x``:
        :func:`service.usecases.player_names.imitates_a_participant`), or that is the name
        of a registered player other than ``player_id`` (the player the seat is bound to;
        ``None`` for a guest seat), compared by :func:`name_key` (NFKC, stripped,
        case-insensitive, Cyrillic/Greek look-alikes as Latin: `` Аda`` is ``Ada``) and,
        for players filed before that key, by :func:`fold`. One read (``HMGET`` of the
        name index). Raises SeatNameReserved."""
        if imitates_a_bot(name, self.ctx.engines.values()):
            raise errors.SeatNameReserved(
                seat, name, "imitates a bot level or a game's own opponent"
            )
        if imitates_a_label(name):
            raise errors.SeatNameReserved(seat, name, "reads as a label clients print for a seat")
        if imitates_a_participant(name):
            raise errors.SeatNameReserved(
                seat, name, "starts like a rated participant's id (player:, bot:, game:)"
            )
        holders = self.store.holders(list(dict.fromkeys((name_key(name), fold(name)))))
        if any(holder != player_id for holder in holders):
            raise errors.SeatNameReserved(seat, name, "is (or looks like) a registered player's")

    def name_of(self, player_id: str) -> str:
        """The name of an existing player (PlayerNotFound otherwise)."""
        return self._get(player_id)["name"]

    def _get(self, player_id: str) -> dict[str, str]:
        raw = self.store.get(player_id) if isinstance(player_id, str) else None
        if raw is None:
            raise errors.PlayerNotFound(str(player_id))
        return raw

    # ------------------------------------------------------------------ seats
    def seat_for(self, record: MatchRecord, key: str) -> int:
        """The seat of ``record`` bound to the player of ``key``. Raises InvalidPlayerKey,
        PlayerNotSeated (403)."""
        player_id = self.authenticate(key)
        seat = record.seat_of_player(player_id)
        if seat is None:
            raise errors.PlayerNotSeated()
        return seat

    def file_match(self, player_id: str, match_id: str, created_ts: float) -> None:
        """Add a match to the player's history (at creation or join)."""
        self.store.add_match(player_id, match_id, created_ts)

    def count_end(self, record: MatchRecord, events: list[Mapping[str, Any]]) -> int:
        """Count a finished match in the ``played``/``won`` counters of each bound player,
        once per match (a repeat counts nothing). ``events``: the match's envelopes. An
        aborted match (a seat never made its first decision, a resignation being none:
        :func:`service.ratings.inputs.aborted`) counts for nobody. Returns how many players
        it counted."""
        if not record.finished or aborted(list(events), len(record.seats)):
            return 0
        family = family_of(record.game, len(record.seats), record.options)
        result = record.result if isinstance(record.result, dict) else {}
        winners = set(result.get("winners") or [])
        counted = 0
        for item in record.seats:
            player_id = record.player_of(item["seat"])
            if not player_id:
                continue
            won = 1 if item["seat"] in winners else 0
            key = f"{record.game}:{family.mode}"
            if self.store.count_end(
                player_id, record.match_id, {f"played:{key}": 1, f"won:{key}": won}
            ):
                counted += 1
        return counted

    # ------------------------------------------------------------------ reads
    def profile(
        self, player_id: str, ratings_of: Callable[[str], list[dict[str, Any]]]
    ) -> dict[str, Any]:
        """``{"player_id", "name", "created_at", "played", "won", "modes": [{"game",
        "mode", "played", "won"}], "ratings": ratings_of("player:<id>")}`` (nothing
        secret: no key, digest, token or card). Raises PlayerNotFound."""
        raw = self._get(player_id)
        modes: dict[tuple[str, str], dict[str, Any]] = {}
        for field, value in raw.items():
            kind, _, rest = field.partition(":")
            if kind not in ("played", "won") or rest.count(":") != 1:
                continue
            game, mode = rest.split(":")
            entry = modes.setdefault(
                (game, mode), {"game": game, "mode": mode, "played": 0, "won": 0}
            )
            entry[kind] = int(value)
        listed = [modes[k] for k in sorted(modes)]
        return {
            "player_id": player_id,
            "name": raw["name"],
            "created_at": raw["created_at"],
            "played": sum(m["played"] for m in listed),
            "won": sum(m["won"] for m in listed),
            "modes": listed,
            "ratings": ratings_of(f"player:{player_id}"),
        }

    def matches(
        self,
        player_id: str,
        *,
        game: str | None = None,
        mode: str | None = None,
        status: str | None = None,
        rated: bool | None = None,
        cursor: str | None = None,
        limit: int = 20,
        filed: Callable[[list[str]], set[str]] | None = None,
        own: bool = False,
    ) -> dict[str, Any]:
        """One page of the player's matches, newest first: ``{"items": [{"match_id",
        "game", "mode", "status", "rated", "aborted", "seat", "won", "created_at",
        "finished_at"?, "seats"}], "next_cursor"}``, filtered by ``game``, ``mode``
        (family), ``status`` (``running``, ``finished``, ``abandoned``) and ``rated``.

        ``rated``: while the match runs, whether it was created rated; once it ended,
        whether it counted for the ratings (:func:`service.ratings.inputs.rating_input`: an
        aborted match, one a seat of which never made its first decision, is not).
        ``aborted``: ``None`` while the match runs, then whether it was aborted (it counts
        for nobody's ``played``/``won`` either). Both are read from what the end job wrote
        when it says so (the match in the player's ``counted`` set: not aborted; in
        ``filed(match_ids)``, the ratings' filed inputs: rated), else from the match's log.

        ``own``: the player itself asks (its key): its unlisted matches are listed too; to
        anyone else an unlisted match is not there (reachable by its id only, as the lobby
        keeps it: a newcomer probe found them, open seats included, in public histories).

        ``cursor``: the ``next_cursor`` of the previous page, opaque (the position of the
        last entry looked at, by its :func:`service.store.player_store.tie_of` digest, never its
        id, and the player's id: :func:`service.usecases.lobby.encode_cursor`),
        so a match filed between two pages repeats nothing. Raises PlayerNotFound,
        InvalidCursor (400: not a cursor this history gave, such as ``0``, or one of another
        player's history), UnknownGame (404) for a ``game`` the server does not serve,
        ServiceError ``unknown_mode`` (404) for a ``mode`` no served game (or not ``game``)
        has — as the leaderboard answers them."""
        self._get(player_id)
        if game is not None:
            self.ctx.engine(game)
        if mode is not None:
            served = {
                m
                for g, e in self.ctx.engines.items()
                if game in (None, g)
                for m in modes_of(g, e.min_seats, e.max_seats)
            }
            if mode not in served:
                raise errors.ServiceError(
                    "unknown_mode", 404, f"No served game has the mode {mode!r}: {sorted(served)}."
                )
        last = None if cursor is None else self._position(player_id, cursor)
        items: list[dict[str, Any]] = []
        scanned = 0
        while len(items) < limit and scanned < limit * SCAN_FACTOR:
            rows = self.store.match_page(player_id, last, limit)
            if not rows:
                return {"items": items, "next_cursor": None}
            ids = [match_id for _, match_id in rows]
            counted = self.store.counted(player_id, ids)
            rated_ids = filed(ids) if filed is not None else set()
            for position in rows:
                last = position
                scanned += 1
                match_id = position[1]
                item = self._history_item(
                    match_id, player_id, match_id in counted, match_id in rated_ids, own
                )
                if item is not None and _keeps(item, game, mode, status, rated):
                    items.append(item)
                    if len(items) == limit:
                        break
        if last is None or not self.store.match_page(player_id, last, 1):
            return {"items": items, "next_cursor": None}
        # the cursor names its entry by a digest: it may be one the reader may not see
        tie = last[1] if last[1].startswith(TIE_PREFIX) else tie_of(last[1])
        return {"items": items, "next_cursor": encode_cursor((last[0], tie), player_id)}

    def _position(self, player_id: str, cursor: str) -> tuple[float, str]:
        """The history position ``cursor`` names for ``player_id``. A cursor names the
        player whose history gave it; one naming none (given before cursors named their
        player) is taken only when its position is one of this player's entries. Raises
        InvalidCursor."""
        score, match_id, owner = decode_owned_cursor(cursor, HISTORY)
        if owner is None:
            if self.store.filed_at(player_id, match_id) != score:
                raise errors.InvalidCursor(HISTORY)
        elif owner != player_id:
            raise errors.InvalidCursor(HISTORY)
        return score, match_id

    def _history_item(
        self, match_id: str, player_id: str, counted: bool, filed: bool, own: bool
    ) -> dict[str, Any] | None:
        try:
            record = self.ctx.record(match_id)
        except errors.MatchNotFound:
            return None
        seat = record.seat_of_player(player_id)
        if seat is None or not (record.listed or own):
            return None
        family = family_of(record.game, len(record.seats), record.options)
        result = record.result if isinstance(record.result, dict) else {}
        rated, was_aborted = (
            self._outcome(record, counted, filed) if record.finished else (record.rated, None)
        )
        item: dict[str, Any] = {
            "match_id": match_id,
            "game": record.game,
            "mode": family.mode,
            "status": record.status,
            "rated": rated,
            "aborted": was_aborted,
            "seat": seat,
            "won": (seat in (result.get("winners") or [])) if record.finished else None,
            "created_at": record.created_at,
            "seats": [
                {k: e[k] for k in ("seat", "kind", "name", "bot", "player") if k in e}
                for e in record.public_seats(self.ctx.stores.seats.claimed(match_id))
            ],
        }
        if record.finished:
            item["finished_at"] = record.finished_at
        return item

    def _outcome(self, record: MatchRecord, counted: bool, filed: bool) -> tuple[bool, bool]:
        """``(rated, aborted)`` of a finished match: counted for the player (so not
        aborted) and casual or filed by the ratings (so rated) needs no read; otherwise the
        end job has not run yet, or it found the match aborted or not rated, and the log
        says which (:meth:`MatchContext.outcome`, cached per process)."""
        if counted and (filed or not record.rated):
            return record.rated and filed, False
        return self.ctx.outcome(record, record.version)


def _keeps(item: Mapping[str, Any], game, mode, status, rated) -> bool:
    return (
        (game is None or item["game"] == game)
        and (mode is None or item["mode"] == mode)
        and (status is None or item["status"] == status)
        and (rated is None or item["rated"] == rated)
    )
