"""A.I.Pokalypse in the terminal (``arena play``), drawn from one seat's view.

Rulebook sections drawn: "Game Setup" (faction, hand of 6, 6 Special Units as the health
point stack), "Slots & Recruitment" (slots with the unit's position on the strength scale
1-2-3-4-5-6-7-8-9-10-12-15, Red Slots with their bonuses, ammo), "Special Units and Triples"
(the pool), "Phase 2: Battle" (battle cards, points won, the reaction window of "Increasing
Battle Strength") and "Solo / Cooperative Mode" (the A.I.Toma's board: its unit piles,
pool, ammo, health count). Card names, colours, kinds, values and effect text come from
``GET /v1/games/aipokalypse/cards`` (:class:`cli.render.cards.CardBook`); this module
imports nothing of ``domain``. Colour is never the only carrier: every card carries its
colour letter (B blue, R red, Y yellow, P purple, G green) and kind letter (H human,
M mech, U mutant, R rogue, A A.I.Lien).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.render.cards import CardBook
from cli.render.common import generic_action, who

#: The printed strength scale; a slot's ``pos`` indexes it ("Slots & Recruitment").
SCALE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15)
COLOUR_LETTER = {"blue": "B", "red": "R", "yellow": "Y", "purple": "P", "green": "G"}
KIND_LETTER = {"human": "H", "mech": "M", "mutant": "U", "rogue": "R", "ailien": "A"}
STYLES = {
    "blue": "bold blue",
    "red": "bold red",
    "yellow": "bold yellow",
    "purple": "bold magenta",
    "green": "bold green",
}
#: "A.I.Toma difficulty — starting cards" in the rulebook's words.
DIFFICULTY_NAMES = {
    "handy_man": "Handy-Man",
    "boss": "Boss",
    "endboss": "Endboss",
    "untamed": "Untamed A.I.",
}
PHASE_NAMES = {
    "faction": "Game Setup: choose your faction",
    "draft": "Expert Variant draft",
    "recruitment": "Phase 1: Recruitment",
    "battle": "Phase 2: Battle",
    "ended": "the game is over",
}

#: What a pending decision asks, in words.
DECISIONS = {
    "choose_faction": "keep one of your 2 offered factions",
    "recruit": "your Recruitment move (or ready)",
    "react": "the reaction window: react or pass",
    "choose": "answer the open effect decision",
    "place_card": "place your battle card (it fits no active unit)",
    "choose_special": "keep one of the drawn Special Units",
    "draft_special": "draft a Special Unit for your health stack",
    "order_health": "order your health stack",
}

#: ``--seats`` help in the rulebook's words.
SEATS_HELP = (
    "1 = Solo Mode against the A.I.Toma, 2 = a duel (Cooperative Mode against the "
    "A.I.Toma with --option mode=coop), 3-4 = the competitive game, 5-8 = the 5-8 "
    "Player Variant"
)


def mode_name(seats: int, options: Mapping[str, Any] | None = None) -> str:
    """``Solo Mode against the A.I.Toma (Boss)``, ``Cooperative Mode against the A.I.Toma
    (Endboss)``, ``5-8 Player Variant`` or ``competitive game``; ``mode`` and ``difficulty``
    from the match options (defaults: solo for 1 seat, else competitive; Boss)."""
    options = options or {}
    mode = options.get("mode") or ("solo" if seats == 1 else "competitive")
    difficulty = DIFFICULTY_NAMES.get(
        options.get("difficulty") or "boss", options.get("difficulty")
    )
    if mode == "solo":
        return f"Solo Mode against the A.I.Toma ({difficulty})"
    if mode == "coop":
        return f"Cooperative Mode against the A.I.Toma ({difficulty})"
    return "5-8 Player Variant" if seats >= 5 else "competitive game"


def label(card_id: Any, cards: CardBook) -> str:
    """A card in a sentence: ``B022 Berserker (B1 H)`` (colour letter, value, kind letter),
    ``S01 Big Benji (B special)``, ``F01 Desert Rats (faction)``; ``face down`` for ``None``."""
    if card_id is None:
        return "face down"
    face = cards.get(card_id)
    if face is None:
        return str(card_id)
    tags = _tags(face)
    return f"{card_id} {face.get('name', '')}" + (f" ({tags})" if tags else "")


def _tags(face: Mapping[str, Any]) -> str:
    category = face.get("category")
    colour = COLOUR_LETTER.get(face.get("color") or "", "")
    kind = KIND_LETTER.get(face.get("kind") or "", "")
    if category == "faction":
        return "faction"
    if category == "special":
        return " ".join(x for x in (colour, kind, "special") if x)
    value = face.get("value")
    return " ".join(x for x in (f"{colour}{value if value is not None else ''}", kind) if x)


def card_text(card_id: Any, cards: CardBook) -> Text:
    """:func:`label` in the card's colour."""
    face = cards.get(card_id) or {}
    return Text(label(card_id, cards), style=STYLES.get(face.get("color") or "", ""))


