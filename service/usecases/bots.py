"""Configured bots per (game, level, options), built once per process.

A bot seat of a match names a level and may carry per-seat ``bot_options``
(docs/CONTRACTS.md); :func:`domain.engine.build_bot` builds the configured bot. Bots are
stateless between decisions (the expert bot keeps only its ``last_rollouts`` counter), so
one built bot serves every seat and match with the same options; :class:`BotCache` keeps
the most recently used ones.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from domain.engine import Bot, build_bot
from service.log.codec import canonical_json


class BotCache:
    """LRU of built bots keyed by ``(game_id, level, canonical JSON of the options)``.

    Args:
        size: how many configured bots to keep (``>= 1``); the engine's shared bot of a
            level without options costs nothing to keep, options come from match records
            (any number of distinct ones), hence the bound.
    """

    def __init__(self, size: int = 256):
        self.size = max(1, size)
        self._bots: OrderedDict[tuple[str, str, str], Bot] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, engine: Any, level: str, options: Mapping[str, Any] | None = None) -> Bot:
        """The bot of ``level`` configured by ``options`` (``None``/``{}``: the engine's
        shared bot). Raises KeyError (unknown level) or
        :class:`domain.engine.InvalidBotOptions` as :func:`domain.engine.build_bot` does."""
        key = (engine.game_id, level, canonical_json(dict(options or {})))
        with self._lock:
            bot = self._bots.get(key)
            if bot is not None:
                self._bots.move_to_end(key)
                return bot
        bot = build_bot(engine, level, options)
        with self._lock:
            self._bots[key] = bot
            self._bots.move_to_end(key)
            while len(self._bots) > self.size:
                self._bots.popitem(last=False)
        return bot

    def __len__(self) -> int:
        with self._lock:
            return len(self._bots)
