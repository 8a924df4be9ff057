"""``arena play`` client logic without a server: resending after a version conflict,
errors reported as one line, and whole solo / 2-player matches played through
``play_match`` against an in-process stand-in of the HTTP API (the domain engine answering
for seat 0's token). The full game over HTTP runs in tests/e2e/test_cli_play.py; the
``--seats 1`` / ``--seats 2`` command lines run at the end of this file (marked e2e)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.bot_match import bot_rng, match_seed
from cli.http_client import ApiError
from cli.main import main
from cli.menu import MenuLine, discard_typeahead
from cli.play import QUIT, RESIGN, Session, _send, auto_chooser, lineup, play_match, prompt_chooser
from cli.render import CardBook, renderer_for
from cli.render.ai_100_human import card_label as _card_label
from domain.engine import Event, Setup, derive_rng, fold, public_cards
from domain.games import get_engine

CARDS = CardBook({"game": "ai-100-human", **public_cards(get_engine("ai-100-human"))})


def card_label(card_id):
    return _card_label(card_id, CARDS)


ROOT = Path(__file__).resolve().parents[2]

DRAFT = {"type": "draft", "card": "001"}
END_TURN = {"type": "end_turn"}


def _drafts(count: int, ending: bool = False) -> list[MenuLine]:
    """A menu of ``count`` draft lines numbered from 1, then "End your turn" (key 0)."""
    lines = [MenuLine(str(n), f"Draft {n:03}", DRAFT) for n in range(1, count + 1)]
    return lines + ([MenuLine("0", "End your turn", END_TURN, True)] if ending else [])


class FakeClient:
    """Answers ``act`` from a script of results/exceptions; ``legal_actions`` from a list."""

    def __init__(self, acts, legal):
        self.acts, self.legal, self.sent = list(acts), list(legal), []

    def act(self, match_id, token, command, expected_version=None):
        self.sent.append((command, expected_version))
        outcome = self.acts.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def legal_actions(self, match_id, token):
        return self.legal.pop(0)


def _conflict() -> ApiError:
    return ApiError(409, {"code": "version_conflict", "detail": "moved on", "current_version": 13})


def test_a_still_legal_command_is_resent_at_the_new_version():
    client = FakeClient(
        [_conflict(), {"version": 14, "events": []}], [{"version": 13, "actions": [DRAFT]}]
    )
    assert _send(client, "m", "t", DRAFT, 12) == {"version": 14, "events": []}
    assert client.sent == [(DRAFT, 12), (DRAFT, 13)]


def test_a_command_no_longer_legal_is_not_resent():
    client = FakeClient(
        [_conflict()], [{"version": 13, "actions": [{"type": "draft", "card": "002"}]}]
    )
    assert _send(client, "m", "t", DRAFT, 12) is None
    assert len(client.sent) == 1


def test_a_rule_error_is_raised():
    client = FakeClient([ApiError(422, {"code": "card_not_in_hand"})], [])
    try:
        _send(client, "m", "t", DRAFT, 12)
    except ApiError as exc:
        assert exc.code == "card_not_in_hand"
    else:
        raise AssertionError("the 422 was swallowed")


def test_auto_chooser_is_reproducible_with_a_seed():
    actions = [{"type": "draft", "card": f"{i:03}"} for i in range(1, 8)]
    first, again = auto_chooser(5), auto_chooser(5)
    picks = [first(actions) for _ in range(20)]
    assert picks == [again(actions) for _ in range(20)]
    assert all(0 <= p < 7 for p in picks) and len(set(picks)) > 1


def test_an_unreachable_server_is_one_error_line():
    result = CliRunner().invoke(main, ["play", "--url", "http://127.0.0.1:1", "--auto"])
    assert result.exit_code == 1
    assert "cannot reach the server at http://127.0.0.1:1" in result.output


def test_lineup_names_each_game_s_own_modes():
    assert lineup("ai-100-human", 1, "greedy") == "solo mode: you are seat 0, no bots"
    assert lineup("ai-100-human", 2, "random") == "2-player mode: you are seat 0, 1 bot (random)"
    assert lineup("ai-100-human", 4, "greedy") == "standard game: you are seat 0, 3 bots (greedy)"
    assert (
        lineup("aipokalypse", 1, "tactician")
        == "Solo Mode against the A.I.Toma (Boss): you are seat 0, no bots"
    )
    assert (
        lineup("aipokalypse", 2, "tactician", {"mode": "coop", "difficulty": "untamed"})
        == "Cooperative Mode against the A.I.Toma (Untamed A.I.): you are seat 0, 1 bot (tactician)"
    )
    assert lineup("aipokalypse", 3, "idle") == "competitive game: you are seat 0, 2 bots (idle)"
    assert lineup("aipokalypse", 6, "idle").startswith("5-8 Player Variant: ")
    assert (
        lineup("dead-apocalypse", 1, "cooperative")
        == "co-operative game, solo, standard game: you are seat 0, no bots"
    )
    assert (
        lineup("dead-apocalypse", 3, "cooperative", {"difficulty": "easy"})
        == "co-operative game, 3 players, easy game: you are seat 0, 2 bots (cooperative)"
    )
    assert "solo mode" not in lineup("dead-apocalypse", 1, "x") + lineup("aipokalypse", 2, "x")


def test_seats_help_uses_each_game_s_mode_names():
    text = CliRunner().invoke(main, ["play", "--help"], terminal_width=400).output
    flat = " ".join(text.split())
    assert "AI: 100% Human: 1 = solo mode, 2 = 2-player mode, 3-6 = the standard game" in flat
    assert "A.I.Pokalypse: 1 = Solo Mode against the A.I.Toma" in flat
    assert "Cooperative Mode against the A.I.Toma with --option mode=coop" in flat
    assert "5-8 = the 5-8 Player Variant" in flat
    assert "Dead Apocalypse: 1-4 = the co-operative game" in flat
    assert "resign" in flat and "quit" in flat and "130" in flat


def _prompt(lines):
    """A prompt chooser reading ``lines`` (then end of input) into a recorded console."""
    console = Console(record=True, width=200, color_system=None)
    feed = iter(lines)

    def read(prompt):
        console.print(prompt, end="", markup=False)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return prompt_chooser(console, read), console


def test_the_prompt_answers_a_bad_entry_with_a_sentence_and_asks_again():
    choose, console = _prompt(["0", "9", "two", "", " 2 "])
    assert choose(_drafts(3)) == 1
    text = console.export_text()
    assert "There is no action 0: choose a number from 1 to 3." in text
    assert "There is no action 9: choose a number from 1 to 3." in text
    assert '"two" is neither an action number (1 to 3) nor a command; type help' in text
    assert "Please type the number of an action, from 1 to 3 (or help)." in text
    assert text.count("your choice (1-3, help, resign, quit): ") == 5


def test_unicode_digits_and_huge_numbers_are_bad_entries_not_a_crash():
    """A "²" is a digit to ``str.isdigit`` but not to ``int()`` (it raised ValueError and
    ended ``arena play``); 5,000 digits pass ``int()``'s limit: both are bad entries."""
    choose, console = _prompt(["²", "٣", "9" * 5000, "2"])
    assert choose(_drafts(3)) == 1
    text = console.export_text()
    assert text.count("is neither an action number (1 to 3) nor a command") == 3


def test_the_prompt_knows_help_quit_resign_and_end_of_input():
    choose, console = _prompt(["help", "resign"])
    assert choose(_drafts(1)) == RESIGN
    text = console.export_text()
    assert "resign     give up your seat" in text and "quit       resign and leave" in text
    assert "0          the move that ends your turn or passes" in text
    assert _prompt(["quit"])[0](_drafts(1)) == QUIT
    assert _prompt(["q"])[0](_drafts(1)) == QUIT
    assert _prompt([""])[0](_drafts(1)) == 0  # Enter takes the only action
    choose, console = _prompt([])
    assert choose(_drafts(1)) == QUIT
    assert "Input ended: leaving the match." in console.export_text()


def test_a_single_choice_is_prompted_as_one_not_as_a_range():
    choose, console = _prompt(["2", "1"])
    assert choose(_drafts(1)) == 0
    text = console.export_text()
    assert "1-1" not in text
    assert "your choice (1, or Enter; help, resign, quit): " in text
    assert "There is no action 2: choose 1." in text
    choose, console = _prompt(["1", "0"])  # the ending move alone: no question
    assert choose(_drafts(0, ending=True)) == 0
    text = console.export_text()
    assert "your choice (0 = End your turn, or Enter; help, resign, quit): " in text
    assert "There is no action 1: choose 0 (End your turn)." in text
    assert "[y/N]" not in text
    assert _prompt([""])[0](_drafts(0, ending=True)) == 0


