"""Dead Apocalypse in the terminal (``arena play``), drawn from one seat's view.

Rulebook sections drawn: "Game Setup" (the Zombie Row over the Resource Row in 5 aligned
columns, R-COLUMNS: "the adjacent card in the Resource Row" is the one below), "Turn
Sequence" (hand, cards played, deck and discard counts, the damage gained this turn),
"Occupying Locations" (each Location with its occupants), "Call for Help" (who is asked,
who assists, the reward choice) and "Game Play Variations" (difficulty, competitive end).
Card titles, kinds, factions, numbers and text come from the view's rows and from
``GET /v1/games/dead-apocalypse/cards`` (:class:`cli.render.cards.CardBook`); this module
imports nothing of ``domain``. Every card carries its faction letter (S Survivor,
C Civilian, M Military, A Armory, D Medical, W Walker, R Runner, B Brute, T Toxic,
I Infection, X CDC), so colour is never the only carrier.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.render.cards import CardBook
from cli.render.common import generic_action, who
from cli.render.phrases import Phrasebook

ROW_SIZE = 5
FACTION_LETTER = {
    "Survivor": "S",
    "Civilian": "C",
    "Military": "M",
    "Armory": "A",
    "Medical": "D",
    "Walker": "W",
    "Runner": "R",
    "Brute": "B",
    "Toxic": "T",
    "Infection": "I",
    "CDC": "X",
}
KIND_STYLES = {
    "zombie": "bold red",
    "human": "bold green",
    "equipment": "bold cyan",
    "location": "bold yellow",
    "infection": "bold magenta",
    "event": "red",
    "cdc": "bold white on blue",
}
DIFFICULTY_NAMES = {
    "standard": "standard game",
    "easy": "easy game",
    "easier": "easier game",
    "easiest": "easiest game",
}

#: What a pending decision asks, in words ("Turn Sequence", "Call for Help").
DECISIONS = {
    "turn": "your turn: play cards, occupy Locations, defeat Zombies, call for help, end it",
    "help": "answer the Call for Help: assist or decline",
    "assist": "assist: play cards for the attack, then stop assisting",
    "ditch": "choose the cards to Ditch (or skip)",
    "occupy": "place a Human beneath a Location (or skip)",
    "reward": "choose your reward for assisting",
}

#: ``--seats`` help: the rulebook's co-operative game for 1-4 players.
SEATS_HELP = "1-4 = the co-operative game (1 = alone against the horde)"


def mode_name(seats: int, options: Mapping[str, Any] | None = None) -> str:
    """``co-operative game, 2 players, standard game`` (+ ``competitive end`` with the
    "For a more competitive game" option); ``solo`` for one seat."""
    options = options or {}
    players = "solo" if seats == 1 else f"{seats} players"
    parts = [
        "co-operative game",
        players,
        DIFFICULTY_NAMES.get(
            options.get("difficulty") or "standard", str(options.get("difficulty"))
        ),
    ]
    if options.get("competitive"):
        parts.append("competitive end")
    return ", ".join(parts)


def face(card_id: Any, cards: CardBook, info: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The public facts of a card instance: the view's own row entry when given, else the
    card data (``title``, ``kind``, ``faction``, ``hp``, ``damage``, ``occupancy``, ``text``)."""
    return dict(info) if info else dict(cards.get(card_id) or {})


def _instance(card_id: str) -> str:
    return card_id.split("#", 1)[1] if isinstance(card_id, str) and "#" in card_id else ""


def label(card_id: Any, cards: CardBook) -> str:
    """A card in a sentence: ``Shotgun (A)``; a numbered copy keeps its copy tag
    (``Survivor (S) #s0.4``) so identical cards in a menu stay apart."""
    if card_id is None:
        return "none"
    data = face(card_id, cards)
    if not data:
        return str(card_id)
    tag = _instance(card_id)
    letter = FACTION_LETTER.get(data.get("faction"), "?")
    return f"{data.get('title', card_id)} ({letter})" + (f" #{tag}" if tag else "")


