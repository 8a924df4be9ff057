"""Dead Apocalypse's terminal screen (``cli/render/dead_apocalypse.py``) on real seat
views: the Zombie Row over the Resource Row in aligned columns, hand with text, deck and
discard counts, Locations with occupants, Call for Help; commands in words."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from cli.render import CardBook, renderer_for
from cli.render.dead_apocalypse import describe_action, label, rows_table
from domain.engine import public_cards
from domain.games import get_engine
from tests.support.screens import played_until, seat_screen

ENGINE = get_engine("dead-apocalypse")
CARDS = CardBook({"game": "dead-apocalypse", **public_cards(ENGINE)})
RENDER = renderer_for("dead-apocalypse")
ROOT = Path(__file__).resolve().parents[2]


def _played(seats: int, seed: str, until, options=None, bot: str = "cooperative"):
    return played_until(ENGINE, seats, seed, until, bot, options)


def _screen(state, you: int) -> tuple[str, dict]:
    return seat_screen(ENGINE, RENDER, CARDS, state, you, len(state.seats), "cooperative")


def _pending(kind: str, seat: int = 0):
    return lambda state: ENGINE.pending(state).get(seat) == kind


def test_labels_name_the_card_its_faction_letter_and_its_copy():
    assert label("survivor#s0.4", CARDS) == "Survivor (S) #s0.4"
    assert label("shotgun#2", CARDS).startswith("Shotgun (")
    assert label("cdc", CARDS) == "Center for Disease Control (X)"


def test_the_zombie_row_lies_over_the_resource_row_in_aligned_columns():
    state = _played(2, "render-da", _pending("turn"))
    view = ENGINE.view(state, 0)
    console = Console(record=True, width=220, color_system=None)
    console.print(rows_table(view, CARDS))
    lines = console.export_text().splitlines()
    zombie_line = next(i for i, line in enumerate(lines) if line.startswith("│ Zombie Row"))
    resource_line = next(i for i, line in enumerate(lines) if line.startswith("│ Resource Row"))
    assert zombie_line < resource_line
    for column in range(5):
        z, r = view["zombie_row"][column], view["resource_row"][column]
        zx = lines[zombie_line].index(z["title"])
        rx = lines[resource_line].index(r["title"])
        header = next(line for line in lines if "column 0" in line)
        cx = header.index(f"column {column}")
        # both cards start in the column whose header is above them
        assert abs(zx - cx) <= 2 and abs(rx - cx) <= 2, (column, zx, rx, cx)
        assert f"HP {z['hp']}" in "\n".join(lines)


def test_a_turn_shows_the_hand_with_text_counts_and_the_menu_in_words():
    state = _played(2, "render-da-turn", lambda s: _pending("turn")(s) and s.turn >= 3)
    text, match = _screen(state, 0)
    mine = match["view"]["seats"][0]
    assert (
        f"your hand ({len(mine['hand'])}) - deck {mine['deck_count']}, discard "
        f"{len(mine['discard'])}" in text
    )
    for card in mine["hand"]:
        assert label(card, CARDS) in text
    flat = " ".join(text.split())
    for card in set(mine["hand"]):
        assert CARDS.get(card)["text"] in flat
    assert "co-operative game, 2 players, standard game - Zombie Stack" in text
    assert "end your turn" in text
    assert "{" not in text.split("your decision:")[1]
    # the other seat's hand never appears
    other = set(state.seats[1].hand) - set(mine["hand"])
    assert other
    shown_instances = [c for c in other if "#" in c and label(c, CARDS) in text]
    assert not shown_instances


def test_an_empty_hand_is_a_sentence_not_a_header_without_rows():
    state = _played(2, "render-da-empty", lambda s: _pending("turn")(s) and not s.seats[0].hand)
    text, match = _screen(state, 0)
    mine = match["view"]["seats"][0]
    assert mine["hand"] == []
    assert (
        f"Your hand is empty - deck {mine['deck_count']}, discard {len(mine['discard'])}." in text
    )
    assert "your hand (0)" not in text and "┃ card " not in text.split("cards in play")[-1]


def test_locations_show_their_occupants():
    def occupied(state):
        return any(loc["occupants"] for s in state.seats for loc in s.locations)

    state = _played(2, "render-da-loc", occupied)
    owner = next(
        i for i, s in enumerate(state.seats) if any(loc["occupants"] for loc in s.locations)
    )
    text, _ = _screen(state, 0)
    loc = next(loc for loc in state.seats[owner].locations if loc["occupants"])
    occupants = ", ".join(
        label(o["card"], CARDS) + (" upright" if o.get("upright") else "") for o in loc["occupants"]
    )
    assert f"Location {label(loc['card'], CARDS)} (occupancy " in text
    assert f"): {occupants}" in text


def test_call_for_help_asks_the_next_seat_to_assist_or_decline():
    state = _played(
        3, "render-da-help", lambda s: any(v == "help" for v in ENGINE.pending(s).values())
    )
    asked = next(seat for seat, kind in ENGINE.pending(state).items() if kind == "help")
    text, match = _screen(state, asked)
    caller = match["view"]["active"]
    assert f"seat {caller}, bot (cooperative) calls for help." in text
    assert "You may assist (play cards for the attack) or decline." in text
    assert "answer the Call for Help: assist or decline" in text
    assert "assist the active player in this attack" in text and "decline to assist" in text


def test_commands_read_as_the_rulebook_words():
    view = {
        "zombie_row": [{"card": "shambler#1", "title": "Shambler", "hp": 1, "column": 0}],
        "resource_row": [{"card": "soldier#2", "title": "Soldier", "column": 0}],
        "damage": [{"title": "Shotgun", "amount": 3}, {"title": "Survivor", "amount": 1}],
        "prompt": {"kind": "reward", "seat": 0, "column": 0, "taken": False},
    }

    def said(action):
        return describe_action(action, view, 0, CARDS).plain

    assert said({"type": "defeat", "column": 0}) == "defeat Shambler (W) #1, HP 1, in column 0"
    assert (
        said({"type": "defeat", "column": 0, "spend": [[0, 1]]})
        == "defeat Shambler (W) #1, HP 1, in column 0, spending 1 of Shotgun"
    )
    assert (
        said({"type": "claim", "choice": "resource"})
        == "take the Resource Row card of column 0 (Soldier (M) #2)"
    )
    assert said({"type": "claim", "choice": "adept"}) == "take an Adept Survivor"
    assert (
        said({"type": "occupy", "card": "survivor#s0.2", "location": "base-camp#s0.1"})
        == "place Survivor (S) #s0.2 beneath your Location Base Camp (C) #s0.1"
    )
    assert said({"type": "choose", "card": "infection#3"}) == "Ditch Infection (I) #3"
    assert said({"type": "call_for_help"}) == "call for help"
    assert (
        said({"type": "use_repeat", "card": "screamer#1"})
        == "resolve the Repeat of the Zombie Screamer (R) #1 now"
    )
    assert (
        said({"type": "use_repeat", "card": "watchtower#1"})
        == "repeat the ability of your Location Watchtower (M) #1"
    )


def test_a_conditional_damage_entry_says_its_condition_in_the_pool_and_the_log():
    """Sniper: "+3 damage. +2 damage if another Military card is in play" — its +2 is a pool
    entry worth 0 until a Military card is in play (ruling R-CONDITION); the pool and the
    log say so rather than a bare "+0" that later reads "+2"."""
    from cli.render.dead_apocalypse import damage_line
    from cli.render.phrases import Phrasebook

    cond = {"op": "damage_if", "amount": 2, "match": {"faction": "Military"}}
    view = {
        "damage": [
            {"seat": 0, "title": "Sniper", "amount": 3},
            {"seat": 0, "title": "Survivor", "amount": 0},
            {"seat": 0, "title": "Sniper", "amount": 0, "cond": cond, "spent": 0},
            {
                "seat": 1,
                "title": "Mechanic",
                "amount": 1,
                "ally": True,
                "spent": 1,
                "cond": {"op": "damage_per", "amount": 1, "match": {"kind": "equipment"}},
            },
        ],
        "defeated_this_turn": 0,
    }
    assert damage_line(view, {0: "you", 1: "seat 1"}, CARDS.phrases) == (
        "damage left this turn: 4 (Sniper #1, you +3; Survivor, you +0 (spent); Sniper #2, "
        "you +0 (+2 while another Military card is in play); Mechanic, seat 1, ally +1 (+1 "
        "for each equipment card in play, 1 spent)) - Zombies defeated this turn: 0"
    )
    book = Phrasebook(public_cards(ENGINE)["phrasebook"], CARDS.get)
    seats = [{"seat": 0, "kind": "human", "name": "ann"}]
    gained = {
        "type": "DamageGained",
        "seat": 0,
        "data": {"seat": 0, "source": "sniper#1", "amount": 0, "ally": False, "cond": cond},
    }
    plain = book.event({**gained, "data": {**gained["data"], "cond": None}}, seats, 0)
    assert plain.startswith("You gain 0 damage from Sniper")
    assert book.event(gained, seats, 0) == (
        f"{plain} for now: +2 while another Military card is in play"
    )


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_web_board_says_the_pool_conditions_as_the_terminal(tmp_path):
    """The web board's ``conditionWords`` and the CLI's :func:`condition_words` read the same
    phrasebook part (``condition``): the same words for every kind of entry."""
    from cli.render.dead_apocalypse import condition_words

    entries = [
        {"amount": 3},
        {"amount": 0},
        {
            "amount": 0,
            "spent": 0,
            "cond": {"op": "damage_if", "amount": 2, "match": {"faction": "Military"}},
        },
        {
            "amount": 1,
            "spent": 1,
            "cond": {"op": "damage_per", "amount": 1, "match": {"kind": "equipment"}},
        },
        {
            "amount": 2,
            "spent": 0,
            "cond": {"op": "damage_per", "amount": 1, "match": {"faction": "Civilian"}},
        },
    ]
    expected = [condition_words(e, CARDS.phrases) for e in entries]
    assert expected == [
        "",
        " (spent)",
        " (+2 while another Military card is in play)",
        " (+1 for each equipment card in play, 1 spent)",
        " (+1 for each other Civilian card in play)",
    ]
    web = ROOT / "api" / "web" / "js"
    script = tmp_path / "run.mjs"
    script.write_text(
        f'import {{ conditionWords }} from "{(web / "boards" / "dead-apocalypse.js").as_uri()}";\n'
        f'import {{ phrasebook }} from "{(web / "phrases.js").as_uri()}";\n'
        f"const book = phrasebook({json.dumps(CARDS.phrasebook)}, () => null);\n"
        f"const entries = {json.dumps(entries)};\n"
        "process.stdout.write(JSON.stringify(entries.map((e) => conditionWords(e, book))));\n"
    )
    proc = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected
