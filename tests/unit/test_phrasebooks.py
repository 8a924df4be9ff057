"""Each game's phrasebook (domain/games/<game>/phrasebook.json) says every event and command
of the game's schemas in words: a sentence per type, card names not ids, never a raw field
dump (``key value;`` lists, ``true``/``false``, ``None``); the terminal's renderer
(cli/render/phrases.py) and the web client's (api/web/js/phrases.js) say the same.

The sentences checked are those of real matches: every mode of each game's ``TESTING``
played by random bots, each event as its own seat, another seat and a spectator read it,
and every legal command offered on the way."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cli.render.cards import CardBook
from cli.render.phrases import Phrasebook, plural
from domain import testing as game_testing
from domain.engine import Setup, build_bot, derive_rng, public_cards
from domain.games import get_engine, package_of

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "ai-100-human": "ai_100_human",
    "aipokalypse": "aipokalypse",
    "dead-apocalypse": "dead_apocalypse",
}
#: a card id left in a sentence (AI: 100% Human "071", A.I.Pokalypse "B017"/"S01"/"F06",
#: Dead Apocalypse instances "shotgun#2")
CARD_IDS = {
    "ai-100-human": re.compile(r"(?<![\w-])\d{3}(?![\w-]| VP)"),
    "aipokalypse": re.compile(r"\b[BSF]\d{2,3}(-2)?\b"),
    "dead-apocalypse": re.compile(r"#|\b[a-z]+-[a-z-]+\b"),
}
DUMP = [
    re.compile(r"\b(true|false|True|False|None|null|undefined|NaN)\b"),
    re.compile(r"[{}\[\]]"),  # an unfilled placeholder or JSON
    re.compile(r"\b[a-z]+_[a-z_]+\b"),  # a field name (snake_case)
    re.compile(r"\b[a-z]+ [^;]{1,30}; [a-z]+ [^;]{1,30};"),  # key value; key value;
    re.compile(r"\b[A-Z][a-z]+[A-Z][a-z]+[A-Za-z]*\b"),
]  # an event type (CamelCase)


def book_of(game: str) -> dict[str, Any]:
    return json.loads((ROOT / "domain" / "games" / GAMES[game] / "phrasebook.json").read_text())


def schema_types(game: str) -> tuple[set[str], set[str]]:
    """The event types of the game's events schema and of its fold (A.I.Pokalypse's
    batched Recruitment events are folded but have no top-level schema entry; a 1-seat
    match shows them unbatched), and its command types."""
    folder = ROOT / "domain" / "games" / GAMES[game] / "schemas"
    handlers = get_engine(game).fold.HANDLERS
    events = set(json.loads((folder / "events.json").read_text())) | set(handlers.types())
    commands = set(json.loads((folder / "commands.json").read_text()))
    return events, commands


def play(
    game: str,
    seats: int,
    options: dict[str, Any],
    seed: bytes,
    samples: dict[str, list],
    limit: int = 3,
) -> None:
    """A random-bot match of ``game``; up to ``limit`` samples per event type (as its own
    seat, the next seat and a spectator read it) and per legal command type."""
    engine = get_engine(game)
    bot = build_bot(engine, "random", None)
    setup = Setup(seats=seats, options=engine.validate_options(seats, dict(options)))
    events = list(engine.new_match(setup, derive_rng(seed, 0)))
    state = None
    rng = random.Random(seed)
    version = 0

    def record(produced):
        nonlocal state, version
        for event in produced:
            state = engine.evolve(state, event)
            version += 1
            for viewer in {event.seat, None, ((event.seat or 0) + 1) % seats}:
                kind = engine.redact_type(event, viewer, state)
                bucket = samples["events"].setdefault(kind, [])
                if len(bucket) < limit * 3:
                    bucket.append(
                        {
                            "type": kind,
                            "seat": event.seat,
                            "viewer": viewer,
                            "data": engine.redact(event, viewer, state),
                        }
                    )

    record(events)
    for _ in range(20_000):
        if engine.result(state) is not None:
            return
        seat = min(engine.pending(state))
        for action in engine.legal_actions(state, seat):
            bucket = samples["commands"].setdefault(action["type"], [])
            if len(bucket) < limit * 4:
                bucket.append(action)
        command = bot.choose(state, seat, rng)
        record(engine.decide(state, seat, command, derive_rng(seed, version)))
    raise AssertionError("the match did not end")


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request) -> tuple[str, dict[str, Any]]:
    game = request.param
    samples: dict[str, Any] = {"events": {}, "commands": {}}
    for i, (seats, options) in enumerate(game_testing.testing_of(package_of(game)).modes):
        play(game, seats, options, f"phrasebook-{i}".encode(), samples)
    return game, samples


def test_every_event_and_command_type_of_each_schema_has_a_sentence():
    for game in GAMES:
        book = book_of(game)
        events, commands = schema_types(game)
        assert sorted(events - set(book["events"])) == [], game
        assert sorted(commands - set(book["commands"])) == [], game
        assert book["format"] == 1 and book["game"] == game


def test_a_missing_sentence_or_a_dump_fails_these_checks():
    # the checks below can fail: a type without an entry is said by its bare type words
    cards = CardBook(public_cards(get_engine("aipokalypse")))
    book = Phrasebook({"events": {}}, cards.get)
    assert book.event({"type": "CardTucked", "seat": 0, "data": {"card": "B001"}}) == "Card tucked"
    dumped = "Events type ChoiceMade; seat 0; data kind discard; hidden true"
    assert any(p.search(dumped) for p in DUMP)
    assert CARD_IDS["aipokalypse"].search("Discard B001")


def test_sentences_of_real_matches_name_cards_and_never_dump_fields(played):
    game, samples = played
    cards = CardBook(public_cards(get_engine(game)))
    book = Phrasebook(book_of(game), cards.get)
    seats = [
        {"seat": 0, "kind": "human", "name": "ann"},
        {"seat": 1, "kind": "bot", "bot": "greedy"},
    ]
    said = []
    assert set(samples["events"]) <= set(book.book["events"]), sorted(
        set(samples["events"]) - set(book.book["events"])
    )
    for kind, items in samples["events"].items():
        for env in items:
            said.append((kind, env, book.event(env, seats, env["viewer"])))
    for kind, items in samples["commands"].items():
        for action in items:
            said.append((kind, action, book.command(action, seats, 0)))
    assert len(said) > 100
    for kind, source, text in said:
        assert text and (text[0].isupper() or text.startswith("ann ")), (kind, source, text)
        for pattern in DUMP:
            assert not pattern.search(text), (kind, source, text, pattern.pattern)
        assert not CARD_IDS[game].search(text), (kind, source, text)


def test_own_events_say_you_and_a_bots_say_its_seat_and_level():
    cards = CardBook(public_cards(get_engine("ai-100-human")))
    book = Phrasebook(book_of("ai-100-human"), cards.get)
    seats = [
        {"seat": 0, "kind": "human", "name": "ann"},
        {"seat": 1, "kind": "bot", "bot": "greedy"},
    ]
    env = {
        "type": "VPScored",
        "seat": 0,
        "data": {"reason": "card", "card": "006", "cell": [1, 2], "vp": 5},
    }
    assert book.event(env, seats, 0) == "You score 5 VP with R3 at row 1, column 2"
    assert (
        book.event({**env, "seat": 1}, seats, 0)
        == "Seat 1 (greedy bot) scores 5 VP with R3 at row 1, column 2"
    )
    assert book.event(env, seats, 1) == "ann (seat 0) scores 5 VP with R3 at row 1, column 2"
    assert "bot" not in book.event(env, seats, 1)
    drafted = {"type": "CardDrafted", "seat": 1, "data": {"forced": False}}
    assert book.event(drafted, seats, 0) == "Seat 1 (greedy bot) drafts a card into their reserve"
    assert book.command({"type": "draft", "card": "006"}, seats, 0).startswith("Draft R3 — ")
    assert plural("card", 1) == "1 card" and plural("ammo", 3) == "3 ammo"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_web_clients_renderer_says_the_same_as_the_terminals(played, tmp_path):
    game, samples = played
    document = public_cards(get_engine(game))
    cards = CardBook(document)
    book = Phrasebook(document["phrasebook"], cards.get)
    seats = [
        {"seat": 0, "kind": "human", "name": "ann"},
        {"seat": 1, "kind": "bot", "bot": "random"},
    ]
    cases = [{"event": env} for items in samples["events"].values() for env in items]
    cases += [{"command": a} for items in samples["commands"].values() for a in items]
    expected = [
        book.event(c["event"], seats, c["event"]["viewer"])
        if "event" in c
        else book.command(c["command"], seats, 0)
        for c in cases
    ]
    (tmp_path / "cases.json").write_text(
        json.dumps({"document": document, "seats": seats, "cases": cases})
    )
    script = tmp_path / "run.mjs"
    phrases = (ROOT / "api" / "web" / "js" / "phrases.js").as_uri()
    script.write_text(
        f'import {{ phrasebook }} from "{phrases}";\n'
        'import { readFileSync } from "node:fs";\n'
        f'const input = JSON.parse(readFileSync({json.dumps(str(tmp_path / "cases.json"))}, "utf8"));\n'
        "const faces = new Map(input.document.cards.map((c) => [c.id, c]));\n"
        'const face = (id) => typeof id !== "string" ? null\n'
        '  : faces.get(id) || faces.get(id.split("#")[0]) || faces.get(id.replace(/-2$/, "")) || null;\n'
        "const book = phrasebook(input.document.phrasebook, face);\n"
        "const out = input.cases.map((c) => c.event ? book.event(c.event, input.seats, c.event.viewer)\n"
        "  : book.command(c.command, input.seats, 0));\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    proc = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    mismatches = [(c, e, g) for c, e, g in zip(cases, expected, got, strict=True) if e != g]
    assert not mismatches, mismatches[:5]