def numbers(data: Mapping[str, Any]) -> str:
    """``HP 5`` / ``+3 damage`` / ``occupancy 2, repeat``: a card's printed numbers."""
    parts = []
    if data.get("kind") == "zombie":
        parts.append(f"HP {data.get('hp')}")
    if data.get("damage"):
        parts.append(f"+{data['damage']} damage")
    if data.get("occupancy"):
        parts.append(f"occupancy {data['occupancy']}")
    if data.get("repeat"):
        parts.append("repeat")
    return ", ".join(parts)


def card_cell(card_id: Any, cards: CardBook, info: Mapping[str, Any] | None = None) -> Text:
    """A card as a few lines: title and faction letter, kind and numbers, effect text."""
    if card_id is None:
        return Text("(empty)", style="dim")
    data = face(card_id, cards, info)
    if not data:
        return Text(str(card_id))
    text = Text(
        f"{data.get('title')} ({FACTION_LETTER.get(data.get('faction'), '?')})",
        style=KIND_STYLES.get(data.get("kind"), "bold"),
    )
    details = ", ".join(
        x for x in (f"{data.get('kind')} - {data.get('faction')}", numbers(data)) if x
    )
    text.append(f"\n{details}", style="dim")
    if data.get("text"):
        text.append(f"\n{data['text']}")
    return text


def rows_table(view: Mapping[str, Any], cards: CardBook) -> Table:
    """The Zombie Row over the Resource Row, one column per place (R-COLUMNS): an attacking
    Zombie is marked ``ATTACKING``; immunities are listed."""
    zombies = list(view.get("zombie_row") or [])
    resources = list(view.get("resource_row") or [])
    count = max(len(zombies), len(resources), ROW_SIZE)
    table = Table(title="Zombie Row over Resource Row", show_lines=True, title_justify="left")
    table.add_column("row", style="bold")
    for column in range(count):
        table.add_column(f"column {column}", min_width=16, max_width=30)
    zombie_cells: list[Text] = []
    for column in range(count):
        z = zombies[column] if column < len(zombies) else None
        cell = card_cell(z.get("card") if z else None, cards, z)
        if z and z.get("attacking"):
            cell.append("\nATTACKING", style="bold reverse red")
        zombie_cells.append(cell)
    resource_cells = [
        card_cell(r.get("card") if r else None, cards, r)
        for r in (resources[c] if c < len(resources) else None for c in range(count))
    ]
    table.add_row("Zombie Row", *zombie_cells)
    table.add_row("Resource Row", *resource_cells)
    return table


def card_table(title: str, card_ids: Iterable[Any], cards: CardBook) -> Table:
    """Cards with kind, faction, numbers and effect text (a hand, cards in play)."""
    table = Table(title=title, show_header=True, title_justify="left")
    for column in ("card", "kind", "numbers", "effect"):
        table.add_column(column)
    for card_id in card_ids:
        data = face(card_id, cards)
        table.add_row(
            Text(label(card_id, cards), style=KIND_STYLES.get(data.get("kind"), "")),
            f"{data.get('kind', '?')} - {data.get('faction', '?')}",
            numbers(data),
            data.get("text", ""),
        )
    return table


def _names(match: Mapping[str, Any], view: Mapping[str, Any], you: int) -> dict[int, str]:
    """``{seat: "you" | "seat 2, bot (cooperative)"}`` for sentences."""
    seats = match.get("seats") or []
    return {
        s["seat"]: "you" if s["seat"] == you else f"seat {s['seat']}, {who(s['seat'], seats, you)}"
        for s in view.get("seats") or []
    }


def seats_table(match: Mapping[str, Any], view: Mapping[str, Any], you: int) -> Table:
    """One row per seat: player, deck, hand, discard and played counts, Locations, what it
    is doing (the active player, asked for help, assisting)."""
    pending = view.get("pending") or match.get("pending") or {}
    table = Table(title="players", show_header=True)
    for column in ("seat", "player", "deck", "hand", "discard", "played", "locations", "status"):
        table.add_column(column)
    for seat in view.get("seats") or []:
        index = seat["seat"]
        status = []
        if index == view.get("active"):
            status.append("active player")
        if str(index) in pending:
            status.append(f"to do: {pending[str(index)]}".replace("_", " "))
        if index == view.get("cdc_holder"):
            status.append("holds the CDC")
        table.add_row(
            str(index),
            who(index, match.get("seats") or [], you),
            str(seat.get("deck_count")),
            str(seat.get("hand_count")),
            str(len(seat.get("discard") or [])),
            str(len(seat.get("played") or [])),
            str(len(seat.get("locations") or [])),
            ", ".join(status) or "waiting",
            style="bold" if index == you else None,
        )
    return table