def test_the_ending_move_has_key_0_and_asks_while_other_moves_remain():
    choose, console = _prompt(["0", "n", "0", "", "0", "y"])
    assert choose(_drafts(4, ending=True)) == 4
    text = console.export_text()
    assert "your choice (1-4; 0 = End your turn; help, resign, quit): " in text
    assert text.count("End your turn with 4 other moves left (1-4)? [y/N] ") == 3
    assert text.count("Not sent: choose again.") == 2  # "n" and Enter keep the turn
    choose, console = _prompt(["5", "go", "", "0", "yes"])
    assert choose(_drafts(1, ending=True)) == 1
    text = console.export_text()
    assert "There is no action 5: choose 1, or 0 (End your turn)." in text
    assert '"go" is neither an action number (1, or 0 (End your turn)) nor a command' in text
    assert "Please type the number of an action, 1, or 0 (End your turn) (or help)." in text
    assert "End your turn with 1 other move left (1)? [y/N] " in text
    # end of input at the question leaves the match, nothing sent
    assert _prompt(["0"])[0](_drafts(2, ending=True)) == QUIT


def test_typed_ahead_lines_are_dropped_on_a_terminal_and_said_so():
    import pty

    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "r", closefd=False) as terminal:
            assert discard_typeahead(terminal) is False  # nothing waiting
            os.write(master, b"1\n4\n")
            assert wait_for_readable(terminal)
            assert discard_typeahead(terminal) is True
            assert discard_typeahead(terminal) is False  # gone
    finally:
        os.close(master)
        os.close(slave)
    read_end, write_end = os.pipe()  # not a terminal (a script): left alone
    try:
        with os.fdopen(read_end, "r", closefd=False) as piped:
            os.write(write_end, b"1\n")
            assert discard_typeahead(piped) is False and piped.readline() == "1\n"
    finally:
        os.close(read_end)
        os.close(write_end)
    console = Console(record=True, width=200, color_system=None)
    flushed = iter([True, False])
    feed = iter(["2", "1"])
    choose = prompt_chooser(console, lambda prompt: next(feed), False, lambda: next(flushed))
    assert choose(_drafts(3)) == 1 and choose(_drafts(3)) == 0
    assert console.export_text().count("Ignored what you typed before this menu was shown") == 1


def wait_for_readable(stream) -> bool:
    """Whether ``stream`` has input within a second."""
    import select

    return bool(select.select([stream], [], [], 1.0)[0])


