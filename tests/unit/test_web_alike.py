"""The web client's action list (``api/web/js/alike.js``) and the terminal's menu
(``cli/render/alike.py``) tell moves apart: identical cards in one place are one entry, the
same words for cards in different places say where, a Dead Apocalypse defeat says the damage
it spends; both say it in the same words."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support.node import node_or_skip

WEB = Path(__file__).resolve().parents[2] / "api" / "web" / "js"

# A Dead Apocalypse view of seat 0 (the fields the board reads): three Survivors and a Scout
# in hand, two Plague Carriers in the Zombie Row (columns 0 and 2), Base Camp in play.
VIEW = {
    "zombie_row": [{"card": "plague-carrier#z1"}, None, {"card": "plague-carrier#z2"}],
    "resource_row": [{"card": "shotgun#r1"}],
    "damage": [
        {"title": "Sniper", "amount": 3},
        {"title": "Survivor", "amount": 1},
        {"title": "Survivor", "amount": 1},
    ],
    "seats": [
        {
            "seat": 0,
            "hand": ["survivor#s0.1", "survivor#s0.2", "survivor#s0.3", "scout#s0.4"],
            "played": [],
            "locations": [{"card": "base-camp#s0.9", "occupants": []}],
        },
        {"seat": 1, "hand_count": 5, "played": ["survivor#s1.1"], "locations": []},
    ],
}
ACTIONS = [
    {"type": "play", "card": "survivor#s0.1"},
    {"type": "play", "card": "survivor#s0.2"},
    {"type": "repeat", "card": "plague-carrier#z1"},
    {"type": "repeat", "card": "plague-carrier#z2"},
    {"type": "play", "card": "survivor#s0.3"},
    {"type": "occupy", "card": "survivor#s0.1", "location": "base-camp#s0.9"},
    {"type": "occupy", "card": "survivor#s0.2", "location": "base-camp#s0.9"},
    {"type": "play", "card": "scout#s0.4"},
    {"type": "help", "card": "survivor#s1.1"},
    {"type": "help", "card": "mystery#x"},
    {"type": "defeat", "column": 0},
    {"type": "defeat", "column": 0, "spend": [[0, 3], [1, 1]]},
    {"type": "defeat", "column": 0, "spend": [[1, 1], [2, 1]]},
]


def run_node(tmp_path: Path, body: str) -> object:
    node = node_or_skip("the web client's action list")
    script = tmp_path / "run.mjs"
    script.write_text(
        f'import {{ tellApart }} from "{(WEB / "alike.js").as_uri()}";\n'
        f'import {{ where }} from "{(WEB / "boards" / "dead-apocalypse.js").as_uri()}";\n'
        f"const view = {json.dumps(VIEW)};\nconst actions = {json.dumps(ACTIONS)};\n"
        'const words = (a) => `${a.type} ${(a.card || "column " + a.column).split("#")[0]}`;\n'
        + body
    )
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def web_notes(tmp_path: Path, board: str, view: dict, actions: list, viewer: int) -> object:
    """What the web board ``board``'s ``note`` adds to each of ``actions`` for ``viewer``."""
    node = node_or_skip("the web client's action notes")
    script = tmp_path / "note.mjs"
    script.write_text(
        f'import {{ note }} from "{(WEB / "boards" / f"{board}.js").as_uri()}";\n'
        f"const view = {json.dumps(view)};\n"
        f"process.stdout.write(JSON.stringify({json.dumps(actions)}"
        f".map((a) => note(a, view, {viewer}))));\n"
    )
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_identical_cards_in_hand_are_one_button_and_zombies_say_their_column(tmp_path):
    shown = run_node(
        tmp_path,
        "process.stdout.write(JSON.stringify(tellApart(actions, words, (v, f) => where(view, 0, v, f))"
        ".map((b) => [b.text, b.count, b.action.card ?? null])));\n",
    )
    assert shown == [
        ["play survivor (3 alike in your hand)", 3, "survivor#s0.1"],
        ["repeat plague-carrier — in Zombie Row column 0", 1, "plague-carrier#z1"],
        ["repeat plague-carrier — in Zombie Row column 2", 1, "plague-carrier#z2"],
        ["occupy survivor (2 alike in your hand)", 2, "survivor#s0.1"],
        ["play scout", 1, "scout#s0.4"],
        # words differ ("survivor" / "mystery"): nothing to tell apart
        ["help survivor", 1, "survivor#s1.1"],
        ["help mystery", 1, "mystery#x"],
        # the bare command spends the default way (R-SPEND); a title twice: which of them
        ["defeat column 0 — spending the default way", 1, None],
        ["defeat column 0 — spending 3 of Sniper, 1 of Survivor #1", 1, None],
        ["defeat column 0 — spending 1 of Survivor #1, 1 of Survivor #2", 1, None],
    ]
    # the terminal's menu: the same lines
    from cli.render.alike import tell_apart
    from cli.render.dead_apocalypse import where

    def words(action):
        thing = action.get("card") or "column {}".format(action["column"])
        return f"{action['type']} {thing.split('#')[0]}"

    menu = tell_apart(ACTIONS, words, lambda value, field: where(VIEW, 0, value, field))
    assert [[e.text, e.count, e.action.get("card")] for e in menu] == shown