def locations_lines(seat: Mapping[str, Any], cards: CardBook) -> list[str]:
    """``Base Camp (C) #s0.1 (occupancy 2): Survivor (S) #s0.2, Soldier (M) #2``, one per
    Location of ``seat``; an occupant placed upright is marked ``upright``."""
    lines = []
    for loc in seat.get("locations") or []:
        data = face(loc.get("card"), cards)
        occupants = (
            ", ".join(
                label(o.get("card"), cards) + (" upright" if o.get("upright") else "")
                for o in loc.get("occupants") or []
            )
            or "no occupants"
        )
        lines.append(
            f"{label(loc.get('card'), cards)} (occupancy {data.get('occupancy', '?')}): {occupants}"
        )
    return lines


def help_panel(view: Mapping[str, Any], names: Mapping[int, str], you: int) -> Panel | None:
    """Call for Help in progress: who called, who is still asked (you may assist or
    decline), who is assisting, who assisted."""
    help_ = view.get("help") or {}
    if not help_.get("called"):
        return None

    def name(seat: Any) -> str:
        return names.get(seat, f"seat {seat}")

    lines = [f"{name(view.get('active'))} calls for help."]
    queue = list(help_.get("queue") or [])
    if queue:
        lines.append("asked, in turn: " + ", ".join(name(s) for s in queue))
    if help_.get("assisting") is not None:
        assisting = help_["assisting"]
        lines.append(
            "you are assisting." if assisting == you else f"{name(assisting)} is assisting."
        )
    if help_.get("assisted"):
        lines.append("assisted by " + ", ".join(name(s) for s in help_["assisted"]))
    if queue and queue[0] == you:
        lines.append("You may assist (play cards for the attack) or decline.")
    return Panel("\n".join(lines), title="Call for Help", style="bold yellow", expand=False)


def prompt_panel(
    view: Mapping[str, Any], names: Mapping[int, str], you: int, cards: CardBook
) -> Panel | None:
    """An open prompt: Ditch cards (its source and how many), occupy a Location, or the
    reward of an assisting seat (the Resource Row card of the column or an Adept Survivor)."""
    prompt = view.get("prompt")
    if not prompt:
        return None
    seat = prompt.get("seat")
    whose = "you" if seat == you else names.get(seat, f"seat {seat}")
    kind = prompt.get("kind")
    if kind == "ditch":
        text = (
            f"{whose}: Ditch {prompt.get('remaining')} card(s) from "
            f"{prompt.get('from', 'hand')} ({label(prompt.get('source'), cards)})"
        )
    elif kind == "reward":
        resource = next(
            (
                r
                for r in view.get("resource_row") or []
                if r and r.get("column") == prompt.get("column")
            ),
            None,
        )
        offered = label(resource["card"], cards) if resource and not prompt.get("taken") else None
        text = (
            f"{whose}: the reward for assisting - "
            + (
                f"the Resource Row card of column {prompt.get('column')} ({offered}) or "
                if offered
                else ""
            )
            + "an Adept Survivor"
        )
    elif kind == "occupy":
        text = f"{whose}: place a Human beneath a Location ({label(prompt.get('source'), cards)})"
    else:
        text = f"{whose}: {str(kind).replace('_', ' ')}"
    return Panel(text, title="prompt", style="bold", expand=False)


