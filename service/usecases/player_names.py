"""The rules of player names (issue 22 item 1), pure functions.

A name is 1-32 characters, each printable (``str.isprintable``: no control, format,
private-use, unassigned or line/paragraph separator characters, so no zero-width or bidi
characters either; the only space allowed is U+0020), none of the characters that print as
nothing though Unicode calls them printable (:data:`BLANKS`: Hangul fillers, the Braille
blank, the combining grapheme joiner, ...), at least one letter or digit, and no space at
either end.
Names are unique case-insensitively: :func:`fold` (NFKC, ``casefold``) is the key the store
keeps unique. A name may not imitate a bot level's name: its :func:`skeleton` (the folded
name with common Cyrillic and Greek look-alikes mapped to Latin letters and everything but
letters and digits removed) must not be a level (``Expert``, ``EXPERT bot``,
``bot-expert``, ``ехрert`` with Cyrillic letters) nor start with ``bot`` followed by a game
id (``bot:ai-100-human:…``, the rated players of the bot levels), nor ``game`` followed by a
game id (``game:dead-apocalypse:standard``, the games' difficulties as rated opponents), nor
be the A.I.Toma (``Toma``, ``A.I.Toma``).

Nor may a name pass for one of the labels clients print for a seat
(:func:`imitates_a_label`): ``You``, ``Seat 2``, ``Seat 1 (greedy bot)``, ``ann (seat 3)``,
nor for a rated participant's id (:func:`imitates_a_participant`: ``player:<id>``,
``bot:x``, ``game:x``, whatever follows the prefix).

Two names are the same player name when their :func:`name_key` is (NFKC, spaces at either
end stripped and doubled ones inside made one, ``casefold``, Cyrillic and Greek look-alikes
read as the Latin letters they imitate): ``Аda`` with a Cyrillic ``А`` and `` Ada`` are
``Ada``. The store keeps that key
unique (``player_name_taken``), and a seat name whose key is a rated player's is that
player's (``seat_name_reserved``).

Errors (:class:`service.errors.InvalidPlayerName`, 422): ``invalid_player_name``,
``player_name_reserved``; ``player_name_taken`` is the store's answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from service import errors

MAX_NAME = 32
#: printable by ``str.isprintable`` yet shown as nothing (or as a blank): Hangul fillers,
#: the Braille pattern blank, the combining grapheme joiner, Khmer inherent vowels, the
#: Mongolian vowel separator, the halfwidth Hangul filler
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e")
#: skeletons of the A.I.Toma's names (A.I.Pokalypse's rulebook opponent)
TOMA = frozenset({"toma", "aitoma"})

#: Cyrillic and Greek letters that look like Latin ones (after casefolding)
SCRIPT_LOOKALIKES = {
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "і": "i",
    "ј": "j",
    "ѕ": "s",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "һ": "h",
    "ӏ": "l",
    "α": "a",
    "β": "b",
    "ε": "e",
    "η": "n",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ζ": "z",
    "μ": "u",
}
#: :data:`SCRIPT_LOOKALIKES` and digits that read as letters (for :func:`skeleton` only:
#: ``Bob3`` and ``Bobe`` stay two players)
LOOKALIKES = str.maketrans({**SCRIPT_LOOKALIKES, "0": "o", "1": "l", "3": "e", "5": "s", "7": "t"})
_LETTER_LOOKALIKES = str.maketrans(SCRIPT_LOOKALIKES)
#: the label forms (:func:`name_key` without anything but letters and digits) of what
#: clients print for a seat: "You", "Seat 2", "Seat 1 (greedy bot)", "ann (seat 3)"
_LABEL = re.compile(r"you|.*seat[0-9]+.*")
#: the prefixes of the rated participants' ids (:mod:`service.ratings.families`), which
#: the leaderboard and the logs print: a name may not start with one
PARTICIPANT_PREFIXES = ("player:", "bot:", "game:")


def fold(name: str) -> str:
    """The case-insensitive identity of a name: NFKC, then ``casefold``."""
    return unicodedata.normalize("NFKC", name).casefold()


def name_key(name: str) -> str:
    """The identity of a player name against look-alikes: :func:`fold` of the name with
    its spaces stripped at either end and runs of them inside made one, Cyrillic and Greek
    look-alikes as Latin letters (``" Аda  Lo"`` -> ``"ada lo"``)."""
    return " ".join(fold(name).split()).translate(_LETTER_LOOKALIKES)


def imitates_a_label(name: str) -> bool:
    """True when ``name`` reads as a label clients print for a seat: ``You`` or anything
    naming ``seat <digits>`` (``Seat 1 (greedy bot)``, ``ann (seat 3)``), compared by
    :func:`name_key` with only letters and digits kept (``Ｙou``, ``SEAT-2``)."""
    return _LABEL.fullmatch("".join(ch for ch in name_key(name) if ch.isalnum())) is not None


def imitates_a_participant(name: str) -> bool:
    """True when ``name`` starts with a rated participant's prefix (``player:``, ``bot:``,
    ``game:``), compared by :func:`name_key` without spaces (``Player: 12``, ``BOT :x``,
    a fullwidth ``ｂot:`` or a Cyrillic ``рlayer:``)."""
    return "".join(name_key(name).split()).startswith(PARTICIPANT_PREFIXES)


def skeleton(name: str) -> str:
    """:func:`fold`, look-alikes and digits read as Latin letters, and only letters kept."""
    text = fold(name).translate(LOOKALIKES)
    return "".join(
        ch
        for ch in unicodedata.normalize("NFKD", text)
        if ch.isalpha() and not unicodedata.combining(ch)
    )


def reserved_skeletons(games: Iterable[Any]) -> tuple[frozenset[str], tuple[str, ...]]:
    """``(level skeletons, game skeletons)`` of the installed ``games`` (engines with
    ``game_id`` and ``bots``): the names a player's name may not imitate."""
    levels: set[str] = set()
    ids: list[str] = []
    for engine in games:
        ids.append(skeleton(engine.game_id))
        for level in engine.bots:
            core = skeleton(level)
            levels |= {core, "bot" + core, core + "bot"}
    return frozenset(levels), tuple(ids)