class DomainApi:
    """The answers of the public HTTP API for one match of ``game``, computed in process
    by the domain engine: seat 0 holds token ``"t0"``; the other seats are random bots that
    act as soon as they are pending. Views and events are those seat 0 receives
    (``engine.view`` / ``engine.redact`` for viewer 0); ``resign`` decides the engine's
    resign command for seat 0 (its timeout policy, random here, plays it on)."""

    def __init__(self, seed: bytes, game: str = "ai-100-human"):
        self.game = game
        self.engine = get_engine(game)
        self.seed = seed
        self.resigned: list[int] = []
        self.log: list[Event] = []
        self.state: Any = None
        self.views: list[dict] = []  # every view seat 0 fetched

    def cards(self, game):
        return {"game": game, **public_cards(self.engine)}

    def create_match(self, game, seats, options=None, player_key=None, rated=False):
        assert game == self.game and seats[0]["kind"] == "human"
        self.seats = [
            {"seat": i, **{k: v for k, v in s.items() if k != "name"}} for i, s in enumerate(seats)
        ]
        self._append(
            self.engine.new_match(
                Setup(len(seats), self.engine.validate_options(len(seats), options or {})),
                derive_rng(self.seed, 0),
            )
        )
        self._bots()
        return {
            "match_id": "m",
            "version": 0,
            "seed_commitment": "c" * 64,
            "seats": [{"seat": 0, "kind": "human", "token": "t0"}],
        }

    def _append(self, events):
        self.log.extend(events)
        self.state = fold(self.engine, events, self.state)

    def _bots(self, resigned_too: bool = False):
        """The bots act; a resigned seat 0 only when ``resigned_too`` (the worker plays it
        while the client long-polls, so the client sees it pending in between)."""
        while self._one_bot(resigned_too):
            pass

    def _one_bot(self, resigned_too: bool = False) -> bool:
        """The first pending bot plays one command; False when none is pending (or the
        match has ended)."""
        if self.engine.result(self.state) is not None:
            return False
        bots = sorted(
            s
            for s in self.engine.pending(self.state)
            if s != 0 or (resigned_too and 0 in self.resigned)
        )
        if not bots:
            return False
        version = len(self.log)
        command = self.engine.bots["random"].choose(
            self.state, bots[0], bot_rng(self.seed, version, bots[0])
        )
        self._append(
            self.engine.decide(self.state, bots[0], command, derive_rng(self.seed, version))
        )
        return True

    def match(self, match_id, token):
        assert token == "t0"
        result = self.engine.result(self.state)
        view = self.engine.view(self.state, 0)
        self.views.append(view)
        return {
            "match_id": match_id,
            "game": self.game,
            "version": len(self.log),
            "seats": self.seats,
            "status": "running" if result is None else "finished",
            "view": view,
            "result": result,
            "seed_commitment": "c" * 64,
            "pending": {str(k): v for k, v in self.engine.pending(self.state).items()},
            "resigned": list(self.resigned),
        }

    def legal_actions(self, match_id, token):
        # as the server does: the engine's choices, also for a resigned seat (whose
        # commands are refused with 409 seat_resigned)
        return {"version": len(self.log), "actions": self.engine.legal_actions(self.state, 0)}

    def resign(self, match_id, token):
        assert token == "t0" and 0 not in self.resigned
        before = len(self.log)
        self._append(
            self.engine.decide(self.state, 0, {"type": "resign"}, derive_rng(self.seed, before))
        )
        self.resigned.append(0)
        self._bots()
        return {"version": len(self.log), "events": self.events(match_id, token, before)["events"]}

    def act(self, match_id, token, command, expected_version=None):
        if 0 in self.resigned:
            raise ApiError(409, {"code": "seat_resigned"})
        if expected_version != len(self.log):
            raise ApiError(409, {"code": "version_conflict", "current_version": len(self.log)})
        before = len(self.log)
        self._append(self.engine.decide(self.state, 0, command, derive_rng(self.seed, before)))
        self._bots()
        return {
            "version": len(self.log),
            "events": self.events(match_id, token, before)["events"],
            "replayed": False,
        }

    def events(self, match_id, token, after, wait_s=0.0):
        if wait_s:
            self._bots(resigned_too=True)
        return {
            "version": len(self.log),
            "events": [
                {"version": v, "type": e.type, "seat": e.seat, "data": self.engine.redact(e, 0)}
                for v, e in enumerate(self.log, start=1)
                if v > after
            ],
        }


def _play(
    seats: int, seed: str, game: str = "ai-100-human", choose=None, options=None
) -> tuple[dict, str, DomainApi]:
    api = DomainApi(match_seed(seed, 0), game)
    console = Console(record=True, width=200, color_system=None)
    match = play_match(
        api, game, seats, "random", choose or auto_chooser(3), console, options=options
    )
    return match, console.export_text(), api


