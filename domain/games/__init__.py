"""Game registry: ``game_id -> Engine``. Each game is one folder exposing ``ENGINE``."""
from __future__ import annotations

from functools import lru_cache

from domain.engine import Engine


@lru_cache(maxsize=1)
def registry() -> dict[str, Engine]:
    """All installed games keyed by ``game_id`` (import is lazy to keep start-up cheap)."""
    from domain.games.ai_100_human import ENGINE as ai_100_human
    from domain.games.aipokalypse import ENGINE as aipokalypse
    from domain.games.dead_apocalypse import ENGINE as dead_apocalypse

    engines: list[Engine] = [ai_100_human, aipokalypse, dead_apocalypse]
    return {e.game_id: e for e in engines}


def get_engine(game_id: str) -> Engine | None:
    """The engine for ``game_id`` or ``None`` when no such game is installed."""
    return registry().get(game_id)