def test_where_names_each_place_from_the_viewers_side(tmp_path):
    places = run_node(
        tmp_path,
        "const ids = ['survivor#s0.1', 'plague-carrier#z2', 'shotgun#r1', 'base-camp#s0.9',"
        " 'survivor#s1.1', 'mystery#x'];\n"
        "process.stdout.write(JSON.stringify([ids.map((id) => where(view, 0, id)),"
        " ids.map((id) => where(view, 1, id))]));\n",
    )
    assert places == [
        [
            "in your hand",
            "in Zombie Row column 2",
            "in Resource Row column 0",
            "among your Locations",
            "among Seat 1's cards played this turn",
            None,
        ],
        [
            "in Seat 0's hand",
            "in Zombie Row column 2",
            "in Resource Row column 0",
            "among Seat 0's Locations",
            "among your cards played this turn",
            None,
        ],
    ]


def test_moves_nothing_tells_apart_keep_a_button_each(tmp_path):
    shown = run_node(
        tmp_path,
        "const same = [{type: 'x', card: 'a#1'}, {type: 'x', card: 'a#2'}];\n"
        "process.stdout.write(JSON.stringify(tellApart(same, () => 'x a', () => null)"
        ".map((b) => b.action.card)));\n",
    )
    assert shown == ["a#1", "a#2"]


def test_the_damage_pool_is_named_alike_on_the_web_and_in_the_terminal(tmp_path):
    """A title twice in the pool is numbered among its own entries, on the board, in the
    terminal's damage line and in both menus' spending plans (a probe saw Survivor #1, #3,
    #4 in a menu beside a 0-based ``[1]`` in the damage line)."""
    from cli.render.dead_apocalypse import pool_names

    pool = [{"title": t} for t in ("Survivor", "Weapons Cache", "Survivor", "Survivor", "Sniper")]
    web = run_node(
        tmp_path,
        f'import {{ poolNames }} from "{(WEB / "boards" / "dead-apocalypse.js").as_uri()}";\n'
        f"process.stdout.write(JSON.stringify(poolNames({json.dumps(pool)})));\n",
    )
    expected = ["Survivor #1", "Weapons Cache", "Survivor #2", "Survivor #3", "Sniper"]
    assert web == pool_names(pool) == expected


def test_an_aipokalypse_discard_of_a_unit_says_its_slot_on_the_web_and_in_the_terminal(
    tmp_path,
):
    """A.I.Pokalypse discards from the hand or a slot; "Discard Patient Zero" with an empty
    hand read as a hand card (probe, session 20): a discard of a card not in hand says where
    it lies, the same words on the web and in the terminal."""
    from cli.render.aipokalypse import note

    view = {
        "seats": [
            {
                "seat": 0,
                "hand": ["B001"],
                "pool": ["S010"],
                "slots": [{"unit": "B002", "card": "B003", "attached": []}, None],
            },
            {"seat": 1, "hand_count": 3, "slots": [{"unit": "B009"}]},
        ]
    }
    actions = [
        {"type": "discard", "card": "B001"},
        {"type": "discard", "card": "B002"},
        {"type": "discard", "card": "B002", "target": 0},
        {"type": "discard", "card": "S010"},
        {"type": "recruit", "card": "B001", "slot": 1},
    ]
    expected = ["", " — in slot 0", " — in slot 0", " — in your pool", ""]
    web = web_notes(tmp_path, "aipokalypse", view, actions, 0)
    assert web == [note(a, view, 0) for a in actions] == expected


def test_taking_the_resource_row_card_names_it_on_the_web_and_in_the_terminal(tmp_path):
    """Dead Apocalypse's reward choice said "Take the Resource Row card" without naming it
    (helper, session 20): it names the card of the defeated column, the same on both."""
    from cli.render.dead_apocalypse import note

    view = {
        "prompt": {"kind": "reward", "seat": 1, "column": 1, "queue": [], "taken": False},
        "resource_row": [
            {"card": "shotgun#r1", "title": "Shotgun"},
            {"card": "axe#r2", "title": "Axe"},
        ],
    }
    actions = [
        {"type": "claim", "choice": "resource"},
        {"type": "claim", "choice": "adept"},
        {"type": "end_turn"},
    ]
    expected = [" — Axe, Resource Row column 1", "", ""]
    web = web_notes(tmp_path, "dead-apocalypse", view, actions, 1)
    assert web == [note(a, view, 1) for a in actions] == expected
    assert note(actions[0], {"resource_row": view["resource_row"]}, 1) == ""  # no prompt


def test_a_dead_apocalypse_prompt_is_a_sentence_on_the_web(tmp_path):
    """The web board printed an open prompt as its raw fields ("kind: \\"reward\\"; seat: 0;
    column: 0; queue: ; taken: false", probe, session 20): it says it as the terminal does."""
    node = node_or_skip("the web client's prompt words")
    view = {
        "prompt": {"kind": "reward", "seat": 1, "column": 1, "queue": [], "taken": False},
        "resource_row": [None, {"card": "axe#r2", "column": 1}],
    }
    script = tmp_path / "prompt.mjs"
    script.write_text(
        f'import {{ promptWords }} from "{(WEB / "boards" / "dead-apocalypse.js").as_uri()}";\n'
        "const cards = new Map([['axe', {id: 'axe', title: 'Axe'}]]);\n"
        "const ctx = {viewer: 0, cards, seatName: (s) => `Seat ${s}`};\n"
        f"const view = {json.dumps(view)};\n"
        "const taken = {...view, prompt: {...view.prompt, taken: true}};\n"
        "process.stdout.write(JSON.stringify([promptWords(ctx, view), "
        "promptWords({...ctx, viewer: 1}, taken)]));\n"
    )
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    first, second = json.loads(proc.stdout)
    assert first.startswith(
        "Seat 1: the reward for assisting - the Resource Row card of column 1 ("
    )
    assert first.endswith(") or an Adept Survivor") and "kind" not in first
    assert second == "you: the reward for assisting - an Adept Survivor"
