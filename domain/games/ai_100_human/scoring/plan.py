"""The base class of every compiled scoring plan (:mod:`.plans` compiles effects into
them; :mod:`.region_plans`, :mod:`.group_plans` and :mod:`.corner_plans` hold the kinds)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.ai_100_human.tableau import Pos, Tableau


class Plan:
    """A compiled effect: :meth:`score` takes a tableau and gives the VP."""

    kind = ""  # the effect kind (set by compile_effect)
    reads_board = True  # False: the VP does not depend on the own tableau

    def score(self, tableau: Tableau, pos: Pos | None, neighbours: Sequence[Tableau] = ()) -> int:
        """VP for the card at ``pos`` of ``tableau`` (``neighbours``: the adjacent
        players' tableaux, for 107-114). Raises ``KeyError`` for an unknown card id."""
        raise NotImplementedError