def test_auto_play_finishes_a_solo_match_and_prints_the_rating():
    match, text, api = _play(1, "play-solo")
    assert match["status"] == "finished"
    result = match["result"]
    assert result["rating"] in {
        "Failure",
        "Mentat",
        "AL9000",
        "Shyrka",
        "Cortana",
        "Skynet",
        "PRIV8",
    }
    score = result["scores"][0]
    assert f"{result['rating']} ({score} VP)" in text and "solo rating" in text
    assert "solo mode: you are seat 0, no bots" in text
    # Every draft decision was shown with the draft grid and its offer (R-SOLO-LINE).
    assert "draft grid" in text and "\u25b6 offered" in text and "timer stack:" in text
    # R-SOLO-SETUP / R-SOLO-LINE: 18 timer cards at the first draft, 3 fewer per refill.
    drafts = [v for v in api.views if v["step"] == "draft" and v["phase"] == 1]
    assert drafts[0]["solo"]["timer_count"] == 18
    assert "timer stack: 18 cards face down" in text


def test_auto_play_finishes_a_2_player_match_and_prints_both_seats():
    match, text, api = _play(2, "play-duo")
    assert match["status"] == "finished"
    final = text.rsplit("final result of match", 1)[1]
    rows = [line for line in final.splitlines() if line.startswith("\u2502")]
    # two rows of the result table, then the score breakdown's two rows (one per seat)
    assert len(rows) == 4 and "bot (random)" in final and "you" in final
    assert "neutral grid" in text and "seat 1's tableau (opponent)" in text
    # R-DUO-GRID: 12 neutral cards by the end, all drawn on seat 0's screen.
    neutral = api.views[-1]["neutral_grid"]
    assert len(neutral) == 12
    # Seat 1's hidden cards never reach seat 0: every hand/reserve card it ever held and
    # never showed (in a tableau or the neutral grid) is absent from the output.
    shown = {e["card"] for e in neutral} | {
        e["card"] for s in api.views[-1]["seats"] for e in s["tableau"]
    }
    seen_by_0 = set()
    for v in api.views:
        seen_by_0 |= set(v["you"]["hand"] + v["you"]["reserve"] + v["you"]["dealt"])
    secret = set()
    for event in api.log:
        if event.seat == 1 and event.type in ("CardDiscarded", "CardsDrawn"):
            secret |= set(event.data.get("cards") or [event.data.get("card")])
    secret -= shown | seen_by_0
    assert secret
    assert not any(card_label(card).plain in text for card in secret)