def header(match: Mapping[str, Any], view: Mapping[str, Any], you: int) -> tuple[str, str]:
    """Two lines: ``match m - version 9 - turn 3, active: you`` and ``co-operative game, 2
    players, standard game - Zombie Stack 38, Resource Stack 52, Infections 29, Adept
    Survivors 16, Ditch 4``."""
    names = _names(match, view, you)
    seats = len(view.get("seats") or []) or 1
    return (
        f"match {match.get('match_id')} - version {match.get('version')} - turn "
        f"{view.get('turn')}, active: {names.get(view.get('active'), view.get('active'))}",
        f"{mode_name(seats, view.get('options'))} - Zombie Stack "
        f"{view.get('zombie_stack_count')}, Resource Stack {view.get('resource_stack_count')}, "
        f"Infections {view.get('infection_stack_count')}, Adept Survivors "
        f"{view.get('adept_stack_count')}, Ditch {len(view.get('ditch') or [])}",
    )


def condition_words(entry: Mapping[str, Any], phrases: Phrasebook | None) -> str:
    """Why a conditional pool entry is worth what it is now (ruling R-CONDITION: counted when
    the damage is spent), e.g. `` (+2 while another Military card is in play)``, ``` (+1 for
    each equipment card in play, 1 spent)``: the condition in the phrasebook's words (its
    ``condition`` part, which the log's DamageGained sentence says too); `` (spent)`` for a
    plain entry defeats used up, ``""`` for another plain entry (or without a phrasebook)."""
    cond = entry.get("cond")
    if not isinstance(cond, Mapping):
        # a plain entry is never gained at 0 (effects.gain_damage): 0 left is all spent
        return " (spent)" if entry.get("amount") == 0 else ""
    words = phrases.part("condition", cond) if phrases is not None else ""
    spent = entry.get("spent") or 0
    if spent:
        words = f"{words}, {spent} spent" if words else f"{spent} spent"
    return f" ({words})" if words else ""


def damage_line(
    view: Mapping[str, Any], names: Mapping[int, str], phrases: Phrasebook | None = None
) -> str:
    """``damage left this turn: 5 (Shotgun, you +3; Soldier, seat 1, ally +2)`` (what is not
    spent on defeats yet; a title twice in the pool is numbered among its own entries,
    :func:`pool_names`, as the menu's spending plans say them); a conditional entry says
    its condition in ``phrases``' words, a spent one says so (:func:`condition_words`)."""
    entries = list(view.get("damage") or [])
    total = sum(d.get("amount", 0) for d in entries)
    listed = "; ".join(
        f"{name}, {names.get(d.get('seat'), d.get('seat'))}"
        f"{', ally' if d.get('ally') else ''} +{d.get('amount')}{condition_words(d, phrases)}"
        for name, d in zip(pool_names(entries), entries, strict=True)
    )
    return (
        f"damage left this turn: {total}"
        + (f" ({listed})" if listed else "")
        + f" - Zombies defeated this turn: {view.get('defeated_this_turn', 0)}"
    )


def render_view(console: Console, match: Mapping[str, Any], you: int, cards: CardBook) -> None:
    """Draw the match for seat ``you``: header, players, the Call for Help and any prompt,
    the Zombie Row over the Resource Row, the damage gained this turn, each seat's cards in
    play and Locations with occupants, then your hand with its text."""
    view = match.get("view") or {}
    names = _names(match, view, you)
    title, line = header(match, view, you)
    console.rule(title)
    console.print(Text(line, style="bold"))
    console.print(seats_table(match, view, you))
    for panel in (help_panel(view, names, you), prompt_panel(view, names, you, cards)):
        if panel is not None:
            console.print(panel)
    console.print(rows_table(view, cards))
    console.print(Text(damage_line(view, names, cards.phrases)))
    if view.get("events_aside"):
        console.print(
            Text("events set aside: " + ", ".join(label(c, cards) for c in view["events_aside"]))
        )
    mine: Mapping[str, Any] = {}
    for seat in view.get("seats") or []:
        if seat["seat"] == you:
            mine = seat
        played = ", ".join(label(c, cards) for c in seat.get("played") or []) or "nothing"
        lines = [f"{names[seat['seat']]}: cards in play: {played}"]
        lines += [f"  Location {line}" for line in locations_lines(seat, cards)]
        console.print(Text("\n".join(lines)))
    if mine:
        hand = list(mine.get("hand") or [])
        piles = f"deck {mine.get('deck_count')}, discard {len(mine.get('discard') or [])}"
        if hand:
            console.print(card_table(f"your hand ({len(hand)}) - {piles}", hand, cards))
        else:  # no header over no rows
            console.print(Text(f"Your hand is empty - {piles}."))
    pending = (view.get("pending") or match.get("pending") or {}).get(str(you))
    if pending:
        deadline = match.get("deadline")
        console.print(
            f"[bold]your decision:[/] {DECISIONS.get(pending, str(pending).replace('_', ' '))}"
            + (f" (deadline {deadline}; then a bot decides for you)" if deadline else "")
        )


