"""The decision context: rules run on a scratch copy of the state and record atomic events.

``Ctx.emit`` folds each event into the scratch state at once (with :func:`.fold.evolve`), so
rules always read the current situation, and keeps the list ``decide`` returns. Random
outcomes (reshuffles, searches) use ``ctx.rng`` and are written into the events.
"""

from __future__ import annotations

import random
from typing import Any

from domain.engine import Event

from . import fold
from .state import MatchState, Player, clone

# Seat events of the Recruitment Phase that everybody sees at once (health and readiness are
# public); every other seat event of that phase is marked ``hidden`` until the battle reveal.
PUBLIC_IN_RECRUITMENT = frozenset(
    {"SeatReady", "HealthLost", "SeatEliminated", "AIPokalypseTriggered", "SeatResigned"}
)


class NeedChoice(Exception):
    """Raised by :meth:`Ctx.ask` when a seat must decide before the effect can go on.

    ``seat`` chooses among ``options`` (JSON scalars; the first is the engine's default);
    ``kind`` names the decision (``discard``, ``kill``, ...), ``prompt`` says what it is for
    (the effect's card name); ``decline`` is the option that uses nothing when the effect is
    optional ("may", "can": ``"skip"``, ``"stop"``, ``"keep"``, ``0`` ...), else None."""

    def __init__(self, seat: int, kind: str, options: list, prompt: str, decline: Any = None):
        super().__init__(f"seat {seat} must choose {kind}")
        self.seat, self.kind, self.options, self.prompt = seat, kind, list(options), prompt
        self.decline = decline


def timeout_option(choice: dict) -> Any:
    """The answer a timed-out seat takes to the open effect decision ``choice`` (the state's
    ``choice``): its ``decline`` — an optional effect declined, nothing spent (shared RULINGS:
    "A seat whose turn timer runs out takes the answer that uses nothing and changes least")
    — or, for a decision the effect forces (which card to discard, which unit to give up),
    its first option (the least: lowest card value, weakest unit)."""
    decline = choice.get("decline")
    return decline if decline is not None else choice["options"][0]


class Ctx:
    """Scratch state + recorded events of one ``decide``/``new_match`` call.

    ``answers`` are the choices already made for the command being (re-)executed (see
    :mod:`.choices`): each :meth:`ask` takes the next one, or raises :class:`NeedChoice`."""

    def __init__(self, state: MatchState | None, rng: random.Random, answers: list | None = None):
        #: the scratch state (``None`` only before ``MatchStarted`` of :meth:`Engine.start`)
        self._state: MatchState | None = clone(state) if state is not None else None
        self.rng = rng
        self.events: list[Event] = []
        self.depth = 0
        self.answers: list = list(answers or [])
        self.asked = 0
        self.resume: tuple[int, dict] | None = None
        # [seat, cards discarded] of each discard effect being resolved, innermost last
        # (Finisher: "if you discard 3 cards for one discard effect (e.g. Module), the
        # Finisher bonus is 3 strength"; see effects.resolve.resolve_discard_effect)
        self.discard_counts: list[list[int]] = []

    def checkpoint(self, command: dict) -> None:
        """Mark the events so far as final for a decision asked later in this call: when a
        :class:`NeedChoice` follows, ``decide`` keeps these events and holds ``command`` (an
        internal command that continues from here) instead of the whole command, so public
        facts emitted so far (e.g. ``FactionsRevealed``, ruling R-SETUP) are never held
        back behind the choice."""
        self.resume = (len(self.events), dict(command))

    def ask(self, seat: int, kind: str, options: list, prompt: str, decline: Any = None) -> Any:
        """The option ``seat`` chose for this decision point ("you can choose ..." in the
        card notes). With a single option there is nothing to decide and it is returned, as
        is the first (default) option of a decision of the A.I.Toma.
        ``decline``: for an optional effect ("may", "can"), the option that declines it and
        uses nothing — what a turn timeout answers (:func:`timeout_option`); None for a
        decision the effect forces. Raises :class:`NeedChoice` when the answer is not known
        yet, ``ValueError`` when a recorded answer is not an option (a corrupt log;
        execution is deterministic) or ``decline`` is not one of the options. RULINGS R-CHOICE."""
        if not options:
            raise ValueError(f"no options for {kind}")
        if decline is not None and decline not in options:
            raise ValueError(f"the decline {decline!r} of {kind} is not one of its options")
        if len(options) == 1 or self._automatic(seat):
            return options[0]
        if self.asked < len(self.answers):
            answer = self.answers[self.asked]
            self.asked += 1
            if answer not in options:
                raise ValueError(f"recorded answer {answer!r} is not an option of {kind}")
            return answer
        raise NeedChoice(seat, kind, options, prompt, decline)

    @property
    def state(self) -> MatchState:
        """The scratch state; RuntimeError before the first event of a new match."""
        if self._state is None:
            raise RuntimeError("no state before MatchStarted")
        return self._state

    @state.setter
    def state(self, value: MatchState) -> None:
        self._state = value

    def _automatic(self, seat: int) -> bool:
        """The A.I.Toma decides nothing itself: its decisions take the first option (the
        weakest unit from the right for a unit it gives up, see :mod:`.toma`)."""
        players = self._state.players if self._state is not None else []
        return 0 <= seat < len(players) and bool(players[seat].toma)

    def emit(self, type_: str, seat: int | None = None, **data: Any) -> None:
        """Record event ``type_`` about ``seat`` and fold it into the scratch state."""
        if (
            seat is not None
            and self._state is not None
            and self._state.phase == "recruitment"
            and type_ not in PUBLIC_IN_RECRUITMENT
        ):
            data["hidden"] = True  # RULINGS: board changes stay private until the battle
        event = Event(type_, data, seat)
        self._state = fold.evolve(self._state, event)
        self.events.append(event)

    @property
    def players(self) -> list[Player]:
        """The scratch state's players."""
        return self.state.players

    def ensure_draw(self, seat: int | None = None) -> bool:
        """Reshuffle the discard pile into a new draw pile when the draw pile is empty
        ("When the common draw pile ever becomes empty, shuffle the discard pile").
        Returns False when both are empty.

        ``seat``: the seat whose card move needs the draw pile. During the Recruitment
        Phase the reshuffle is then that seat's and ``hidden`` like the move that caused
        it (:meth:`emit`), so it stays inside the move's one ``RecruitmentMoves`` event
        (RULINGS R-HIDDEN-BATCH): a public reshuffle between two hidden runs told the
        other seats that the seat drew past the end of the pile (rules version 4). Outside
        Recruitment, or with no seat (the A.I.Toma's public draws), it is public."""
        s = self.state
        if s.draw:
            return True
        if not s.discard:
            return False
        order = list(s.discard)
        self.rng.shuffle(order)
        owner = seat if s.phase == "recruitment" else None
        self.emit("DrawPileReshuffled", owner, order=order)
        return True

    def draw(self, seat: int, count: int, to: str = "hand") -> list[str]:
        """Draw ``count`` cards (fewer when draw and discard piles run out) into the seat's
        hand or battle stack; one ``CardsDrawn`` per contiguous run. Returns the cards."""
        got: list[str] = []
        while len(got) < count and self.ensure_draw(seat):
            take = self.state.draw[: count - len(got)]
            self.emit("CardsDrawn", seat, cards=take, to=to)
            got.extend(take)
        return got
