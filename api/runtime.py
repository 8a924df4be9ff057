"""Per-app runtime: the one :class:`MatchService` and what the API caches from it.

The app factory stores a :class:`Runtime` in ``app.extensions["arena"]``; views reach the
service with :func:`service` and the game catalogue / compiled command schemas with
:func:`runtime`. Games are static for the life of a process, so their schemas are compiled
to marshmallow once; a match never changes game, so ``match_id -> game`` is cached (LRU).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import current_app
from marshmallow import Schema

from api.schema_builder import schema_for


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
        self._commands: dict[str, dict[str, Schema]] = {}
        self._options: dict[str, Schema] = {}
        self._bot_options: dict[str, dict[str, Schema]] = {}
        self._match_games: OrderedDict[str, str] = OrderedDict()
        self._match_cache_size = match_cache_size

    def catalogue(self) -> dict[str, dict[str, Any]]:
        """``game_id -> games() entry`` (fetched once)."""
        if self._catalogue is None:
            entries = {g["id"]: g for g in self.service.games()}
            with self._lock:
                for game_id, entry in entries.items():
                    self._commands[game_id] = {
                        kind: schema_for(schema, name=f"{game_id}:{kind}")
                        for kind, schema in (entry.get("commands") or {}).items()
                    }
                    self._options[game_id] = schema_for(
                        entry.get("options_schema") or {"type": "object"},
                        name=f"{game_id}:options")
                    # bot options are strict whatever the schema says: unknown keys -> 400
                    self._bot_options[game_id] = {
                        level: schema_for({**schema, "additionalProperties": False},
                                          name=f"{game_id}:bot:{level}")
                        for level, schema in (entry.get("bot_options") or {}).items()
                    }
                self._catalogue = entries
        return self._catalogue

    def game(self, game_id: str) -> dict[str, Any] | None:
        """The catalogue entry of ``game_id`` or ``None``."""
        return self.catalogue().get(game_id)

    def command_schema(self, game_id: str, command_type: str) -> Schema | None:
        """The compiled schema of one command type, ``None`` when the game has no such type."""
        self.catalogue()
        return self._commands.get(game_id, {}).get(command_type)

    def options_schema(self, game_id: str) -> Schema:
        """The compiled schema of a game's match options."""
        self.catalogue()
        return self._options[game_id]

    def bot_options_schema(self, game_id: str, level: str) -> Schema:
        """The compiled, strict schema of a bot level's per-seat options; a level the
        catalogue lists no schema for takes none (only ``{}``)."""
        self.catalogue()
        schema = self._bot_options.get(game_id, {}).get(level)
        if schema is None:
            schema = schema_for({"type": "object", "additionalProperties": False},
                                name=f"{game_id}:bot:{level}")
        return schema

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


def runtime() -> Runtime:
    """The :class:`Runtime` of the current Flask app."""
    return current_app.extensions["arena"]


def service() -> Any:
    """The current app's ``MatchService``."""
    return runtime().service