def card_table(title: str, card_ids: Iterable[Any], cards: CardBook) -> Table:
    """Cards with their printed effect text (a hand, a pool, an offer)."""
    table = Table(title=title, show_header=True, title_justify="left")
    table.add_column("card")
    table.add_column("effect")
    for card_id in card_ids:
        table.add_row(card_text(card_id, cards), (cards.get(card_id) or {}).get("text", ""))
    return table


def scale_line(pos: int | None) -> Text:
    """The strength scale with the unit's position bracketed: ``1 2 [3] 4 ... 15``."""
    text = Text()
    for index, value in enumerate(SCALE):
        if index:
            text.append(" ")
        text.append(
            f"[{value}]" if index == pos else str(value),
            style="bold reverse" if index == pos else "dim",
        )
    return text


def _red_bonuses(slot: Mapping[str, Any], cards: CardBook) -> str:
    bonuses = (cards.get(slot.get("card")) or {}).get("red_slot") or {}
    return ", ".join(f"{k}: {v}" for k, v in sorted(bonuses.items(), key=lambda kv: int(kv[0])))


def slot_cell(
    slot: Mapping[str, Any], cards: CardBook, own: bool, strength_now: Any = None
) -> Text:
    """One slot: its unit, strength and scale position (or an A.I.Toma pile's strength),
    Red Slot and its bonuses, temporary strength, ammo on it, attached cards, battle cards
    (won ``+`` / lost ``-``), exhausted."""
    lines: list[Text] = []
    if slot.get("red"):
        lines.append(Text("RED SLOT ", style="bold red").append(label(slot.get("card"), cards)))
        bonuses = _red_bonuses(slot, cards)
        if bonuses:
            lines.append(Text(f"bonuses at strength {bonuses}", style="red"))
    unit = slot.get("unit")
    lines.append(card_text(unit, cards) if unit else Text("empty slot", style="dim"))
    if "pile" in slot:  # an A.I.Toma unit: its pile adds up
        lines.append(Text(f"strength {slot.get('strength')}", style="bold"))
        if len(slot.get("pile") or []) > 1:
            lines.append(
                Text("pile: " + ", ".join(label(c, cards) for c in slot["pile"][1:]), style="dim")
            )
    elif unit:
        pos = slot.get("pos") or 0
        strength = SCALE[pos] if 0 <= pos < len(SCALE) else "?"
        extra = "".join(
            f" +{slot[k]} {name}"
            for k, name in (("temp", "temporary"), ("ammo_temp", "ammo (temporary)"))
            if slot.get(k)
        )
        lines.append(Text(f"strength {strength}{extra}", style="bold"))
        lines.append(scale_line(pos))
    if strength_now is not None:
        lines.append(Text(f"battle strength now {strength_now}", style="bold cyan"))
    if not slot.get("red") and own and slot.get("card"):
        lines.append(Text(f"slot card (face down): {label(slot['card'], cards)}", style="dim"))
    if slot.get("ammo_on"):
        lines.append(Text(f"ammo on it: {slot['ammo_on']}"))
    for card in slot.get("attached") or []:
        lines.append(Text("attached: ").append_text(card_text(card, cards)))
    battle = slot.get("battle") or []
    if battle:
        shown = [
            f"{'+' if won else '-'} {label(card, cards)}"
            for card, won in (b if isinstance(b, (list, tuple)) else (b, True) for b in battle)
        ]
        lines.append(Text("battle cards: " + "; ".join(shown)))
    if slot.get("exhausted"):
        lines.append(Text("EXHAUSTED", style="bold yellow"))
    return Text("\n").join(lines)


