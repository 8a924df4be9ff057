"""Builders shared by the scoring tests (plus tests of the builders themselves).

``tab(spec)`` builds a tableau of *real* card ids from a picture such as::

    R1 B2 .
    .  K3 @4

Tokens: colour letter + number (R red, B blue, Y yellow, K black, G green, P purple) picks
an unused development card with that colour and number; ``@k`` is AI card side AI-k;
``#123`` is development card 123; ``.`` is an empty position. Rows start at row 0, col 0.

``board(spec, corners)`` builds a scoring :data:`Board` of hand-made faces (for connection
and diamond tests, where the corners matter): ``corners`` maps a position to four tokens
``"TL TR BL BR"`` such as ``"R1 B2 Y3 K4"``. Corners not given are unique dummies
(colour ``x<n>``, number 100+n) that never meet a colour/number/sum condition, except
"different colours", which every pair of distinct dummies meets.
"""

from __future__ import annotations

from domain.games.ai_100_human.cards import catalogue
from domain.games.ai_100_human.scoring.board import Face
from domain.games.ai_100_human.scoring.effects import evaluate

LETTER = {"R": "red", "B": "blue", "Y": "yellow", "K": "black", "G": "green", "P": "purple"}


def _cells(spec: str):
    rows = [line.split() for line in spec.strip().splitlines()]
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok != ".":
                yield (r, c), tok


def tab(spec: str) -> dict:
    """A tableau ``{pos: card id}`` of real cards matching the picture ``spec``."""
    cards = catalogue().cards
    explicit = {("AI-" + t[1:]) if t[0] == "@" else t[1:] for _, t in _cells(spec) if t[0] in "@#"}
    used = set(explicit)
    out = {}
    for pos, tok in _cells(spec):
        if tok[0] == "@":
            out[pos] = "AI-" + tok[1:]
        elif tok[0] == "#":
            out[pos] = tok[1:]
        else:
            color, number = LETTER[tok[0]], int(tok[1:])
            cid = next(
                c.id
                for c in sorted(cards.values(), key=lambda c: c.id)
                if c.kind == "development"
                and c.color == color
                and c.number == number
                and c.id not in used
            )
            used.add(cid)
            out[pos] = cid
    return out


def _member(tok: str):
    return (LETTER[tok[0]], int(tok[1:]))


def board(spec: str, corners: dict | None = None) -> dict:
    """A hand-made board ``{pos: Face}`` (see module doc)."""
    corners = corners or {}
    out = {}
    for k, (pos, tok) in enumerate(_cells(spec)):
        if pos in corners:
            cs = tuple(_member(t) for t in corners[pos].split())
            assert len(cs) == 4
        else:
            cs = tuple((f"x{4 * k + j}", 100 + 4 * k + j) for j in range(4))
        color, number = _member(tok)
        out[pos] = Face(color, number, cs)
    return out


def effect_vp(card_id: str, b: dict, pos=None) -> int:
    """VP of card/objective ``card_id``'s effect on hand-made board ``b`` for ``pos``."""
    cat = catalogue()
    eff = (
        cat.objectives[card_id].effect if card_id.startswith("Omega") else cat.cards[card_id].effect
    )
    return evaluate(eff, b, pos)


def test_tab_picks_distinct_real_cards_with_the_asked_colour_and_number():
    t = tab("R1 R1 R1\n. @3 #073")
    cards = catalogue().cards
    assert len({t[(0, 0)], t[(0, 1)], t[(0, 2)]}) == 3
    assert all((cards[t[(0, c)]].color, cards[t[(0, c)]].number) == ("red", 1) for c in range(3))
    assert t[(1, 1)] == "AI-3" and t[(1, 2)] == "073" and (1, 0) not in t


def test_board_reads_corners_in_tl_tr_bl_br_order_and_dummies_never_repeat():
    b = board("R1 B2", {(0, 0): "R1 B2 Y3 K4"})
    assert b[(0, 0)] == Face("red", 1, (("red", 1), ("blue", 2), ("yellow", 3), ("black", 4)))
    dummies = b[(0, 1)].corners
    assert len({d[0] for d in dummies}) == 4 and all(d[1] >= 100 for d in dummies)
