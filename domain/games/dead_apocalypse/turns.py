"""Set-up and the automatic steps of the Turn Sequence.

Game Setup: personal decks of 10 shuffled, 5 drawn; Zombie Stack = Zombies and Events
(Events removed in the easier games) shuffled, the bottom 10 re-shuffled with the CDC;
Resource Stack shuffled; a random first seat. The rows are filled by the first turn's
refill steps (ruling R-SETUP-ROWS: an Event flipped then attacks on the first turn).

Start of a turn: refill the Resource Row, refill the Zombie Row (Events set aside), turn
occupying Humans right side up (each upright occupant then generates its attack as damage
from its Location), Zombie Attack (Zombies whose faction is on a set-aside Event; their
"when it attacks" abilities resolve). The Zombie Row's Repeat abilities are not resolved
here: the active seat decides when during its turn (``use_repeat``; ruling R-ZOMBIE-REPEAT).

End of a turn: each undefeated attacker Ditches its column's Resource Row card and the top
Resource Stack card (ceil(HP/2) in the harder rule; none in the easy games), refilling the
row after each; no defeated Zombie this turn -> Ditch ``no_kill_ditch`` cards per seat
(none in the easy games); discard played cards and the hand except its Infections (they stay: ruling
R-INFECTION); set-aside Events go to the Ditch Pile; draw 5; the next seat (left) starts —
unless ``turn_limit`` turns were played (ruling R-TURN-LIMIT: the match is lost, or in the
easiest game stopped undecided).
"""

from __future__ import annotations

import math
import random

from . import spec
from .cards import catalogue
from .effects import gain_damage, run_zombie_steps
from .ending import finish
from .recorder import Recorder
from .stacks import ditch_stack, draw, refill_resource_row, refill_zombie_row


def set_up(rec: Recorder, seats: int, options: dict, rng: random.Random) -> None:
    """Record the Game Setup events and start the first turn. RULINGS R-SETUP-ROWS."""
    cat = catalogue()
    first = rng.randrange(seats)
    rec.emit("MatchStarted", {"seats": seats, "options": options, "first_seat": first})
    for seat in range(seats):
        deck = cat.starting_deck(seat)
        rng.shuffle(deck)
        rec.emit("DeckShuffled", {"seat": seat, "order": deck, "reason": "setup"}, seat)
    zombies = cat.stack_instances("zombie")
    cdc = [c for c in zombies if cat.of(c).kind == "cdc"]
    body = [
        c
        for c in zombies
        if cat.of(c).kind == "zombie" or (cat.of(c).kind == "event" and not spec.no_events(options))
    ]
    rng.shuffle(body)
    bottom = body[-spec.CDC_BOTTOM :] + cdc
    rng.shuffle(bottom)
    rec.emit("ZombieStackFormed", {"order": body[: -spec.CDC_BOTTOM] + bottom})
    resources = cat.stack_instances("resource")
    rng.shuffle(resources)
    rec.emit("ResourceStackFormed", {"order": resources})
    for seat in range(seats):
        draw(rec, seat, spec.HAND_SIZE, rng)
    if rec.state.turn >= options["turn_limit"]:
        stop_at_turn_limit(rec)
    start_turn(rec, first, 1, rng)


def stop_at_turn_limit(rec: Recorder) -> None:
    """Ruling R-TURN-LIMIT: the match ends instead of starting the turn after
    ``turn_limit``. Lost in every variant but the easiest, which "will prevent the game from
    ending thus preventing players from losing": there it stops undecided (outcome
    ``stopped``: nobody wins, nobody lost). Raises :class:`GameOver`."""
    finish(rec, "stopped" if spec.easiest(rec.state.options) else "lost", "turn_limit")


def start_turn(rec: Recorder, seat: int, turn: int, rng: random.Random) -> None:
    """The automatic steps at the start of ``seat``'s turn (module doc). RULINGS R-ATTACK."""
    cat = catalogue()
    rec.emit("TurnStarted", {"seat": seat, "turn": turn}, seat)
    refill_resource_row(rec, rng)
    refill_zombie_row(rec, rng)
    me = rec.state.seats[seat]
    if any(loc["occupants"] for loc in me.locations):
        rec.emit("HumansStoodUp", {"seat": seat}, seat)
        for loc in list(rec.state.seats[seat].locations):
            for occ in loc["occupants"]:
                gain_damage(rec, seat, loc["card"], cat.of(occ["card"]).damage, False)
    s = rec.state
    factions = {cat.of(e).faction for e in s.events_aside}
    columns = [
        c for c, z in enumerate(s.zombie_row) if z is not None and cat.of(z).faction in factions
    ]
    if columns:
        rec.emit(
            "ZombiesAttacked",
            {"seat": seat, "columns": columns, "events": list(s.events_aside)},
            seat,
        )
        for c in columns:
            run_zombie_steps(rec, seat, cat.of(s.zombie_row[c]).on_attack, rng)


def end_turn(rec: Recorder, rng: random.Random) -> None:
    """Ending your Turn and Undefeated Zombies (module doc), then the next turn.

    RULINGS R-UNDEFEATED, R-HARDER.
    """
    cat = catalogue()
    s = rec.state
    seat, options = s.active, s.options
    if not spec.easy(options):
        for col in sorted(s.attackers):
            zombie = rec.state.zombie_row[col]
            if zombie is None:
                continue
            card = rec.state.resource_row[col]
            if card is not None and cat.of(card).kind != "cdc":
                rec.emit("ResourceRowDitched", {"column": col, "card": card})
            hp = cat.of(zombie).hp
            ditch_stack(rec, math.ceil(hp / 2) if options["attack_ditch_half_hp"] else 1, rng)
            refill_resource_row(rec, rng)
        if rec.state.defeated == 0:
            ditch_stack(rec, options["no_kill_ditch"] * s.seat_count, rng)
    me = rec.state.seats[seat]
    # Infections stay: "Cannot be played; stays in your hand until cured" (ruling R-INFECTION)
    kept = [c for c in me.hand if cat.of(c).kind != "infection"]
    rec.emit("TurnEnded", {"seat": seat, "discarded": kept + me.played}, seat)
    if rec.state.events_aside:
        rec.emit("EventsDitched", {"cards": list(rec.state.events_aside)})
    draw(rec, seat, spec.HAND_SIZE, rng)
    if rec.state.turn >= options["turn_limit"]:
        stop_at_turn_limit(rec)
    start_turn(rec, rec.state.left(seat), rec.state.turn + 1, rng)