def slots_table(
    title: str,
    slots: list[Mapping[str, Any]],
    cards: CardBook,
    own: bool,
    strengths: Mapping[str, Any] | None = None,
) -> Group:
    """``title`` over the slots of a board side by side, slot 0 leftmost."""
    heading = Text(title, style="bold")
    if not slots:
        return Group(heading, Text("  no slots yet", style="dim"))
    strengths = strengths or {}
    table = Table(show_lines=True)
    for index, _ in enumerate(slots):
        table.add_column(f"slot {index}", min_width=18, max_width=34)
    table.add_row(*[slot_cell(s, cards, own, strengths.get(str(i))) for i, s in enumerate(slots)])
    return Group(heading, table)


def table_seats(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The A.I.Toma's seat (Solo / Cooperative Mode) as a roster entry named for sentences:
    ``[{"seat": 1, "name": "the A.I.Toma", "kind": "table"}]`` (a seat of the table, named
    without a seat number); ``[]`` in a competitive game."""
    toma = view.get("toma")
    return [{"seat": toma.get("seat"), "name": "the A.I.Toma", "kind": "table"}] if toma else []


def _seat_names(match: Mapping[str, Any], view: Mapping[str, Any], you: int) -> dict[int, str]:
    """``{seat: "you" | "seat 2, bot (tactician)" | "the A.I.Toma"}`` for sentences."""
    seats = match.get("seats") or []
    names = {
        s["seat"]: "you" if s["seat"] == you else f"seat {s['seat']}, {who(s['seat'], seats, you)}"
        for s in view.get("seats") or []
    }
    toma = view.get("toma")
    if toma:
        names[toma.get("seat")] = "the A.I.Toma"
    return names


def seats_table(
    match: Mapping[str, Any], view: Mapping[str, Any], you: int, cards: CardBook
) -> Table:
    """One row per seat: player, faction, health stack, pool, ammo, hand, slots, points won
    in this battle, battle stack and what it is doing."""
    pending = match.get("pending") or {}
    table = Table(title="players", show_header=True)
    for column in (
        "seat",
        "player",
        "faction",
        "health",
        "pool",
        "ammo",
        "hand",
        "slots",
        "points",
        "battle stack",
        "status",
    ):
        table.add_column(column)
    for seat in view.get("seats") or []:
        index = seat["seat"]
        faction = (cards.get(seat.get("faction")) or {}).get("name") or (
            "hidden" if seat.get("faction") is None else seat["faction"]
        )
        status = (
            "ELIMINATED"
            if seat.get("eliminated")
            else f"to do: {pending[str(index)]}".replace("_", " ")
            if str(index) in pending
            else "ready"
            if seat.get("ready")
            else "waiting"
        )
        table.add_row(
            str(index),
            who(index, match.get("seats") or [], you),
            faction,
            str(seat.get("health_count")),
            str(len(seat.get("pool") or [])),
            str(seat.get("ammo")),
            str(seat.get("hand_count")),
            str(len(seat.get("slots") or [])),
            str(seat.get("score")),
            str(seat.get("battle_stack")),
            status,
            style="bold" if index == you else None,
        )
    return table


def header(
    match: Mapping[str, Any], view: Mapping[str, Any], options: Mapping[str, Any]
) -> tuple[str, str]:
    """Two lines: ``match m - version 9 - round 2, Phase 1: Recruitment (+ SUDDEN DEATH,
    A.I.POKALYPSE)`` and ``competitive game - draw pile 70, discard 12, Special Units 40,
    ammo deck 24``."""
    seats = len(view.get("seats") or []) or 1
    mode = mode_name(
        seats,
        {
            "mode": view.get("mode"),
            "difficulty": (view.get("toma") or {}).get("difficulty") or options.get("difficulty"),
        },
    )
    flags = "".join(
        f" - {flag}"
        for flag, on in (
            ("SUDDEN DEATH", view.get("sudden_death")),
            ("A.I.POKALYPSE", view.get("apocalypse")),
        )
        if on
    )
    return (
        f"match {match.get('match_id')} - version {match.get('version')} - round "
        f"{view.get('round')}, {PHASE_NAMES.get(view.get('phase'), view.get('phase'))}{flags}",
        f"{mode} - draw pile {view.get('draw_pile')}, discard "
        f"{len(view.get('discard_pile') or [])}, Special Units {view.get('specials_deck')}, "
        f"ammo deck {view.get('ammo_deck')}",
    )


def battle_panel(
    view: Mapping[str, Any], names: Mapping[int, str], cards: CardBook
) -> Panel | None:
    """The battle in progress: battle card and point counters, points won per seat and each
    seat's revealed battle card with the unit it fights for and its battle strength."""
    battle = view.get("battle") or {}
    if view.get("phase") != "battle":
        return None
    lines = [f"battle card {battle.get('cards', 0)}, point {battle.get('point', 0)}"]
    scores = battle.get("scores") or {}
    if scores:
        lines.append(
            "points won: "
            + ", ".join(f"{names.get(int(s), f'seat {s}')} {n}" for s, n in scores.items())
        )
    strengths = view.get("strengths") or {}
    boards = [(s["seat"], s) for s in view.get("seats") or []]
    if view.get("toma"):
        boards.append((view["toma"].get("seat"), view["toma"]))
    for seat, board in boards:
        current = board.get("current")
        if not current:
            continue
        slot = current.get("slot")
        fights = (
            f"fights for slot {slot}"
            if current.get("fights") and slot is not None
            else (f"placed on slot {slot}" if slot is not None else "not placed yet")
        )
        extra = "".join(f", +{current[k]} {k}" for k in ("ammo", "bonus") if current.get(k))
        now = strengths.get(str(seat))
        lines.append(
            f"{names.get(seat, f'seat {seat}')}: {label(current.get('card'), cards)} "
            f"{fights}{extra}" + (f" - battle strength {now}" if now is not None else "")
        )
    return Panel("\n".join(lines), title="battle", expand=False)


def toma_board(toma: Mapping[str, Any], cards: CardBook) -> Group:
    """The A.I.Toma ("Solo / Cooperative Mode"): difficulty, health count (its stack's
    order is hidden from everybody), ammo and ammo strength, passive, pool and unit piles."""
    difficulty = DIFFICULTY_NAMES.get(toma.get("difficulty"), toma.get("difficulty"))
    passive = toma.get("passive")
    facts = [
        f"difficulty {difficulty}",
        f"health {toma.get('health_count')}",
        f"ammo {toma.get('ammo')} (each +{toma.get('ammo_strength')})",
        f"points {toma.get('score')}",
        f"battle stack {toma.get('battle_stack')}",
    ]
    if passive:
        facts.append(
            f"passive +{passive.get('bonus')} to "
            f"{passive.get('color')} ({COLOUR_LETTER.get(passive.get('color'), '?')})"
        )
    if toma.get("eliminated"):
        facts.append("ELIMINATED")
    parts: list[Any] = [Text("A.I.Toma: " + ", ".join(facts), style="bold")]
    if toma.get("pool"):
        parts.append(Text("pool: " + ", ".join(label(c, cards) for c in toma["pool"])))
    parts.append(slots_table("the A.I.Toma's units", list(toma.get("slots") or []), cards, False))
    return Group(*parts)


def _choice_panel(
    view: Mapping[str, Any], you: int, names: Mapping[int, str], cards: CardBook
) -> Panel | None:
    choice = view.get("choice")
    if not choice:
        return None
    if choice.get("seat") != you:
        kind = f" ({str(choice['kind']).replace('_', ' ')})" if choice.get("kind") else ""
        return Panel(f"{names.get(choice.get('seat'), 'a seat')} decides{kind}", expand=False)
    options = ", ".join(_option_words(o, cards) for o in choice.get("options") or [])
    return Panel(
        f"{choice.get('prompt') or choice.get('kind')}\noptions: {options}",
        title="your decision",
        expand=False,
        style="bold",
    )


def _option_words(option: Any, cards: CardBook) -> str:
    if isinstance(option, str) and cards.get(option):
        return label(option, cards)
    return str(option).replace("_", " ")


def _own_extras(mine: Mapping[str, Any], cards: CardBook) -> list[Any]:
    parts: list[Any] = []
    for key, title in (
        ("offered", "factions offered: keep one"),
        ("offer", "Special Units offered"),
        ("stash", "your stash"),
        ("packet", "your draft packet"),
        ("drafted", "drafted for your health stack"),
        ("megaton", "your Megaton cards"),
    ):
        if mine.get(key):
            parts.append(card_table(title, mine[key], cards))
    for name, tucked in (mine.get("tucked") or {}).items():
        if tucked:
            parts.append(card_table(f"tucked under {name}", tucked, cards))
    return parts


def render_view(console: Console, match: Mapping[str, Any], you: int, cards: CardBook) -> None:
    """Draw the match for seat ``you``: header, the players, the battle (and the reaction
    window when you may react), an open effect decision, the A.I.Toma's board, the other
    boards' slots, then your faction, pool, slots, hand and private cards with text."""
    view = match.get("view") or {}
    names = _seat_names(match, view, you)
    pending = (match.get("pending") or {}).get(str(you))
    title, line = header(match, view, {})
    console.rule(title)
    console.print(Text(line, style="bold"))
    console.print(seats_table(match, view, you, cards))
    battle = battle_panel(view, names, cards)
    if battle is not None:
        console.print(battle)
    if pending == "react":
        strengths = view.get("strengths") or {}
        best = max((v for s, v in strengths.items() if s != str(you)), default=None)
        console.print(
            Panel(
                f"Reaction window: your battle strength is {strengths.get(str(you), '?')}"
                + (f", the best other is {best}" if best is not None else "")
                + ". Replace your battle card with a hand card, spend ammo (+2 each for this "
                "point), or pass.",
                title="increase your battle strength",
                style="bold yellow",
                expand=False,
            )
        )
    choice = _choice_panel(view, you, names, cards)
    if choice is not None:
        console.print(choice)
    if view.get("table_factions"):
        console.print(
            Text(
                "factions on the table: "
                + ", ".join(label(c, cards) for c in view["table_factions"])
            )
        )
    if view.get("toma"):
        console.print(toma_board(view["toma"], cards))
    mine: Mapping[str, Any] = {}
    for seat in view.get("seats") or []:
        if seat["seat"] == you:
            mine = seat
            continue
        console.print(
            slots_table(
                f"{names[seat['seat']]}: slots; pool: "
                + (", ".join(label(c, cards) for c in seat.get("pool") or []) or "empty"),
                list(seat.get("slots") or []),
                cards,
                False,
            )
        )
    if not mine:
        return
    faction = mine.get("faction")
    parts: list[Any] = []
    if faction:
        parts.append(
            card_table("your faction", [faction] + list(mine.get("extra_factions") or []), cards)
        )
    if mine.get("pool"):
        parts.append(card_table("your pool (Special Units)", mine["pool"], cards))
    parts.append(
        slots_table(
            f"your slots - ammo {mine.get('ammo')}, health stack {mine.get('health_count')}",
            list(mine.get("slots") or []),
            cards,
            True,
        )
    )
    hand = list(mine.get("hand") or [])
    parts.append(  # no header over no rows
        card_table(f"your hand ({len(hand)})", hand, cards) if hand else Text("Your hand is empty.")
    )
    parts.extend(_own_extras(mine, cards))
    console.print(Group(*parts))
    if pending:
        deadline = match.get("deadline")
        console.print(
            f"[bold]your decision:[/] {DECISIONS.get(pending, str(pending).replace('_', ' '))}"
            + (f" (deadline {deadline}; then a bot decides for you)" if deadline else "")
        )


def _slot_words(index: Any, mine: Mapping[str, Any], cards: CardBook) -> str:
    slots = list(mine.get("slots") or [])
    if not isinstance(index, int) or not 0 <= index < len(slots):
        return f"slot {index}"
    slot = slots[index]
    if slot.get("unit"):
        pos = slot.get("pos") or 0
        strength = SCALE[pos] if 0 <= pos < len(SCALE) else "?"
        return f"slot {index} ({label(slot['unit'], cards)}, strength {strength})"
    return f"slot {index} (empty{', Red Slot' if slot.get('red') else ''})"


def describe_action(action: Mapping[str, Any], mine: Mapping[str, Any], cards: CardBook) -> Text:
    """One legal command in the rulebook's words, e.g. ``recruit B006 Hacker (B1 H) onto
    slot 0 (empty)``, ``react: spend 2 ammo (+4 battle strength for this point)``."""
    kind = action.get("type")
    card = label(action.get("card"), cards) if "card" in action else ""
    slot = _slot_words(action.get("slot"), mine, cards) if "slot" in action else ""
    if kind == "choose_faction":
        name = (cards.get(action.get("faction")) or {}).get("name", "")
        return Text(f"keep faction {action.get('faction')} {name}".rstrip())
    if kind == "open_slot":
        special = (cards.get(action.get("card")) or {}).get("category") == "special"
        return Text(
            f"play {card} as a Red Slot" if special else f"open a new slot with {card} (face down)"
        )
    if kind == "recruit":
        target = (
            f", aiming at {_slot_words(action['target'], mine, cards)}"
            if action.get("target") is not None
            else ""
        )
        return Text(f"recruit {card} onto {slot}{target}")
    if kind == "discard":
        target = (
            f", aiming at {_slot_words(action['target'], mine, cards)}"
            if action.get("target") is not None
            else ""
        )
        on = next(
            (
                i
                for i, s in enumerate(mine.get("slots") or [])
                if s.get("unit") == action.get("card")
            ),
            None,
        )
        where = (
            f" from {_slot_words(on, mine, cards)}"
            if on is not None
            else " from your hand"
            if action.get("card") in (mine.get("hand") or [])
            else ""
        )
        return Text(f"discard {card}{where} (its discard effect resolves){target}")
    if kind == "spend_ammo":
        return Text(f"spend 1 ammo: {slot} gains 1 strength")
    if kind == "triple":
        paid = {"pair_ammo": "a pair and ammo", "ammo": "3 ammo"}.get(action.get("pay"), "a Triple")
        listed = ", ".join(label(c, cards) for c in action.get("cards") or [])
        special = label(action["special"], cards) if action.get("special") else "a Special Unit"
        source = {
            "pool": "your pool",
            "health": "your health stack",
            "deck": "the deck",
            "partner": "your partner's pool",
        }.get(action.get("source"), action.get("source"))
        return Text(
            f"discard {paid}{f' ({listed})' if listed else ''} to recruit {special} from {source}"
        )
    if kind == "choose_special":
        return Text(f"keep Special Unit {label(action.get('special'), cards)}")
    if kind == "ready":
        return Text("ready: end your Recruitment Phase")
    if kind == "react_card":
        return Text(f"react: replace your battle card with {card}")
    if kind == "react_ammo":
        count = action.get("count", 1)
        return Text(f"react: spend {count} ammo (+{2 * count} battle strength for this point)")
    if kind == "pass":
        return Text("pass: do not react")
    if kind == "choose":
        return Text(f"choose {_option_words(action.get('option'), cards)}")
    if kind == "exchange_unit":
        return Text(
            f"discard {card}, take the unit of {slot} back to your hand and put "
            f"{label(action.get('unit'), cards)} there"
        )
    if kind == "cash_pool":
        return Text(f"cash {card} from your pool for 1 ammo")
    if kind == "draft_special":
        return Text(f"set {label(action.get('special'), cards)} aside for your health stack")
    if kind == "order_health":
        return Text(
            "health stack, top first: "
            + ", ".join(label(c, cards) for c in action.get("cards") or [])
        )
    if kind == "give_ammo":
        return Text("give 1 ammo to your partner")
    if kind == "place_card":
        return Text(f"place your battle card on {slot}")
    return generic_action(action, lambda c: label(c, cards))


def action_line(
    action: Mapping[str, Any], match: Mapping[str, Any], you: int, cards: CardBook
) -> Text:
    """The menu line of ``action`` (:func:`describe_action` against your own board)."""
    seats = (match.get("view") or {}).get("seats") or []
    mine = next((s for s in seats if s.get("seat") == you), {})
    return describe_action(action, mine, cards)


def render_result_extras(
    console: Console, match: Mapping[str, Any], you: int, cards: CardBook
) -> None:
    """Against the A.I.Toma: the outcome (you / your team won or lost) with its total
    strength and health."""
    result = match.get("result") or {}
    toma = result.get("toma")
    if not toma:
        return
    outcome = result.get("outcome") or ("won" if result.get("winners") else "lost")
    side = "your team" if (match.get("view") or {}).get("mode") == "coop" else "you"
    console.print(
        Panel(
            Text(
                f"{side} {outcome} against the A.I.Toma - its total strength "
                f"{toma.get('strength')}, health {toma.get('health')}"
                + (", eliminated" if toma.get("eliminated") else ""),
                style="bold green" if outcome == "won" else "bold red",
            ),
            title="A.I.Toma",
            expand=False,
        )
    )


def where(view: Mapping[str, Any], you: int, card_id: Any, field: str = "card") -> str | None:
    """Where ``card_id`` is for the menu (:mod:`cli.render.alike`, as the web board's
    ``where``): ``in your hand``, ``in your pool``, ``in slot 2`` (its unit), ``under slot 2``
    (its slot card), ``attached in slot 2``, or ``None``. Basic units of one name, colour and
    value are the same card."""
    own = next((s for s in view.get("seats") or [] if s.get("seat") == you), None)
    if own is None or not isinstance(card_id, str):
        return None
    if card_id in (own.get("hand") or []):
        return "in your hand"
    if card_id in (own.get("pool") or []):
        return "in your pool"
    for i, slot in enumerate(own.get("slots") or []):
        if not slot:
            continue
        if slot.get("unit") == card_id:
            return f"in slot {i}"
        if slot.get("card") == card_id:
            return f"under slot {i}"
        if card_id in (slot.get("attached") or []):
            return f"attached in slot {i}"
    return None


def note(action: Mapping[str, Any], view: Mapping[str, Any], you: int) -> str:
    """What a legal command adds to its menu line (as the web board's ``note``): a discard
    of a card that is not in the hand says where the card is (`` — in slot 1``), since
    "Discard Patient Zero" reads as a hand card (rulebook: "You can also discard cards from
    your hand or slots onto the discard pile at any time"); other commands add nothing."""
    if action.get("type") != "discard":
        return ""
    place = where(view, you, action.get("card"))
    return f" — {place}" if place and place != "in your hand" else ""


#: Commands that end the seat's phase or pass: the menu's key 0, asked y/N while other moves
#: remain (``cli/menu.py``): Ready (the end of your Recruitment Phase), Pass (no reaction).
ENDING = frozenset({"ready", "pass"})


def ends(action: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    """True when ``action`` ends the seat's Recruitment Phase or passes (:data:`ENDING`),
    or answers an open effect decision with the option that declines it (the view's
    ``choice.decline``: "skip", "stop", "keep", 0 ... of an optional effect)."""
    if action.get("type") in ENDING:
        return True
    choice = view.get("choice") or {}
    return (
        action.get("type") == "choose"
        and choice.get("decline") is not None
        and action.get("option") == choice["decline"]
    )
