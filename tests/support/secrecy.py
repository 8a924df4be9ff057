"""What each installed game keeps secret, read from its raw (server-side) state.

One :class:`Secrecy` per game of ``domain.games.registry()``, written from the game's own
projections (``views.view`` / ``views.redact`` and the module docs above them): which card
ids only one seat may see (``private``), which lie face down for everybody (``unseen``,
ordered stacks top first, whose order nobody may learn), who owns an event (``owner``:
its owner is shown its data) and which public ids must not be tied to a seat yet
(``bound``: AI: 100% Human's chosen AI side before the reveal; its two sides are public).

The leak tests (``tests.support.leaks``) compare HTTP answers with these sets; they never
trust the projections under test to say what is secret.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from domain.engine import Event


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value: dict keys and values, list/tuple items."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str):
                yield key
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


@dataclass(frozen=True)
class Secrecy:
    """The secrets of one game over its raw folded state (the engine's ``state``).

    - ``card``: a regular expression every card id of the game matches (whole string);
      ids are also found inside free text (an error's ``detail``) between non-word
      characters.
    - ``private(state, seat) -> set[str]``: card ids only ``seat`` may see now (its hand,
      reserve, face-down choice, ...).
    - ``unseen(state) -> dict[str, list[str]]``: face-down stacks nobody may see, top
      first; their ids are secret to every viewer that never saw them, and their order to
      everybody.
    - ``owner(event) -> int | None``: the seat an event is about (shown its full data).
    - ``bound(state, seat) -> set[str]``: public ids no answer may show tied to ``seat``
      (inside a JSON object whose ``"seat"`` is ``seat``) except under ``listing_keys``.
    - ``parts(event) -> list[Event]``: the atomic events ``event`` stands for, each with
      its own seat (``[event]`` unless the game batches events, see A.I.Pokalypse).
    """

    card: re.Pattern[str]
    private: Callable[[Any, int], set[str]]
    unseen: Callable[[Any], dict[str, list[str]]]
    owner: Callable[[Event], int | None]
    bound: Callable[[Any, int], set[str]] = lambda state, seat: set()
    listing_keys: frozenset[str] = frozenset()
    parts: Callable[[Event], list[Event]] = lambda event: [event]

    def ids(self, value: Any) -> set[str]:
        """The card ids among the strings of ``value`` or mentioned inside them."""
        found: set[str] = set()
        # A number written "version N" in prose (a version conflict's detail) is a version,
        # not a card id (AI: 100% Human's card ids are 3-digit numbers).
        mention = re.compile(rf"(?<![\w#-])(?<!version )(?:{self.card.pattern})(?![\w#-])")
        for text in strings(value):
            if self.card.fullmatch(text):
                found.add(text)
            else:
                found.update(m.group(0) for m in mention.finditer(text))
        return found


def _seat_of_event(event: Event) -> int | None:
    return event.seat


# ------------------------------------------------------------------ AI: 100% Human
# views.py: hand, reserve, dealt cards and the hidden choice of the step are the seat's;
# the deck (and solo's timer stack) are nobody's; the chosen AI side is hidden until
# ``ai_revealed`` although both sides (``ai_cards_dealt``) are public.
def _ai100_private(state: Any, seat: int) -> set[str]:
    s = state.seats[seat]
    # a choice stays recorded after its reveal: a card of it lying face up is no secret
    face_up = set(s.tableau.values()) | {p["card"] for p in state.last_reveal}
    return set(s.hand) | set(s.reserve) | set(s.dealt) | (AI_100_HUMAN.ids(s.choice or {}) - face_up)


def _ai100_unseen(state: Any) -> dict[str, list[str]]:
    return {"deck": list(state.deck), "timer": list(state.timer)}


def _ai100_bound(state: Any, seat: int) -> set[str]:
    s = state.seats[seat]
    return {s.ai_card} if s.ai_card and not s.ai_revealed else set()


AI_100_HUMAN = Secrecy(card=re.compile(r"\d{3}|AI-\d{1,2}"), private=_ai100_private,
                       unseen=_ai100_unseen, owner=_seat_of_event, bound=_ai100_bound,
                       listing_keys=frozenset({"ai_cards_dealt"}))


# ------------------------------------------------------------------ A.I.Pokalypse
# views.py: a seat's hand, offered factions, Special Units offered or drafted, stash,
# packet, tucked and Megaton cards, its face-down slot cards and the options of its open
# effect decision are its own; the faction it chose until ``factions_revealed``; during
# Recruitment the units, red slots, extra factions and colony it set since the last
# reveal (``public``) are its own (its pool is not: a health card lost to another seat's
# effect lands there in a public event). Health
# stacks, battle stacks, ammo (faction faces down), face-down battle/beside cards and the
# draw, Special Unit and ammo decks are nobody's; so are the cards discarded during
# Recruitment (the others see the piles as the phase began, ``table_public``).
def _board_ids(board: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    for slot in board.get("slots") or []:
        out |= {slot.get("unit"), *slot.get("attached", []), *slot.get("pile", [])}
        if slot.get("red"):
            out.add(slot.get("card"))
    out |= set(board.get("extra_factions") or [])
    out.add(board.get("colony"))
    return {c for c in out if isinstance(c, str)}


def _aipok_private(state: Mapping[str, Any], seat: int) -> set[str]:
    p = state["players"][seat]
    out = set(p["hand"]) | set(p["offered"]) | set(p["offer"]) | set(p["stash"])
    out |= set(p.get("packet", [])) | set(p.get("drafted", [])) | set(p.get("megaton", []))
    out |= {c for cards in p.get("tucked", {}).values() for c in cards}
    out |= {slot["card"] for slot in p["slots"] if not slot.get("red") and slot.get("card")}
    if p["faction"] and not state["factions_revealed"]:
        out.add(p["faction"])
    choice = state.get("choice")
    if choice and choice.get("seat") == seat:
        out |= AIPOKALYPSE.ids(choice.get("options"))
    if state["phase"] == "recruitment":
        out |= _board_ids(p) - _board_ids(p["public"] or {})
    return out


def _aipok_unseen(state: Mapping[str, Any]) -> dict[str, list[str]]:
    out = {"draw": list(state["draw"]), "specials": list(state["specials"]),
           "ammo_deck": list(state["ammo_deck"])}
    for i, p in enumerate(state["players"]):          # the A.I.Toma's entry has fewer fields
        out[f"health:{i}"] = list(p.get("health", []))
        out[f"stack:{i}"] = list(p.get("stack", []))
        out[f"ammo:{i}"] = list(p.get("ammo", []))
        down = [c for c, up in p.get("beside", []) if not up]
        for slot in p.get("slots", []):
            down += [c for c, up in slot.get("battle", []) if not up]
            down += list(slot.get("ammo_cards", []))
        out[f"face_down:{i}"] = down
    if state["phase"] == "recruitment" and "table_public" in state:
        shown = set(state["table_public"]["discard"])
        out["discarded_in_recruitment"] = [c for c in state["discard"] if c not in shown]
    return out


def _aipok_parts(event: Event) -> list[Event]:
    """A ``RecruitmentMoves`` batch (one hidden command; its envelope seat is the acting
    seat, or none for the automatic steps opening the phase) stands for its inner events,
    each of its own seat (RULINGS R-hidden-batch: a viewer is shown the inner events it
    may see, each redacted as alone). Unpacked here from the stored shape, not with the
    domain's helper under test."""
    if event.type != "RecruitmentMoves":
        return [event]
    return [Event(e["type"], dict(e["data"]), e["seat"]) for e in event.data["events"]]


AIPOKALYPSE = Secrecy(card=re.compile(r"[BSF]\d{2,3}"), private=_aipok_private,
                      unseen=_aipok_unseen, owner=_seat_of_event, parts=_aipok_parts)


# ------------------------------------------------------------------ Dead Apocalypse
# views.py: a hand is its seat's; deck and stack orders are nobody's (shuffles and stack
# formations carry a count), drawn cards only the drawer's (``CardsDrawn`` names its
# seat in ``data``). Infection and Adept Survivor stacks are identical cards in a fixed
# order: nothing to hide.
def _dead_private(state: Any, seat: int) -> set[str]:
    return set(state.seats[seat].hand)


def _dead_unseen(state: Any) -> dict[str, list[str]]:
    out = {"zombie_stack": list(state.zombie_stack), "resource_stack": list(state.resource_stack)}
    for i, s in enumerate(state.seats):
        out[f"deck:{i}"] = list(s.deck)
    return out


def _dead_owner(event: Event) -> int | None:
    seat = event.data.get("seat") if event.seat is None else event.seat
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


DEAD_APOCALYPSE = Secrecy(card=re.compile(r"[a-z0-9-]+#(?:s\d+\.)?\d+"), private=_dead_private,
                          unseen=_dead_unseen, owner=_dead_owner)


#: game id -> its secrets (every game of ``domain.games.registry()`` must have one).
SECRECY: dict[str, Secrecy] = {"ai-100-human": AI_100_HUMAN, "aipokalypse": AIPOKALYPSE,
                               "dead-apocalypse": DEAD_APOCALYPSE}


def union(sets: Iterable[set[str]]) -> set[str]:
    """The union of ``sets`` (empty for none)."""
    out: set[str] = set()
    for item in sets:
        out |= item
    return out
