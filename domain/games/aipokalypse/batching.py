"""Hidden Recruitment moves as one event: ``RecruitmentMoves`` (RULINGS R-PRIVACY, R-HIDDEN-BATCH).

A hidden Recruitment command must look the same to the other seats whatever it caused: one
discard, a recruit with an ammo gain, a Triple with its Special Unit, an effect chain with a
decision. One envelope per atomic event would tell them apart by count, so :func:`batch`
turns every maximal run of consecutive hidden events of one ``decide`` call into a single
``RecruitmentMoves`` event::

    {"type": "RecruitmentMoves", "seat": <acting seat, or None for an automatic step>,
     "data": {"hidden": True, "events": [{"type", "seat", "data"}, ...]}}

It folds as its inner events in order (:func:`inner`), so states, replay and verification
(``service/log/verify.py`` re-decides every command and compares the events) are unchanged.
:func:`redact_batch` shows a viewer only the inner events it may see (its own, each redacted
as it would be alone); a viewer who may see none gets ``{"hidden": True}`` under the neutral
type ``RecruitmentMoveMade`` — exactly one such envelope per hidden command, whatever it did.
Public events (``PUBLIC_IN_RECRUITMENT``: readiness, health loss, elimination, the
A.I.Pokalypse; and table facts such as Sudden Death) stay separate events in their place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.engine import Event

BATCH_TYPE = "RecruitmentMoves"
#: the neutral type under which a viewer sees a hidden move it may not see (RULINGS R-PRIVACY)
HIDDEN_MOVE_TYPE = "RecruitmentMoveMade"


def batch(events: list[Event], seat: int | None) -> list[Event]:
    """``events`` with each maximal run of consecutive ``hidden`` events replaced by one
    ``RecruitmentMoves`` event of ``seat`` (the acting seat of a Recruitment command, or
    ``None`` for the automatic steps of another phase, e.g. the draws and round bonuses that
    open a Recruitment Phase). A run of a single event is batched too (constant shape).

    RULINGS R-HIDDEN-BATCH.
    """
    out: list[Event] = []
    run: list[Event] = []

    def close() -> None:
        if run:
            out.append(
                Event(
                    BATCH_TYPE,
                    {
                        "hidden": True,
                        "events": [
                            {"type": e.type, "seat": e.seat, "data": dict(e.data)} for e in run
                        ],
                    },
                    seat,
                )
            )
            run.clear()

    for event in events:
        if event.type != BATCH_TYPE and event.data.get("hidden"):
            run.append(event)
        else:
            close()
            out.append(event)
    close()
    return out


def inner(event: Event) -> list[Event]:
    """The events a ``RecruitmentMoves`` event stands for, in order (``[event]`` otherwise)."""
    if event.type != BATCH_TYPE:
        return [event]
    return [Event(e["type"], dict(e["data"]), e["seat"]) for e in event.data["events"]]


def unbatch(events: Iterable[Event]) -> list[Event]:
    """Every atomic event of ``events`` (batches flattened), for tools and tests."""
    return [e for event in events for e in inner(event)]


def redact_batch(
    event: Event,
    viewer: int | None,
    redact: Callable[[Event, int | None], dict],
    redact_type: Callable[[Event, int | None], str],
) -> tuple[str, dict[str, Any]]:
    """``(type, data)`` of a ``RecruitmentMoves`` event as ``viewer`` may see it: the inner
    events this viewer may see (``{"type", "seat", "data"}``, each redacted as alone), or
    ``("RecruitmentMoveMade", {"hidden": True})`` when there is none."""
    seen = []
    for e in inner(event):
        shown = redact_type(e, viewer)
        if shown == HIDDEN_MOVE_TYPE and e.type != HIDDEN_MOVE_TYPE:
            continue  # not this viewer's: leaves no trace
        seen.append({"type": shown, "seat": e.seat, "data": redact(e, viewer)})
    if not seen:
        return HIDDEN_MOVE_TYPE, {"hidden": True}
    return BATCH_TYPE, {"events": seen}


def as_rules_3(events: list[Event]) -> list[Event]:
    """``events`` as rules version 3 decided them: a ``DrawPileReshuffled`` inside a
    ``RecruitmentMoves`` batch (rules 4: the reshuffle a hidden move caused is that move's
    hidden event) was then public, of no seat, and split the batch around it (same
    shuffle, same order). Every other event is unchanged. For the verifier of rules 3 logs
    (RULINGS R-HIDDEN-BATCH, ``spec.OLDER_RULES_VERIFIED``)."""
    out: list[Event] = []
    for event in events:
        atoms = inner(event)
        if event.type != BATCH_TYPE or not any(e.type == "DrawPileReshuffled" for e in atoms):
            out.append(event)
            continue
        public = [
            Event(e.type, {k: v for k, v in e.data.items() if k != "hidden"}, None)
            if e.type == "DrawPileReshuffled"
            else e
            for e in atoms
        ]
        out.extend(batch(public, event.seat))
    return out
