"""Per-app runtime: the one :class:`MatchService` and what the API caches from it.

The app factory stores a :class:`Runtime` in ``app.extensions["arena"]``; views reach the
service with :func:`service` and the game catalogue / compiled command schemas with
:func:`runtime`. Games are static for the life of a process, so their JSON Schemas are
compiled once by the domain's one validator (:mod:`domain.schema_check`); a match never
changes game, so ``match_id -> game`` is cached (LRU).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from flask import current_app, g, has_request_context

from domain import schema_check
from domain.engine import NO_BOT_OPTIONS
from domain.schema_check import Checker


class Runtime:
    """The service plus caches derived from its (immutable) game catalogue.

    Args:
        service: a ``service.match_service.MatchService`` (or an object with its methods).
        match_cache_size: how many ``match_id -> game`` entries to remember.
    """

    def __init__(self, service: Any, match_cache_size: int = 4096):
        self.service = service
        self._lock = threading.Lock()
        self._catalogue: dict[str, dict[str, Any]] | None = None
        self._commands: dict[str, dict[str, Checker]] = {}
        self._options: dict[str, Checker] = {}
        self._match_games: OrderedDict[str, str] = OrderedDict()
        self._match_cache_size = match_cache_size

    def catalogue(self) -> dict[str, dict[str, Any]]:
        """``game_id -> games() entry`` (fetched once)."""
        if self._catalogue is None:
            entries = {g["id"]: g for g in self.service.games()}
            with self._lock:
                for game_id, entry in entries.items():
                    self._commands[game_id] = {
                        kind: schema_check.checker(schema)
                        for kind, schema in (entry.get("commands") or {}).items()
                    }
                    self._options[game_id] = schema_check.checker(
                        entry.get("options_schema") or {"type": "object"}
                    )
                self._catalogue = entries
        return self._catalogue

    def game(self, game_id: str) -> dict[str, Any] | None:
        """The catalogue entry of ``game_id`` or ``None``."""
        return self.catalogue().get(game_id)

    def command_schema(self, game_id: str, command_type: str) -> Checker | None:
        """The compiled schema of one command type, ``None`` when the game has no such type."""
        self.catalogue()
        return self._commands.get(game_id, {}).get(command_type)

    def options_schema(self, game_id: str) -> Checker:
        """The compiled schema of a game's match options."""
        self.catalogue()
        return self._options[game_id]

    def bot_options_schema(self, game_id: str, level: str) -> Mapping[str, Any]:
        """The JSON Schema of a bot level's per-seat options as the catalogue lists it (the
        same object each time, so its compiled check is found by identity); a level it lists
        none for takes none (:data:`domain.engine.NO_BOT_OPTIONS`, only ``{}``). Check
        options against it with :func:`domain.engine.check_bot_options` (strict: unknown
        keys are refused)."""
        return (self.game(game_id) or {}).get("bot_options", {}).get(level) or NO_BOT_OPTIONS

    def game_of(self, match_id: str) -> str:
        """The game a match plays (cached; a miss asks the service for the spectator view).

        Raises:
            ServiceError: 404 ``match_not_found``.
        """
        with self._lock:
            game = self._match_games.get(match_id)
            if game is not None:
                self._match_games.move_to_end(match_id)
                return game
        cached = getattr(self.service, "cached_game", None)
        game = cached(match_id) if cached is not None else None
        if game is None:  # e.g. the bearer's seat check read the head into the fold cache
            game = self.service.match_view(match_id, None)["game"]
        self.remember(match_id, game)
        return game

    def remember(self, match_id: str, game: str) -> None:
        """Record ``match_id -> game`` (e.g. right after creating the match)."""
        with self._lock:
            self._match_games[match_id] = game
            self._match_games.move_to_end(match_id)
            while len(self._match_games) > self._match_cache_size:
                self._match_games.popitem(last=False)


def warm(app: Any) -> bool:
    """Load ``app``'s game catalogue now (every game's module, card data and compiled
    command schemas: about 1.6 s of CPU for the four games), so a fresh gunicorn worker does
    it before it accepts a connection, not inside its first requests (which then answered
    1-2 s late, and a benchmark window that began with them counted it as CPU per move).
    Returns False when ``app`` is not this API's Flask app (another WSGI callable)."""
    arena = getattr(app, "extensions", {}).get("arena")
    if not isinstance(arena, Runtime):
        return False
    arena.catalogue()
    return True


def runtime() -> Runtime:
    """The :class:`Runtime` of the current Flask app."""
    return current_app.extensions["arena"]


def service() -> Any:
    """The current app's ``MatchService``; inside a request, bound to that request's own
    reads (``MatchService.for_request``, made once per request and kept on ``g``): the
    head a seat check read is reused by the same request's next read only."""
    plain = runtime().service
    if not has_request_context():
        return plain
    bound = g.get("arena_service")
    if bound is None:
        for_request = getattr(plain, "for_request", None)
        bound = for_request() if for_request is not None else plain
        g.arena_service = bound
    return bound
