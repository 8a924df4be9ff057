"""``evolve``: fold one A.I.Pokalypse event into the state (total, deterministic, no RNG).

Every event is an atomic fact recorded by the rules (:mod:`.recruitment`, :mod:`.battle`,
:mod:`.flow`); the card ids that moved are in the event, so folding only moves them.
The fold is total over the handlers of :data:`HANDLERS` (:class:`domain.modular.FoldHandlers`):
an unknown event type, or a first event other than ``MatchStarted``, raises ``ValueError``
(a corrupt log, not a rule violation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.engine import Event

from . import toma_fold  # registers the A.I.Toma's and the 5-8 variant's events
from .batching import inner
from .fold_registry import HANDLERS, _on, _p, _seat, _to_discard
from .state import (
    BattleProgress,
    Fight,
    MatchState,
    Player,
    Slot,
    fight_of,
    new_player,
    new_slot,
    offer_ctx_of,
)


def evolve(state: MatchState | None, event: Event) -> MatchState:
    """Apply ``event`` to ``state`` (``None`` before ``MatchStarted``) and return it."""
    handler = HANDLERS.handler(state, event)
    if state is None:
        state = MatchState(n=0, mode="")  # every field is set by MatchStarted
    handler(state, event)
    return state


def _vacate(s: MatchState, slot: Slot) -> None:
    """A unit leaves ``slot``: attached cards go to the discard pile, Desert Rats ammo lying
    on it back on top of the ammo deck; the slot is empty."""
    for att in slot.attached:
        _to_discard(s, att)
    if slot.pile is not None:  # an A.I.Toma unit: its whole pile goes
        toma_fold.discard_pile(s, slot)
    _return_ammo(s, slot)
    slot.unit = None
    slot.pos = 0
    slot.attached = []
    slot.temp = 0
    slot.ammo_temp = 0


def _return_ammo(s: MatchState, slot: Slot) -> None:
    cards = slot.ammo_cards or []
    s.ammo_deck[:0] = list(reversed(cards))
    slot.ammo_cards = []


def _untuck(p: Player, special: str) -> None:
    """Kollektah: cards under ``special`` return to the hand when it is recruited."""
    p.hand.extend(p.tucked.pop(special, []))


def _retuck(s: MatchState, p: Player, special: str) -> None:
    """Kollektah: a pool card left otherwise with cards still under it (the seat's choice,
    ``CardsRetucked``, comes first when it has one): they go under the first remaining pool
    card, or are lost (discard pile) when none is left."""
    cards = p.tucked.pop(special, [])
    if not cards:
        return
    if p.pool:
        p.tucked.setdefault(p.pool[0], []).extend(cards)
    else:
        for cid in cards:
            _to_discard(s, cid)


def _take_top(pile: list, cards: list) -> None:
    if pile[: len(cards)] != list(cards):
        raise ValueError(f"event cards {cards} are not the top of the pile")
    del pile[: len(cards)]


@_on("MatchStarted")
def _started(s: MatchState, e: Event) -> None:
    d = e.data
    s.n, s.mode, s.second_copy, s.toma = d["n"], d["mode"], bool(d.get("second_copy")), None
    s.round, s.phase = 0, "faction"
    s.draw, s.discard, s.specials = list(d["draw"]), [], list(d["specials"])
    s.ammo_deck, s.sudden_death, s.apocalypse = list(d["ammo_deck"]), False, False
    s.factions_revealed, s.battle, s.result, s.choice = False, BattleProgress(), None, None
    s.players = [
        new_player(o, h, c) for o, h, c in zip(d["offered"], d["health"], d["hands"], strict=False)
    ]
    s.health_order = d.get("health_order", "shuffled")
    for seat, p in enumerate(s.players):
        p.table_factions = list(d.get("table_factions", []))  # Force the Luck
        if d.get("expert"):
            p.packet = list(d["packets"][seat])
    if d.get("toma"):  # Solo / Cooperative Mode
        toma_fold.add_toma(s, d["toma"])
    if d.get("expert"):
        s.phase = "draft"


@_on("SpecialDrafted")
def _drafted(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    p.packet.remove(e.data["card"])
    p.drafted.append(e.data["card"])
    p.picked = True


@_on("PacketsPassed")
def _passed_packets(s: MatchState, e: Event) -> None:
    """Every packet goes to the left neighbour (seat s -> s+1)."""
    n = s.n
    packets = [p.packet for p in s.players[:n]]
    for seat, p in enumerate(s.players[:n]):
        p.packet, p.picked = list(packets[(seat - 1) % n]), False


@_on("DraftEnded")
def _draft_ended(s: MatchState, e: Event) -> None:
    for p in s.players:
        s.specials.extend(p.packet)  # "The last card gets discarded"
        p.packet, p.picked = [], False


@_on("HealthStackFormed")
def _health_formed(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    if sorted(e.data["cards"]) != sorted(p.drafted):
        raise ValueError("a health stack is formed from the drafted Special Units")
    p.health, p.drafted = list(e.data["cards"]), []


@_on("DraftFinished")
def _draft_finished(s: MatchState, e: Event) -> None:
    s.phase = "faction"


@_on("FactionChosen")
def _faction(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    p.faction = e.data["faction"]
    for other in p.offered:
        if other != e.data["faction"]:
            s.ammo_deck.append(other)  # "returned under the ammo deck"
    p.offered = []


@_on("FactionsRevealed")
def _factions_revealed(s: MatchState, e: Event) -> None:
    s.factions_revealed = True


@_on("RecruitmentStarted")
def _recruitment(s: MatchState, e: Event) -> None:
    s.phase = "recruitment"
    s.round = e.data["round"]
    s.set_table_public(
        {
            "discard": list(s.discard),
            "draw": len(s.draw),
            "specials": len(s.specials),
            "ammo_deck": len(s.ammo_deck),
        }
    )
    for p in s.players:
        p.ready = p.eliminated or bool(p.toma)  # the A.I.Toma does not recruit
        p.moved = False
        if not p.eliminated:
            toma_fold.reveal_board(p)  # the board as the battle left it (public, R-PRIVACY)


@_on("CardsDrawn")
def _drawn(s: MatchState, e: Event) -> None:
    _take_top(s.draw, e.data["cards"])
    p = _p(s, e)
    (p.stack if e.data["to"] == "stack" else p.hand).extend(e.data["cards"])


@_on("CardsMilled")
def _milled(s: MatchState, e: Event) -> None:
    _take_top(s.draw, e.data["cards"])
    s.discard.extend(e.data["cards"])


@_on("DrawPileReshuffled")
def _reshuffled(s: MatchState, e: Event) -> None:
    if sorted(e.data["order"]) != sorted(s.discard) or s.draw:
        raise ValueError("reshuffle order must be the discard pile, with the draw pile empty")
    s.draw = list(e.data["order"])
    s.discard = []


@_on("CardTaken")
def _taken(s: MatchState, e: Event) -> None:
    s.discard.remove(e.data["card"])
    _p(s, e).hand.append(e.data["card"])


@_on("SlotOpened")
def _slot_opened(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    if d["from"] == "hand":
        p.hand.remove(d["card"])
    else:
        _take_top(s.draw, [d["card"]])
    p.slots.append(new_slot(d["card"]))


@_on("UnitRecruited")
def _recruited(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    source = d["from"]
    if source == "hand":
        p.hand.remove(d["card"])
    elif source == "pool":
        p.pool.remove(d["card"])
        _untuck(p, d["card"])
    elif source == "offer":
        p.offer.remove(d["card"])
    elif source == "colony":
        p.colony, p.colony_out = None, False
    slot = p.slots[d["slot"]]
    slot.unit, slot.pos = d["card"], d["pos"]
    toma_fold.note_recruit(s, d["card"])


@_on("UnitExchanged")
def _exchanged(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    p.hand.remove(d["unit"])
    p.hand.append(d["back"])
    p.slots[d["slot"]].unit = d["unit"]


@_on("FactionDiscarded")
def _faction_discarded(s: MatchState, e: Event) -> None:
    """Fallout Boyz discarded: the faction card goes under the ammo deck."""
    p, cid = _p(s, e), e.data["card"]
    if p.faction == cid:
        p.faction = None
    else:
        p.extra_factions.remove(cid)
    s.ammo_deck.append(cid)


@_on("HandCardTaken")
def _hand_card_taken(s: MatchState, e: Event) -> None:
    """Outfitter Q: a card moves from ``from_seat``'s hand to the acting seat's hand."""
    s.players[e.data["from_seat"]].hand.remove(e.data["card"])
    _p(s, e).hand.append(e.data["card"])


@_on("CardsRetucked")
def _retucked(s: MatchState, e: Event) -> None:
    """Kollektah: the cards under pool card ``card`` move under pool card ``under``."""
    p = _p(s, e)
    p.tucked.setdefault(e.data["under"], []).extend(p.tucked.pop(e.data["card"], []))


@_on("CardTucked")
def _tucked(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    p.hand.remove(e.data["card"])
    p.tucked.setdefault(e.data["under"], []).append(e.data["card"])


@_on("ColonyLoaded")
def _colony(s: MatchState, e: Event) -> None:
    _take_top(s.draw, [e.data["card"]])
    _p(s, e).colony = _p(s, e).colony_seen = e.data["card"]  # seen by all when placed


@_on("StrengthChanged")
def _strength(s: MatchState, e: Event) -> None:
    _p(s, e).slots[e.data["slot"]].pos = e.data["pos"]


@_on("TempAdded")
def _temp(s: MatchState, e: Event) -> None:
    slot = _p(s, e).slots[e.data["slot"]]
    if e.data.get("field", "temp") == "ammo_temp":
        slot.ammo_temp += e.data["n"]
    else:
        slot.temp += e.data["n"]


@_on("AmmoGained")
def _ammo_gained(s: MatchState, e: Event) -> None:
    _take_top(s.ammo_deck, e.data["cards"])
    _p(s, e).ammo.extend(e.data["cards"])


@_on("AmmoSpent")
def _ammo_spent(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    count = e.data["count"]
    spent, p.ammo = p.ammo[len(p.ammo) - count :], p.ammo[: len(p.ammo) - count]
    if e.data.get("stays"):  # Desert Rats: stays above the unit
        p.slots[e.data["slot"]].ammo_cards.extend(spent)
    else:
        s.ammo_deck[:0] = list(reversed(spent))  # back on top of the ammo deck
    if e.data.get("battle"):
        if not e.data.get("humans"):  # Lieutenant Dan's: temporary strength instead
            fight_of(p).ammo += count
        _reset_passes(s, _seat(e))


@_on("CardDiscarded")
def _discarded(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    cid, where = d["card"], d["from"]
    if where == "hand":
        p.hand.remove(cid)
    elif where == "pool":
        p.pool.remove(cid)
        _retuck(s, p, cid)
    elif where == "stash":
        p.stash.remove(cid)
    elif where == "slot":
        _vacate(s, p.slots[d["slot"]])
    _to_discard(s, cid)


@_on("CardAttached")
def _attached(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    if d["from"] == "hand":
        p.hand.remove(d["card"])
    else:
        src = p.slots[d["from_slot"]]
        src.attached, moved = [], src.attached
        _return_ammo(s, src)
        src.unit = None
        src.pos = 0
        src.temp = 0
        src.ammo_temp = 0
        p.slots[d["slot"]].attached.extend(moved)
    p.slots[d["slot"]].attached.append(d["card"])


@_on("RedSlotPlaced")
def _red_slot(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    if d.get("from") == "hand":  # a Special Unit from the hand played as a Red Slot
        p.hand.remove(d["card"])
    else:
        _take_top(s.specials, [d["card"]])
    if d["mode"] == "new":
        p.slots.append(new_slot(d["card"], red=True))
        return
    slot = p.slots[d["slot"]]
    _to_discard(s, slot.card)
    slot.card, slot.red = d["card"], True


@_on("RedSlotExchanged")
def _red_exchanged(s: MatchState, e: Event) -> None:
    slot = _p(s, e).slots[e.data["slot"]]
    s.specials.append(slot.card)
    _take_top(s.draw, [e.data["card"]])
    slot.card, slot.red = e.data["card"], False


@_on("SpecialGained")
def _special_gained(s: MatchState, e: Event) -> None:
    _take_top(s.specials, [e.data["card"]])
    p = _p(s, e)
    if e.data["to"] == "health":
        p.health.insert(0, e.data["card"])
    else:
        p.cards_at(e.data["to"]).append(e.data["card"])


@_on("SpecialsOffered")
def _offered(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    _take_top(p.health if d["source"] == "health" else s.specials, d["cards"])
    p.offer = list(d["cards"])
    p.offer_ctx = dict(d["ctx"])


@_on("SpecialChosen")
def _chosen(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    for other in p.offer:
        if other != d["special"]:
            (p.health if offer_ctx_of(p)["source"] == "health" else s.specials).append(other)
    if d["to"] == "hand":
        p.hand.append(d["special"])
    p.offer, p.offer_ctx = [], None


@_on("TripleMade")
def _triple(s: MatchState, e: Event) -> None:
    p, d = _p(s, e), e.data
    for cid in d["cards"]:
        if cid in p.hand:
            p.hand.remove(cid)
        else:
            for slot in p.slots:
                if slot.unit == cid:
                    _vacate(s, slot)
        _to_discard(s, cid)
    if d.get("ammo"):
        count = d["ammo"]
        spent, p.ammo = p.ammo[len(p.ammo) - count :], p.ammo[: len(p.ammo) - count]
        s.ammo_deck[:0] = list(reversed(spent))
    p.triples += 1


_MOVING = ("unit", "pos", "attached", "temp", "ammo_temp", "ammo_cards", "battle", "exhausted")


@_on("UnitsSwapped")
def _swapped(s: MatchState, e: Event) -> None:
    slots = _p(s, e).slots
    a, b = slots[e.data["a"]], slots[e.data["b"]]
    keys = ("pos",) if e.data["mode"] == "strength" else _MOVING
    for k in keys:  # the same fields of two slots trade places
        mine, theirs = getattr(a, k), getattr(b, k)
        setattr(a, k, theirs)
        setattr(b, k, mine)


@_on("SpecialSearched")
def _special_searched(s: MatchState, e: Event) -> None:
    s.specials.remove(e.data["card"])
    _p(s, e).hand.append(e.data["card"])


@_on("SpecialsShuffled")
def _specials_shuffled(s: MatchState, e: Event) -> None:
    if sorted(e.data["order"]) != sorted(s.specials):
        raise ValueError("the shuffled Special deck must hold the same cards")
    s.specials = list(e.data["order"])


@_on("ScoreGuessed")
def _score_guessed(s: MatchState, e: Event) -> None:
    _p(s, e).guess = e.data["guess"]


@_on("SpecialTaken")
def _special_taken(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    if e.data["from"] == "health":
        _take_top(p.health, [e.data["card"]])
    else:
        p.pool.remove(e.data["card"])
        _untuck(p, e.data["card"])
    p.hand.append(e.data["card"])


@_on("PoolCardMoved")
def _pool_moved(s: MatchState, e: Event) -> None:
    d = e.data
    src = s.players[d["from_seat"]]
    if d["from_where"] == "specials":
        s.specials.remove(d["card"])
    elif d["from_where"] == "slot":
        _vacate(s, src.slots[d["slot"]])
    else:
        src.cards_at(d["from_where"]).remove(d["card"])
        if d["from_where"] == "pool":
            _retuck(s, src, d["card"])
    s.players[d["to_seat"]].pool.append(d["card"])


@_on("FactionGained")
def _faction_gained(s: MatchState, e: Event) -> None:
    _take_top(s.ammo_deck, [e.data["card"]])
    _p(s, e).extra_factions.append(e.data["card"])


@_on("CardsStashed")
def _stashed(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    for cid in e.data["cards"]:
        p.hand.remove(cid)
        p.stash.append(cid)


@_on("StashReturned")
def _stash_returned(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    p.hand.extend(p.stash)
    p.stash = []


@_on("CardsLoaded")
def _loaded(s: MatchState, e: Event) -> None:
    """Megaton: hand cards go face down onto the faction card, out of reach."""
    p = _p(s, e)
    for cid in e.data["cards"]:
        p.hand.remove(cid)
    p.megaton.extend(e.data["cards"])


@_on("MegatonBoom")
def _boom(s: MatchState, e: Event) -> None:
    """Megaton's Boom: the loaded cards are discarded (Special Units under their deck)."""
    p = _p(s, e)
    for cid in e.data["cards"]:
        p.megaton.remove(cid)
        _to_discard(s, cid)