def _column_words(view: Mapping[str, Any], column: Any, cards: CardBook) -> str:
    zombies = list(view.get("zombie_row") or [])
    z = zombies[column] if isinstance(column, int) and 0 <= column < len(zombies) else None
    if not z:
        return f"column {column}"
    return f"{label(z.get('card'), cards)}, HP {z.get('hp')}, in column {column}"


def pool_names(pool: list[Mapping[str, Any]]) -> list[str]:
    """Each damage pool entry's name: its title, and ``#k`` when the title is there twice
    (``k`` counted among that title's entries: ``Survivor #1``, ``Survivor #2``), as the
    web board's ``spendWords`` says them."""
    titles = [str(d.get("title", "?")) for d in pool]
    return [
        t + (f" #{titles[: i + 1].count(t)}" if titles.count(t) > 1 else "")
        for i, t in enumerate(titles)
    ]


def describe_action(
    action: Mapping[str, Any],
    view: Mapping[str, Any],
    you: int,
    cards: CardBook,
    names: Mapping[int, str] | None = None,
) -> Text:
    """One legal command in the rulebook's words, e.g. ``play Shotgun (A) #2``, ``defeat
    Shambler (W) #1, HP 1, in column 2``, ``call for help``."""
    names = names or {}
    kind = action.get("type")
    card = label(action.get("card"), cards) if "card" in action else ""
    if kind == "play":
        data = face(action.get("card"), cards)
        extra = numbers(data)
        return Text(f"play {card}" + (f" ({extra})" if extra else ""))
    if kind in ("occupy", "choose") and "location" in action:
        return Text(f"place {card} beneath your Location {label(action['location'], cards)}")
    if kind == "use_repeat":
        if face(action.get("card"), cards).get("kind") == "zombie":
            return Text(f"resolve the Repeat of the Zombie {card} now")
        return Text(f"repeat the ability of your Location {card}")
    if kind == "defeat":
        spend = action.get("spend")
        how = f", {_spend_plan_words(view, spend) or 'spending ?'}" if spend else ""
        return Text(f"defeat {_column_words(view, action.get('column'), cards)}{how}")
    if kind == "call_for_help":
        return Text("call for help")
    if kind == "assist":
        return Text("assist the active player in this attack")
    if kind == "decline":
        return Text("decline to assist")
    if kind == "end_assist":
        return Text("stop assisting")
    if kind == "claim":
        choice = action.get("choice")
        prompt = view.get("prompt") or {}
        if choice == "resource":
            column = prompt.get("column")
            resource = next(
                (r for r in view.get("resource_row") or [] if r and r.get("column") == column), None
            )
            name = f" ({label(resource['card'], cards)})" if resource else ""
            return Text(f"take the Resource Row card of column {column}{name}")
        if choice == "adept":
            return Text("take an Adept Survivor")
    if kind == "choose":
        return Text(f"Ditch {card}")
    if kind == "skip":
        return Text("skip (stop choosing)")
    if kind == "end_turn":
        return Text("end your turn")
    return generic_action(action, lambda c: label(c, cards))


def action_line(
    action: Mapping[str, Any], match: Mapping[str, Any], you: int, cards: CardBook
) -> Text:
    """The menu line of ``action`` (:func:`describe_action` against the current view)."""
    view = match.get("view") or {}
    return describe_action(action, view, you, cards, _names(match, view, you))


