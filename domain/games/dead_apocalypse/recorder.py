"""A list of new events kept folded into a working state copy while ``decide`` runs."""

from __future__ import annotations

from domain import modular

from .fold import evolve


class GameOver(Exception):
    """Raised after ``MatchEnded`` is recorded: nothing else happens in this command."""


class Recorder(modular.Recorder):
    """:class:`domain.modular.Recorder` folding with this game's :func:`fold.evolve`."""

    evolve = staticmethod(evolve)