@_on("OnceUsed")
def _once(s: MatchState, e: Event) -> None:
    _p(s, e).used.append(e.data["key"])


@_on("RecruitmentMoves")
def _recruitment_moves(s: MatchState, e: Event) -> None:
    """One hidden Recruitment command (:mod:`.batching`): its events in order."""
    for event in inner(e):
        evolve(s, event)


@_on("ChoiceRequested")
def _choice_requested(s: MatchState, e: Event) -> None:
    d = e.data
    s.choice = {
        "seat": e.seat,
        "actor": d["actor"],
        "command": dict(d["command"]),
        "seed": d["seed"],
        "answers": list(d["answers"]),
        "kind": d["kind"],
        "options": list(d["options"]),
        "prompt": d["prompt"],
        "decline": d.get("decline"),
    }


@_on("ChoiceMade")
def _choice_made(s: MatchState, e: Event) -> None:
    s.choice = None


@_on("SeatReady")
def _ready(s: MatchState, e: Event) -> None:
    _p(s, e).ready = True


@_on("BoardsRevealed")
def _revealed(s: MatchState, e: Event) -> None:
    for seat, board in e.data["boards"].items():
        s.players[int(seat)].public = board


@_on("BattlePhaseStarted")
def _battle_phase(s: MatchState, e: Event) -> None:
    s.phase = "battle"
    s.battle = BattleProgress()