def render_result_extras(
    console: Console, match: Mapping[str, Any], you: int, cards: CardBook
) -> None:
    """The team's outcome: won (the CDC gained) or lost, and why."""
    result = match.get("result") or {}
    outcome = result.get("outcome")
    if not outcome:
        return
    reason = str(result.get("reason") or "").replace("_", " ")
    console.print(
        Panel(
            Text(
                f"the team {outcome}" + (f": {reason}" if reason else ""),
                style="bold green" if outcome == "won" else "bold red",
            ),
            title="Dead Apocalypse",
            expand=False,
        )
    )


def where(view: Mapping[str, Any], you: int, card_id: Any, field: str = "card") -> str | None:
    """Where ``card_id`` is in the view of seat ``you``, in words (``in your hand``, ``in
    Zombie Row column 2``), or ``None``: the menu tells apart moves whose words are the same
    (:mod:`cli.render.alike`, as the web board's ``where``). Identical cards in one place are
    the same move (Occupying Locations takes "a Human from his/her hand"; a Zombie is told by
    its column). A ``defeat``'s ``spend`` plan (``[[damage entry, amount], ...]``) is said as
    the damage it spends (``spending 2 of Sniper, 1 of Survivor #2``)."""
    if field == "spend":
        return _spend_plan_words(view, card_id)
    if not isinstance(card_id, str):
        return None
    for row, name in (("zombie_row", "Zombie Row"), ("resource_row", "Resource Row")):
        for column, entry in enumerate(view.get(row) or []):
            if isinstance(entry, Mapping) and entry.get("card") == card_id:
                return f"in {name} column {column}"
    for s in view.get("seats") or []:
        whose = "your" if s.get("seat") == you else f"Seat {s.get('seat')}'s"
        if card_id in (s.get("hand") or []):
            return f"in {whose} hand"
        if card_id in (s.get("played") or []):
            return f"among {whose} cards played this turn"
        for i, loc in enumerate(s.get("locations") or []):
            if loc.get("card") == card_id:
                return f"among {whose} Locations"
            for o in loc.get("occupants") or []:
                occupant = (o.get("card") or o.get("id")) if isinstance(o, Mapping) else o
                if occupant == card_id:
                    return f"occupying {whose} Location {i + 1}"
        if card_id in (s.get("discard") or []):
            return f"in {whose} discard pile"
    if card_id in (view.get("events_aside") or []):
        return "among the Events set aside"
    return None


def _spend_plan_words(view: Mapping[str, Any], plan: Any) -> str | None:
    """As the web board's ``spendWords``: a title twice in the pool says which of them,
    counted among that title's entries; the bare command spends "the default way"."""
    pool = list(view.get("damage") or [])
    if plan is None:
        return "spending the default way"
    if not isinstance(plan, list) or not plan:
        return None
    named = pool_names(pool)
    parts = []
    for index, amount in plan:
        if not (isinstance(index, int) and 0 <= index < len(pool)):
            return None
        parts.append(f"{amount} of {named[index]}")
    return "spending " + ", ".join(parts)


def note(action: Mapping[str, Any], view: Mapping[str, Any], you: int) -> str:
    """What a legal command adds to its menu line (as the web board's ``note``): taking
    the Resource Row card after an assisted Combat names it (`` — Shotgun, Resource Row
    column 2``; rulebook, After Combat: "take the adjacent card"); other commands add
    nothing."""
    if action.get("type") != "claim" or action.get("choice") != "resource":
        return ""
    prompt = view.get("prompt") or {}
    column = prompt.get("column")
    row = view.get("resource_row") or []
    if prompt.get("kind") != "reward" or not isinstance(column, int) or column >= len(row):
        return ""
    entry = row[column] or {}
    return f" — {entry['title']}, Resource Row column {column}" if entry.get("title") else ""


#: Commands that end the seat's turn or pass: the menu's key 0, asked y/N while other moves
#: remain (``cli/menu.py``): end the turn, stop assisting, choose nothing more at a Ditch or
#: occupy prompt, decline a Call for Help.
ENDING = frozenset({"end_turn", "end_assist", "skip", "decline"})


def ends(action: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    """True when ``action`` ends the seat's turn or passes (:data:`ENDING`)."""
    return action.get("type") in ENDING
