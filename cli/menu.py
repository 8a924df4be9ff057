"""The menu of ``arena play``: keys a person cannot mistype into ending the turn, and the
prompt that reads them.

Plays are numbered 1, 2, ... in the game's order (their numbers move as moves come and
go). The move that ends the seat's turn or passes (a renderer's ``ends``: Dead
Apocalypse's "End your turn", A.I.Pokalypse's "Ready" / "Pass", AI: 100% Human's "Do not
use the exchange", ...) is never numbered among them: it is always key :data:`END_KEY`
(``0``), printed below the plays, so typing plays' numbers from an old screen cannot end
the turn; and while other moves remain, choosing it asks ``[y/N]`` first, naming how many
are left. A menu of one move takes Enter alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from cli.render.alike import Entry

#: The key of the move that ends the seat's turn or passes (typing plays' numbers never hits it).
END_KEY = "0"
QUIT, RESIGN = "quit", "resign"

#: A chooser answers the index of the chosen line, or :data:`QUIT` / :data:`RESIGN`.
Choice = int | str

HELP = """commands:
  a number   send that legal action (Enter alone takes it when there is only one)
  0          the move that ends your turn or passes (End your turn, Ready, Pass, Decline,
             ...): never one of the plays' numbers; while other moves remain it asks
             y/N first
  help       show this help (also h or ?)
  resign     give up your seat (POST .../resign); the match goes on by its rules
             (the bots, or your seat's timeout bot in Dead Apocalypse) and you watch it
             to the result
  quit       resign and leave now (also q); Ctrl-C does the same (exit code 130)"""


@dataclass(frozen=True)
class MenuLine:
    """One line of the menu: its ``key`` (``"1"``... or :data:`END_KEY`), ``text`` (the
    move in words), the ``action`` sent and whether it ``ends`` the turn or passes."""

    key: str
    text: str
    action: Mapping[str, Any]
    ends: bool = False


def menu_lines(
    entries: Sequence[Entry], ends: Callable[[Mapping[str, Any]], bool]
) -> list[MenuLine]:
    """``entries`` as keyed lines: the plays numbered from 1 in their order, then the
    moves that ``ends`` says end the turn or pass, keyed :data:`END_KEY` (a second one,
    which no game has, ``00``, and so on: still no play's number)."""
    plays = [e for e in entries if not ends(e.action)]
    endings = [e for e in entries if ends(e.action)]
    return [MenuLine(str(n), e.text, e.action) for n, e in enumerate(plays, start=1)] + [
        MenuLine(END_KEY * n, e.text, e.action, True) for n, e in enumerate(endings, start=1)
    ]


def print_menu(console: Console, lines: Sequence[MenuLine]) -> None:
    """The numbered plays, then the ending move apart below them with its key."""
    for line in lines:
        style = "bold magenta" if line.ends else "bold cyan"
        console.print(f"  [{style}]{line.key:>3}[/]  ", Text(line.text), highlight=False)


def choices_words(lines: Sequence[MenuLine], lead: str = "a number from ") -> str:
    """What may be typed, in a sentence: ``a number from 1 to 4``, ``a number from 1 to 4,
    or 0 (End your turn)``, ``1``, ``0 (Pass)`` (``lead`` before a range)."""
    plays = sum(not line.ends for line in lines)
    words = [("1" if plays == 1 else f"{lead}1 to {plays}")] if plays else []
    words += [f"{line.key} ({line.text})" for line in lines if line.ends]
    return ", or ".join(words)


def prompt_text(lines: Sequence[MenuLine]) -> str:
    """The prompt: ``your choice (1-4, help, resign, quit): ``; with an ending move
    ``your choice (1-4; 0 = End your turn; help, resign, quit): ``; for a single move
    ``your choice (1, or Enter; help, resign, quit): ``."""
    plays = sum(not line.ends for line in lines)
    parts = [f"1-{plays}" if plays > 1 else "1"] if plays else []
    parts += [f"{line.key} = {line.text}" for line in lines if line.ends]
    if len(lines) == 1:
        return f"your choice ({parts[0]}, or Enter; help, resign, quit): "
    if plays == len(lines):
        return f"your choice ({parts[0]}, help, resign, quit): "
    return f"your choice ({'; '.join(parts)}; help, resign, quit): "


def confirm_text(line: MenuLine, lines: Sequence[MenuLine]) -> str | None:
    """The y/N question before sending the ending ``line`` while other moves remain
    (``End your turn with 4 other moves left (1-4)? [y/N] ``); ``None`` when nothing
    else is left to do."""
    left = sum(not other.ends for other in lines)
    if not line.ends or left == 0:
        return None
    keys = "1" if left == 1 else f"1-{left}"
    moves = "move" if left == 1 else "moves"
    return f"{line.text} with {left} other {moves} left ({keys})? [y/N] "


def discard_typeahead(stream: TextIO) -> bool:
    """Throw away what was typed on terminal ``stream`` before the prompt (lines meant for
    an earlier menu, whose numbers have moved); ``True`` when a whole line was waiting.
    A stream that is no terminal is left alone (``False``)."""
    try:
        import select
        import termios

        if not stream.isatty():
            return False
        waiting = bool(select.select([stream], [], [], 0)[0])
        termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        return False
    return waiting


def prompt_chooser(
    console: Console,
    read: Callable[[str], str] = input,
    echo: bool | None = None,
    flush: Callable[[], bool] | None = None,
) -> Callable[[list[MenuLine]], Choice]:
    """Ask on stdin (``read``) for the key of a menu line (:func:`menu_lines`) or a command
    (:data:`HELP`); a bad entry is answered with a sentence and asked again, the ending
    move asks y/N while other moves remain (:func:`confirm_text`). End of input is
    :data:`QUIT`. ``echo`` (default: stdin is not a terminal, e.g. a script) prints each
    entry after the prompt, as a terminal would have shown it. ``flush`` (default on a
    terminal: :func:`discard_typeahead`) drops lines typed before each new menu."""
    if echo is None:
        echo = read is input and not sys.stdin.isatty()
    if flush is None and read is input and sys.stdin.isatty():
        flush = lambda: discard_typeahead(sys.stdin)  # noqa: E731

    def ask(question: str) -> str | None:
        try:
            line = read(question)
        except EOFError:
            console.print(("\n" if echo else "") + "Input ended: leaving the match.")
            return None
        if echo:
            console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line

    def choose(lines: list[MenuLine]) -> Choice:
        keys = {line.key: index for index, line in enumerate(lines)}
        plays = sum(not line.ends for line in lines)
        if flush is not None and flush():
            console.print(
                "(Ignored what you typed before this menu was shown: its numbers may have moved.)"
            )
        while True:
            line = ask(prompt_text(lines))
            if line is None:
                return QUIT
            entry = line.strip().lower()
            # ASCII digits only ("²" is a digit to str.isdigit, not to int()), few of them
            number = int(entry) if entry.isascii() and entry.isdigit() and len(entry) < 9 else None
            if entry in ("h", "help", "?"):
                console.print(HELP)
            elif entry in ("q", "quit", "exit"):
                return QUIT
            elif entry == "resign":
                return RESIGN
            elif entry == "" and len(lines) == 1:
                return 0
            elif entry == "":
                console.print(
                    f"Please type the number of an action, {choices_words(lines, 'from ')} (or help)."
                )
            elif entry in keys or (number is not None and 1 <= number <= plays):
                index = keys[entry] if entry in keys else number - 1
                question = confirm_text(lines[index], lines)
                if question is None:
                    return index
                answer = ask(question)
                if answer is None:
                    return QUIT
                if answer.strip().lower() in ("y", "yes"):
                    return index
                console.print("Not sent: choose again.")
            elif number is not None:
                console.print(f"There is no action {number}: choose {choices_words(lines)}.")
            else:
                console.print(
                    f'"{line.strip()}" is neither an action number ({choices_words(lines, "")}) '
                    "nor a command; type help to see the commands."
                )

    return choose