@_on("BattleStarted")
def _battle_started(s: MatchState, e: Event) -> None:
    s.battle = BattleProgress(cards=e.data["cards"])


@_on("BattleCardRevealed")
def _card_revealed(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    _take_top(p.stack, [e.data["card"]])
    p.current = Fight(
        card=e.data["card"],
        slot=e.data["slot"],
        fights=e.data["fights"],
        placed=e.data.get("placed", e.data["fights"]),
    )
    p.passed = False


@_on("BattleCardReplaced")
def _replaced(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    if fight_of(p).card != p.colony:  # Venus Colony's A.I.Lien stays out
        s.discard.append(fight_of(p).card)
    if e.data["card"] == p.colony and e.data["card"] not in p.hand:
        p.colony_out = True
    else:
        p.hand.remove(e.data["card"])
    fight_of(p).card = e.data["card"]
    fight_of(p).slot = e.data["slot"]
    fight_of(p).fights = e.data["fights"]
    fight_of(p).placed = e.data["fights"]
    _reset_passes(s, _seat(e))


def _reset_passes(s: MatchState, seat: int) -> None:
    for other, p in enumerate(s.players):
        if other != seat:
            p.passed = False


@_on("BattleCardPlaced")
def _placed(s: MatchState, e: Event) -> None:
    cur = fight_of(_p(s, e))
    cur.slot, cur.placed = e.data["slot"], True


@_on("FightBonus")
def _fight_bonus(s: MatchState, e: Event) -> None:
    cur = fight_of(_p(s, e))
    cur.bonus += e.data.get("n", 0)
    if e.data.get("forced"):
        cur.forced = True


@_on("ReactionPassed")
def _passed(s: MatchState, e: Event) -> None:
    _p(s, e).passed = True


@_on("PointScored")
def _point(s: MatchState, e: Event) -> None:
    winners = set(e.data["winners"])
    for seat, p in enumerate(s.players):
        cur = p.current
        if cur is None:
            continue
        up = seat in winners
        if cur.slot is None:
            p.beside.append([cur.card, up])
        else:
            slot = p.slots[cur.slot]
            slot.battle.append([cur.card, up])
            slot.exhausted = True
        if up:
            p.score += 1
        p.current, p.passed = None, False
    s.battle.point += 1


@_on("AILienSlid")
def _ailien_slid(s: MatchState, e: Event) -> None:
    slot = _p(s, e).slots[e.data["slot"]]
    entry = next(b for b in reversed(slot.battle) if b[0] == e.data["card"])
    slot.battle.remove(entry)  # its point stays scored (``score``)
    slot.attached.append(e.data["card"])


@_on("UnitExhausted")
def _exhausted(s: MatchState, e: Event) -> None:
    slot = _p(s, e).slots[e.data["slot"]]
    if e.data.get("card"):
        _take_top(s.draw, [e.data["card"]])
        slot.battle.append([e.data["card"], False])
    slot.exhausted = True


@_on("UnitReactivated")
def _reactivated(s: MatchState, e: Event) -> None:
    slots = _p(s, e).slots
    slot = slots[e.data["slot"]]
    slots[e.data["by"]].battle.extend(slot.battle)
    slot.battle, slot.exhausted = [], False


@_on("BattleEnded")
def _battle_ended(s: MatchState, e: Event) -> None:
    s.battle.scores = dict(e.data["scores"])


@_on("HealthLost")
def _health_lost(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    _take_top(p.health, e.data["cards"])
    p.pool.extend(e.data["cards"])
    if s.phase == "recruitment" and p.public:  # public even in Recruitment (R-VIEW-VERSION)
        p.public["health"] = len(p.health)
        p.public["pool"] = list(p.public["pool"]) + list(e.data["cards"])


@_on("HealthGained")
def _health_gained(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    p.pool.remove(e.data["card"])
    _retuck(s, p, e.data["card"])
    p.health.insert(0, e.data["card"])


@_on("SuddenDeathStarted")
def _sudden_death(s: MatchState, e: Event) -> None:
    s.sudden_death = True


@_on("SeatEliminated")
def _eliminated(s: MatchState, e: Event) -> None:
    p = _p(s, e)
    p.eliminated, p.ready, p.current = True, True, None


@_on("AIPokalypseTriggered")
def _apocalypse(s: MatchState, e: Event) -> None:
    s.apocalypse = True


@_on("BattleCleared")
def _cleared(s: MatchState, e: Event) -> None:
    for p in s.players:
        if p.toma:
            toma_fold.clear_battle(s, p)
            continue
        home = p.colony  # Venus Colony: "return it after the battle"
        for slot in p.slots:
            s.discard.extend(c for c, _ in slot.battle if c != home)
            _return_ammo(s, slot)  # Desert Rats: "Discard the ammo after the battle"
            slot.battle = []
            slot.exhausted = False
            slot.temp = 0
            slot.ammo_temp = 0
        s.discard.extend(c for c, _ in p.beside if c != home)
        s.discard.extend(p.stack)
        p.beside = []
        p.stack = []
        p.score = 0
        p.current = None
        p.passed = False
        p.guess = None
        p.colony_out = False


@_on("SeatResigned")
def _resigned(s: MatchState, e: Event) -> None:
    """RULINGS R-RESIGN: competitive, the seat plays on by the idle policy and loses."""
    s.add_resigned(e.data["seat"])


@_on("MatchEnded")
def _ended(s: MatchState, e: Event) -> None:
    s.phase = "ended"
    s.result = {
        k: e.data[k]
        for k in ("scores", "ranking", "winners", "reason", "outcome", "toma", "resigned")
        if k in e.data
    }
    s.result["ranking"] = ranking_objects(s.players, e.data)


def ranking_objects(players: Sequence[Player], data: Mapping[str, Any]) -> list[dict]:
    """The result's ``ranking`` as every game gives it (docs/CONTRACTS.md "Result"):
    ``[{"seat", "score", "rank"}]`` best first, ``score`` the seat's total strength
    (``scores[seat]``), equal places sharing a rank.

    ``MatchEnded`` (rules version 2, kept so that stored logs verify) lists bare seat
    numbers in final order: winners first, then the living seats, then the eliminated
    (``flow.finish`` / ``sides.finish``). Here the winners share rank 1 and any other seat
    shares the rank of the seat before it when the order had nothing to tell them apart
    (both resigned or not, both eliminated or not, same total strength, same health left);
    otherwise its rank is its place. An abandoned match's ranking is objects already."""
    order = list(data.get("ranking") or [])
    if not order or isinstance(order[0], dict):
        return order
    scores = list(data.get("scores") or [])
    winners = set(data.get("winners") or [])
    resigned = set(data.get("resigned") or [])

    def place_key(seat: int) -> tuple:
        if seat in winners:
            return ("won",)
        p = players[seat] if 0 <= seat < len(players) else None
        return (
            "lost",
            seat in resigned,
            bool(p and p.eliminated),
            scores[seat] if 0 <= seat < len(scores) else None,
            len(p.health) if p else 0,
        )

    out: list[dict] = []
    for place, seat in enumerate(order):
        key = place_key(seat)
        rank = out[-1]["rank"] if out and place_key(out[-1]["seat"]) == key else place + 1
        out.append(
            {"seat": seat, "score": scores[seat] if 0 <= seat < len(scores) else 0, "rank": rank}
        )
    return out
