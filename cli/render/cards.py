"""The public card data of one game, as ``GET /v1/games/{game}/cards`` answers it.

The terminal renderers look every printed card face up here (names, colours, numbers,
connectors, effect text) instead of importing ``domain``: the same data a third-party
client gets. Views name cards by catalogue id (``"001"``, ``"B017"``), by a second copy's
id (``"B017-2"``, A.I.Pokalypse's 5-8 Player Variant) or by an instance id
(``"shotgun#2"``, ``"survivor#s0.4"``, Dead Apocalypse); :meth:`CardBook.get` resolves all
three.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cli.render.phrases import Phrasebook


class CardBook:
    """Card faces by id from a ``GameCards`` document (``{"game", "cards": [{"id", ...}],
    "objectives"?: [{"id", "text", ...}], "phrasebook"?: {...}}``, openapi.yaml
    ``GameCards``).

    ``get`` and ``objective`` answer ``None`` for an id the document does not list (a card
    the server added later is then drawn by its id alone, never an error).
    """

    def __init__(self, document: Mapping[str, Any] | None = None):
        document = document or {}
        self.game: str | None = document.get("game")
        self.cards: dict[str, dict[str, Any]] = {
            str(card["id"]): dict(card)
            for card in document.get("cards") or []
            if isinstance(card, Mapping) and "id" in card
        }
        self.objectives: dict[str, dict[str, Any]] = {
            str(o["id"]): dict(o)
            for o in document.get("objectives") or []
            if isinstance(o, Mapping) and "id" in o
        }
        for objective in self.objectives.values():
            objective.setdefault("kind", "objective")
        #: the game's phrasebook (``None``: the server sends none): every event and command
        #: in the rulebook's words, said by :attr:`phrases`
        self.phrasebook: dict[str, Any] | None = document.get("phrasebook") or None
        self.phrases = Phrasebook(self.phrasebook, self.face) if self.phrasebook else None

    def get(self, card_id: Any) -> dict[str, Any] | None:
        """The face of ``card_id``: the exact id, else the id before ``#`` (an instance),
        else without a trailing ``-2`` (a second copy); ``None`` when unknown or not a str."""
        if not isinstance(card_id, str) or not card_id:
            return None
        for key in (
            card_id,
            card_id.split("#", 1)[0],
            card_id[:-2] if card_id.endswith("-2") else None,
        ):
            if key and key in self.cards:
                return self.cards[key]
        return None

    def face(self, card_id: Any) -> dict[str, Any] | None:
        """A card's or an objective's face (the phrasebook names both)."""
        return self.get(card_id) or self.objective(card_id)

    def objective(self, objective_id: Any) -> dict[str, Any] | None:
        """The objective card ``objective_id`` (AI: 100% Human) or ``None``."""
        return self.objectives.get(objective_id) if isinstance(objective_id, str) else None

    def __bool__(self) -> bool:
        return bool(self.cards or self.objectives)