def _arena(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env.update(COLUMNS="200", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.e2e
def test_arena_play_seats_1_auto_finishes_and_prints_the_rating():
    proc = _arena("play", "--seats", "1", "--auto", "--quiet", "--seed", "4")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "solo mode: you are seat 0, no bots" in proc.stdout
    assert "final result of match" in proc.stdout and "solo rating" in proc.stdout
    assert "rating ladder" in proc.stdout and "\u25c0 final:" in proc.stdout


@pytest.mark.e2e
def test_arena_play_seats_2_auto_finishes_and_prints_the_result():
    proc = _arena("play", "--seats", "2", "--auto", "--seed", "4", "--bots", "random")
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "2-player mode: you are seat 0, 1 bot (random)" in out
    assert "neutral grid" in out and "seat 1's tableau (opponent)" in out
    final = out.rsplit("final result of match", 1)[1]
    # two rows of the result table, then the score breakdown's two rows (one per seat)
    assert sum(line.startswith("\u2502") for line in final.splitlines()) == 4
    assert "solo rating" not in out


@pytest.mark.parametrize(
    "game, level",
    [("aipokalypse", "tactician"), ("dead-apocalypse", "cooperative"), ("ai-100-human", "greedy")],
)
def test_play_without_bots_uses_the_general_bot_of_the_chosen_game(monkeypatch, game, level):
    import contextlib

    import cli.play as play_module

    calls = []
    monkeypatch.setattr(
        play_module, "server_url", lambda url, console: contextlib.nullcontext("http://x")
    )
    monkeypatch.setattr(
        play_module,
        "play_match",
        lambda client, game_, seats, bots, *a, **k: calls.append((game_, bots)),
    )
    result = CliRunner().invoke(main, ["play", "--game", game, "--seats", "2", "--auto", "--quiet"])
    assert result.exit_code == 0, result.output
    assert calls == [(game, level)]


def test_play_asks_the_server_for_the_levels_of_a_game_not_installed_here(monkeypatch):
    import contextlib

    import cli.play as play_module

    calls = []
    monkeypatch.setattr(
        play_module, "server_url", lambda url, console: contextlib.nullcontext("http://x")
    )
    monkeypatch.setattr(
        play_module.ArenaClient,
        "games",
        lambda self: [{"id": "other", "bots": ["random", "idle", "smart"]}],
    )
    monkeypatch.setattr(
        play_module,
        "play_match",
        lambda client, game_, seats, bots, *a, **k: calls.append((game_, bots)),
    )
    result = CliRunner().invoke(main, ["play", "--game", "other", "--seats", "2", "--auto"])
    assert result.exit_code == 0, result.output
    assert calls == [("other", "smart")]
    unknown = CliRunner().invoke(main, ["play", "--game", "chess", "--auto"])
    assert unknown.exit_code == 2 and "chess" in unknown.output


def _menus(text: str) -> list[list[str]]:
    """Each numbered menu of ``text``: its lines' words (without the numbers)."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        number, _, words = line.strip().partition("  ")
        if line.startswith("  ") and number.isdigit() and int(number) == len(current) + 1:
            current.append(words.strip())
            continue
        if current:
            blocks.append(current)
        current = [words.strip()] if number == "1" and line.startswith("    1  ") else []
    return blocks + ([current] if current else [])


@pytest.mark.parametrize(
    "game, seats, options",
    [
        ("aipokalypse", 3, None),
        ("aipokalypse", 1, None),
        ("aipokalypse", 2, {"mode": "coop", "difficulty": "handy_man"}),
        ("dead-apocalypse", 2, None),
        ("dead-apocalypse", 1, {"difficulty": "easy"}),
    ],
)
def test_auto_play_draws_every_decision_of_the_other_games_in_words(game, seats, options):
    match, text, api = _play(seats, f"play-{game}", game, options=options)
    assert match["status"] == "finished"
    final = text.rsplit("final result of match", 1)[1]
    rows = [line for line in final.splitlines() if line.startswith("\u2502 ")]
    cells = [[c.strip() for c in row.strip("\u2502").split("\u2502")] for row in rows]
    assert sum(len(c) >= 4 and c[1].isdigit() for c in cells) == seats
    # Each menu line is words, never a JSON object; every screen had the game's board.
    menu = [line for line in text.splitlines() if line.startswith("    1  ")]
    assert menu and not any("{" in line or '"type"' in line for line in menu)
    # a person tells every line of a menu apart (cli/render/alike.py)
    for block in _menus(text):
        assert len(block) == len(set(block)), block
    if game == "dead-apocalypse":  # starting decks hold several Survivors
        assert "alike in your hand)" in text
    if game == "aipokalypse":
        assert "your hand (" in text and "your slots - ammo" in text
        assert ("A.I.Toma: difficulty" in text) == (seats == 1 or bool(options))
    else:
        assert "Zombie Row over Resource Row" in text and "your hand (" in text
    assert "solo mode" not in text and "2-player mode" not in text


@pytest.mark.parametrize("game", ["aipokalypse", "dead-apocalypse"])
def test_resign_gives_the_seat_up_and_the_match_is_watched_to_its_result(game):
    answers = iter([0, RESIGN])  # a third question would raise StopIteration
    match, text, api = _play(3, "play-resign", game, choose=lambda actions: next(answers))
    assert api.resigned == [0] and match["status"] == "finished"
    assert "You resigned: seat 0 resigned match m." in text
    assert "The match goes on without you; its result follows." in text
    assert "final result of match" in text and "resigned" in text.rsplit("final result", 1)[1]


def test_quit_resigns_and_returns_none():
    api = DomainApi(match_seed("play-quit", 0), "dead-apocalypse")
    console = Console(record=True, width=200, color_system=None)
    session = Session()
    assert (
        play_match(
            api, "dead-apocalypse", 2, "random", lambda actions: QUIT, console, session=session
        )
        is None
    )
    assert api.resigned == [0] and session.resigned and session.match_id == "m"
    assert "You quit: seat 0 resigned match m." in console.export_text()


class _Typist:
    """Reads a script of entries at the prompt (then end of input), recording each prompt
    and the commands seat 0 sent through ``api``."""

    def __init__(self, api: DomainApi, entries):
        self.entries, self.prompts, self.sent = iter(entries), [], []
        act = api.act

        def recorded(match_id, token, command, expected_version=None):
            self.sent.append(command)
            return act(match_id, token, command, expected_version)

        api.act = recorded

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        entry = next(self.entries, None)
        if entry is None:
            raise EOFError
        return entry(prompt) if callable(entry) else entry


def _typed(game: str, seats: int, seed: str, entries) -> tuple[_Typist, str, DomainApi]:
    api = DomainApi(match_seed(seed, 0), game)
    typist = _Typist(api, entries)
    console = Console(record=True, width=200, color_system=None)
    play_match(api, game, seats, "random", prompt_chooser(console, typist, True), console)
    return typist, console.export_text(), api


def _highest(prompt: str) -> str:
    """The highest play number the prompt offers (``(1-7; ...`` -> ``7``), ``1`` when it
    offers none: a player typing numbers from a menu without reading it."""
    head = re.match(r"1(?:-(\d+))?[,;]", prompt.split("(", 1)[1])
    return (head.group(1) or "1") if head else "1"


def test_typing_plays_numbers_never_ends_the_turn():
    # 1, 1, 4 and then the highest number of each menu: while "End your turn" was the last
    # number of the menu, this ended the turn with cards unplayed
    typist, text, api = _typed("dead-apocalypse", 2, "play-keys", ["1", "1", "4"] + [_highest] * 8)
    assert len(typist.sent) >= 8 and END_TURN not in typist.sent
    assert "    0   End your turn" in text
    assert "There is no action 1: choose 0 (End your turn)." in text  # all played: only 0
    assert "End your turn with " not in text  # 0 never typed: never asked
    assert not [e for e in api.log if e.type == "TurnEnded" and e.seat == 0]


def test_the_end_key_asks_and_n_keeps_the_turn_y_ends_it():
    entries = ["1", "0", "n", "1", "0", "y"]
    typist, text, api = _typed("dead-apocalypse", 2, "play-keys", entries)
    assert [c["type"] for c in typist.sent] == ["use_repeat", "play", "end_turn"]
    questions = [p for p in typist.prompts if p.startswith("End your turn with ")]
    assert questions == [
        "End your turn with 3 other moves left (1-3)? [y/N] ",
        "End your turn with 4 other moves left (1-4)? [y/N] ",
    ]
    assert "Not sent: choose again." in text
    assert len([e for e in api.log if e.type == "TurnEnded" and e.seat == 0]) == 1


@pytest.mark.parametrize(
    "game, seats, ending",
    [
        ("dead-apocalypse", 2, {"end_turn", "end_assist", "skip", "decline"}),
        ("aipokalypse", 3, {"ready", "pass", "choose"}),
        ("aipokalypse", 1, {"ready", "pass", "choose"}),
        ("ai-100-human", 2, {"decline"}),
    ],
)
def test_every_game_keys_its_ending_moves_0_and_nothing_else(game, seats, ending):
    menus: list[list] = []

    def record(lines):  # one seeded draw per menu: it reaches each game's ending moves
        menus.append(lines)
        return auto_chooser(5)(lines)

    match, text, api = _play(seats, f"play-keys-{game}", game, choose=record)
    assert match["status"] == "finished"
    keyed = [line for lines in menus for line in lines if line.ends]
    assert keyed and {line.action["type"] for line in keyed} <= ending
    for lines in menus:
        numbers = [line.key for line in lines if not line.ends]
        assert numbers == [str(n) for n in range(1, len(numbers) + 1)]
        assert [line.key for line in lines if line.ends] in ([], ["0"])
    if game == "ai-100-human":
        assert all(line.text == "Do not use the exchange" for line in keyed)


def test_what_ends_the_turn_or_passes_in_each_game():
    da, aip, human = (
        renderer_for(g).ends for g in ("dead-apocalypse", "aipokalypse", "ai-100-human")
    )
    for kind in ("end_turn", "end_assist", "skip", "decline"):
        assert da({"type": kind}, {})
    assert not da({"type": "play", "card": "survivor#s0.1"}, {}) and not da({"type": "assist"}, {})
    assert aip({"type": "ready"}, {}) and aip({"type": "pass"}, {})
    assert not aip({"type": "recruit", "card": "B001", "slot": 0}, {})
    # an optional effect's decline ("stop", "skip", 0 ...) passes; a forced choice has none
    declining = {"choice": {"options": ["B001", "stop"], "decline": "stop"}}
    assert aip({"type": "choose", "option": "stop"}, declining)
    assert not aip({"type": "choose", "option": "B001"}, declining)
    assert aip({"type": "choose", "option": 0}, {"choice": {"options": [0, 1], "decline": 0}})
    assert not aip({"type": "choose", "option": "B001"}, {"choice": {"decline": None}})
    assert human({"type": "decline"}, {}) and not human({"type": "draft", "card": "001"}, {})
    assert renderer_for("other").ends({"type": "end_turn"}, {})  # the usual names elsewhere


class _RacingApi(DomainApi):
    """The bots move only between the client's two reads: after ``GET`` of the match and
    before its ``legal-actions`` (as a bot worker may on a real server)."""

    def _bots(self, resigned_too: bool = False):
        return None

    def legal_actions(self, match_id, token):
        DomainApi._bots(self)
        return super().legal_actions(match_id, token)


def test_the_board_and_the_menu_are_of_one_version_when_the_bots_move_between_reads():
    api = _RacingApi(match_seed("play-race", 0), "dead-apocalypse")
    console = Console(record=True, width=200, color_system=None)
    boards: list[str] = []

    def end_turns(lines):  # the screen so far: its last board is the one of this menu
        screen = console.export_text(clear=False)
        at = screen.rindex("match m - version")
        boards.append((screen[:at], screen[at:]))
        if len(boards) > 12:
            return QUIT
        return next((i for i, line in enumerate(lines) if line.ends), 0)

    play_match(api, "dead-apocalypse", 2, "random", end_turns, console)
    assert sum("End your turn" in board for _, board in boards) >= 3
    for before, board in boards:  # a stale board: the bot's turn over your turn's menu
        header = board.splitlines()[0]
        assert "your decision:" in board, header
        if "Play " in board.split("your decision:")[1]:
            assert "active: you" in header, header
        version = int(header.split("version ")[1].split(" ")[0])
        assert f"\nv{version} " in before  # the events up to it were shown before the board


class _OneBotMoveApi(DomainApi):
    """The bots move one command at a time: one before each ``legal-actions`` answer and
    one per long-poll, none inside the client's own ``POST`` (as a bot worker on a real
    server does, between the client's requests)."""

    def _bots(self, resigned_too: bool = False):
        return None

    def legal_actions(self, match_id, token):
        self._one_bot()
        return super().legal_actions(match_id, token)

    def events(self, match_id, token, after, wait_s=0.0):
        if wait_s:
            self._one_bot(resigned_too=True)
        return super().events(match_id, token, after)


def test_every_event_is_shown_once_when_the_bots_move_while_the_seat_waits():
    """After the seat's move, a bot's first command landed before the client read its
    (empty) legal actions: the long-poll asked for events after that version, and the
    bot's command was never shown (helper, session 20). Every version is shown once."""
    api = _OneBotMoveApi(match_seed("play-one-bot", 0), "dead-apocalypse")
    console = Console(record=True, width=200, color_system=None)
    menus = []

    def end_turns(lines):
        menus.append(1)
        if len(menus) > 8:
            return QUIT
        return next((i for i, line in enumerate(lines) if line.ends), 0)

    play_match(api, "dead-apocalypse", 3, "random", end_turns, console)
    shown = [int(v) for v in re.findall(r"^v(\d+) ", console.export_text(), flags=re.M)]
    first, last = min(shown), max(shown)  # from the first event after the set-up
    assert len(menus) > 3 and last > first + 20
    every = list(range(first, last + 1))
    assert sorted(shown) == every, sorted(set(every) - set(shown))
