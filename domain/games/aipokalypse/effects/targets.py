"""Which units an effect may target: the ``target`` slot a ``recruit``/``discard`` command
names, and the units a re-triggered effect may aim at (Governor). Rulebook "Recruitment
Effects"; card notes Elder Commander, Sergeant, Desert Rat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import catalogue
from ..state import Player, color_of, unit_of, units

TARGETING = {
    "strength": lambda op: op["to"] == "target",
    "swap": lambda op: not op.get("choose"),
    "absorb": lambda op: True,
}


def _target_ops(cid: str, trigger: str) -> list[Mapping[str, Any]]:
    return [
        op
        for op in catalogue()[cid].ops(trigger)
        if op["op"] in TARGETING and TARGETING[op["op"]](op)
    ]


def valid_targets(p: Player, cid: str, trigger: str, own_slot: int | None) -> list[int]:
    """Slots a ``recruit``/``discard`` command may name as ``target`` for ``cid``'s effect."""
    ops = _target_ops(cid, trigger)
    if not ops:
        return []
    color = next((op.get("color") for op in ops if op.get("color")), None)
    out = []
    for i, s in units(p):
        if i == own_slot or s.unit == cid:
            continue
        if color and color_of(unit_of(s)) != color:
            continue
        if any(op["op"] == "swap" and op["mode"] == "strength" for op in ops) and s.red:
            continue
        out.append(i)
    return out


def target_optional(cid: str, trigger: str) -> bool:
    """True when every targeting op of the effect is optional (Desert Rat "you may swap")."""
    ops = _target_ops(cid, trigger)
    return bool(ops) and all(op.get("optional") for op in ops)