def check_name(name: Any, games: Iterable[Any]) -> str:
    """``name`` if it follows the rules above (unchecked here: uniqueness).

    Raises InvalidPlayerName ``invalid_player_name`` or ``player_name_reserved``."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        raise errors.InvalidPlayerName(
            "invalid_player_name", f"A name is 1 to {MAX_NAME} characters."
        )
    if not name.isprintable():
        raise errors.InvalidPlayerName(
            "invalid_player_name",
            "A name may not hold control or invisible characters (only printable "
            "characters and plain spaces).",
        )
    if any(ch in BLANKS for ch in name) or not any(ch.isalnum() for ch in name):
        raise errors.InvalidPlayerName(
            "invalid_player_name",
            "A name may not hold characters that show as nothing, and holds at least one "
            "letter or digit.",
        )
    if name != name.strip():
        raise errors.InvalidPlayerName(
            "invalid_player_name", "A name may not start or end with a space."
        )
    if imitates_a_bot(name, games):
        raise errors.InvalidPlayerName(
            "player_name_reserved",
            f"{name!r} imitates the name of a bot level or of a game's own opponent.",
        )
    if imitates_a_label(name):
        raise errors.InvalidPlayerName(
            "player_name_reserved",
            f"{name!r} reads as a label clients print for a seat (You, Seat 2, ...).",
        )
    if imitates_a_participant(name):
        raise errors.InvalidPlayerName(
            "player_name_reserved",
            f"{name!r} starts like a rated participant's id (player:, bot:, game:).",
        )
    return name


def imitates_a_bot(name: str, games: Iterable[Any]) -> bool:
    """True when ``name``'s :func:`skeleton` is a bot level's of the installed ``games``
    (or ``bot`` + a level, a level + ``bot``), the A.I.Toma's, ``bot`` alone, or starts
    with ``bot`` or ``game`` followed by a game id (see module docstring)."""
    levels, ids = reserved_skeletons(games)
    core = skeleton(name)
    return (
        core in levels
        or core in TOMA
        or core == "bot"
        or any(core.startswith("bot" + g) or core.startswith("game" + g) for g in ids)
    )
