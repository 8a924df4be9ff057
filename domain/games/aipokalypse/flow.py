"""Automatic steps between decisions: set-up, phase changes, battle result, game end.

Rulebook: "Game Setup", "Game Start", "Phase 1: Recruitment" (draw to 6, round bonus),
"Before the Battle", "Battle Result", "Loss of Health Points & Pool", "End of Game & Sudden
Death", "The A.I.Pokalypse", "Total Strength", "5-8 Player Variant"; against the A.I.Toma
("Solo / Cooperative Mode") the points, damage and game end of :mod:`.sides`, the A.I.Toma's
own steps in :mod:`.toma` and the team rules of :mod:`.coop`.
"""

from __future__ import annotations

from . import battle, coop, sides, toma
from .cards import catalogue
from .context import Ctx
from .effects import choices, modifiers
from .effects.resolve import Op, _op, discard_card, fire, gain_ammo, origin_of, run
from .spec import (
    BASE_MAX_SEATS,
    DIFFICULTIES,
    EXPERT_PACKET,
    FACTIONS_OFFERED,
    FORCE_THE_LUCK_FACTION,
    HAND_SIZE,
    HEALTH_POINTS,
    TOMA_MODES,
)
from .state import (
    MatchState,
    alive,
    faction_of,
    is_toma,
    opponents_of,
    public_board,
    toma_seat,
    total_strength,
    unit_of,
)
from .state import seats as human_seats


def start_match(ctx: Ctx, seats: int, options: dict) -> None:
    """Game Setup (A)-(D): shuffle factions (ammo deck), special units and basic units; deal
    2 factions, 6 health points and 6 hand cards per seat; one ``MatchStarted`` event.

    Expert Variant (``expert``): instead of a health stack each seat gets a packet of 7
    Special Units to draft from (:mod:`.draft`). "Force the Luck" (``force_the_luck``): the
    Engineer Guild is taken out of the faction cards and lies on the table for everyone.
    5-8 Player Variant (5+ seats): the second copy's basic units are shuffled in (its ammo is
    added after the factions are chosen, :func:`factions_chosen`). Solo / Cooperative Mode:
    after the hands, the A.I.Toma's starting units come from the draw pile
    (:func:`.toma.setup`, ``difficulty``) and its 6 health points from the Special deck.

    RULINGS R-FORCE-LUCK.
    """
    cat, rng = catalogue(), ctx.rng
    factions, specials, basics = list(cat.faction), list(cat.special), list(cat.basic)
    second = seats > BASE_MAX_SEATS
    if second:
        basics += list(cat.second_basic)
    table: list[str] = []
    if options.get("force_the_luck"):
        table = [f for f in factions if cat[f].name == FORCE_THE_LUCK_FACTION]
        factions = [f for f in factions if f not in table]
    for deck in (factions, specials, basics):
        rng.shuffle(deck)
    per = EXPERT_PACKET if options.get("expert") else HEALTH_POINTS
    offered = [factions[i * FACTIONS_OFFERED : (i + 1) * FACTIONS_OFFERED] for i in range(seats)]
    dealt = [specials[i * per : (i + 1) * per] for i in range(seats)]
    hands = [basics[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(seats)]
    extra: dict = {"table_factions": table} if table else {}
    if second:
        extra["second_copy"] = True
    if options.get("expert"):
        extra.update(
            expert=True, packets=dealt, health_order=options.get("health_order", "shuffled")
        )
        dealt = [[] for _ in range(seats)]
    draw, rest = basics[seats * HAND_SIZE :], specials[seats * per :]
    if options["mode"] in TOMA_MODES:
        piles, ignored, taken = toma.setup(draw, DIFFICULTIES[options["difficulty"]])
        extra["toma"] = {
            "difficulty": options["difficulty"],
            "health": rest[:HEALTH_POINTS],
            "piles": piles,
            "ignored": ignored,
        }
        draw, rest = draw[taken:], rest[HEALTH_POINTS:]
    ctx.emit(
        "MatchStarted",
        None,
        n=seats,
        mode=options["mode"],
        offered=offered,
        health=dealt,
        hands=hands,
        draw=draw,
        specials=rest,
        ammo_deck=factions[seats * FACTIONS_OFFERED :],
        **extra,
    )


def factions_chosen(ctx: Ctx) -> None:
    """All seats chose: reveal the factions, add the second copy's ammo (5-8 Player Variant:
    shuffled, under the ammo deck, ruling R-LARGE), run start-of-game faction effects, begin
    round 1."""
    ctx.emit(
        "FactionsRevealed", None, factions=[ctx.players[s].faction for s in human_seats(ctx.state)]
    )
    if ctx.state.second_copy:
        ammo = list(catalogue().second_faction)
        ctx.rng.shuffle(ammo)
        ctx.emit("SecondCopyAmmoAdded", None, cards=ammo)
    ctx.checkpoint(START_OF_GAME)  # a start-of-game choice comes after the reveal (R-SETUP)
    start_of_game(ctx)


# The internal command that runs the start-of-game effects once the factions are revealed
# (held by a ``ChoiceRequested`` when one of them asks a seat; never accepted from a client).
START_OF_GAME = {"type": "start_of_game"}


def start_of_game(ctx: Ctx) -> None:
    """Start-of-game faction effects of every seat (seat order; e.g. Prayers of Elex prays),
    then Recruitment 1 begins (ruling R-SETUP: after ``FactionsRevealed``)."""
    for seat in human_seats(ctx.state):
        for fid in [faction_of(ctx.players[seat])]:
            ops = catalogue()[fid].ops("start")
            if ops:
                run(ctx, seat, ops, origin_of(fid))
    start_recruitment(ctx)


def start_recruitment(ctx: Ctx) -> None:
    """Draw up to 6 (not in round 1), stored cards return, round bonuses left to right with
    the faction last ("Round bonus effect")."""
    rnd = ctx.state.round + 1
    ctx.emit("RecruitmentStarted", None, round=rnd)
    for seat in alive(ctx.state):
        p = ctx.players[seat]
        if is_toma(p):
            continue  # "The A.I.Toma does not recruit"
        if rnd > 1 and len(p.hand) < HAND_SIZE:
            ctx.draw(seat, HAND_SIZE - len(p.hand))
        if p.stash:
            ctx.emit("StashReturned", seat, cards=list(p.stash))
    toma.forced_discards(ctx)  # the A.I.Toma's discard symbols
    for seat in alive(ctx.state):
        for i, card in list(modifiers.sources(ctx.players[seat])):
            ops = card.ops("round_bonus")
            if ops and (i is None or ctx.players[seat].slots[i].unit == card.id):
                run(ctx, seat, ops, origin_of(card.id, i))
        if ctx.state.phase == "ended":
            return


def seat_ready(ctx: Ctx, seat: int) -> None:
    """A seat ends its Recruitment Phase (Erit Lux / Sic Mundus store hand cards of its
    choice, see :func:`.effects.choices.hand_choices`); when every
    seat is ready the A.I.Pokalypse ends the game, otherwise the battle begins."""
    p = ctx.players[seat]
    keep = modifiers.stash_size(p)
    if keep and p.hand:
        stored = choices.hand_choices(ctx, seat, keep, "Store a hand card on your faction?")
        if stored:
            ctx.emit("CardsStashed", seat, cards=stored)
    if modifiers.has(p, "load") and p.hand:
        load_megaton(ctx, seat)
    ctx.emit("SeatReady", seat)
    if all(ctx.players[s].ready for s in alive(ctx.state)):
        if ctx.state.apocalypse:
            finish_by_strength(
                ctx,
                [s for s in alive(ctx.state) if s != toma_seat(ctx.state)],
                "aipokalypse",
                with_hand=True,
            )
        else:
            start_battle(ctx)


WAITS_FOR_OTHERS = "take_from_hands"  # Outfitter Q: "You can wait until all other players ..."


def load_megaton(ctx: Ctx, seat: int) -> None:
    """Megaton: "You can no longer access the cards except for Megaton's Boom effect" — when
    the seat ends its Recruitment it may place hand cards face down on Megaton, one by one
    (default: none). They leave the hand for good: no battle card, Triple, recruit or
    discard effect reaches them, they are not hand cards for the A.I.Pokalypse, and only
    the Boom (:mod:`.effects.opponents`) uses them. Ruling R-MEGATON."""
    loaded: list[str] = []
    while True:
        hand = [c for c in ctx.players[seat].hand if c not in loaded]
        if not hand:
            break
        pick = ctx.ask(
            seat,
            "load",
            ["stop"] + sorted(hand),
            "Megaton: place a hand card face down on Megaton?",
            decline="stop",
        )
        if pick == "stop":
            break
        loaded.append(pick)
    if loaded:
        ctx.emit("CardsLoaded", seat, cards=loaded)


def start_battle(ctx: Ctx) -> None:
    """Reveal boards, preparation effects (left to right, faction last), deal battle stacks.

    Outfitter Q "can wait until all other players have completed their preparation-effect
    actions": its seat's preparation sequence stops before it and continues (Outfitter Q,
    then the units to its right, then the faction) once every other seat is done. Waiting
    never costs anything, so it always waits (ruling R-OUTFITTER)."""
    ctx.emit(
        "BoardsRevealed",
        None,
        boards={str(s): public_board(ctx.players[s]) for s in alive(ctx.state)},
    )
    ctx.emit("BattlePhaseStarted", None)
    later: list[tuple[int, list]] = []
    for seat in alive(ctx.state):
        todo = [
            (i, card) for i, card in modifiers.sources(ctx.players[seat]) if card.ops("preparation")
        ]
        wait = next(
            (k for k, (_, card) in enumerate(todo) if card.has(WAITS_FOR_OTHERS)), len(todo)
        )
        _prepare(ctx, seat, todo[:wait])
        if todo[wait:]:
            later.append((seat, todo[wait:]))
    for seat, todo in later:
        if not ctx.players[seat].eliminated:
            _prepare(ctx, seat, todo)
    count = battle.battle_card_count(ctx.state)
    ctx.emit("BattleStarted", None, cards=count)
    for seat in alive(ctx.state):
        ctx.draw(seat, count, to="stack")
    for seat in alive(ctx.state):
        if modifiers.has(ctx.players[seat], "guess_score"):
            guess_score(ctx, seat, count)
    next_point(ctx)


def _prepare(ctx: Ctx, seat: int, todo: list) -> None:
    """Run the preparation effects ``[(slot | None, card)]`` of ``seat`` whose card is still
    where it was (a unit killed by an earlier preparation effect does nothing)."""
    for i, card in todo:
        if i is None or ctx.players[seat].slots[i].unit == card.id:
            run(ctx, seat, card.ops("preparation"), origin_of(card.id, i))


def guess_score(ctx: Ctx, seat: int, cards: int) -> None:
    """XxX: the seat secretly guesses its score of this battle (0..battle cards; default the
    even share of the points). Checked in :func:`end_battle`. RULINGS R-XXX."""
    share = cards // max(1, len(alive(ctx.state)))
    options = [share] + [k for k in range(cards + 1) if k != share]
    ctx.emit(
        "ScoreGuessed",
        seat,
        guess=ctx.ask(seat, "guess", options, "XxX: guess your score of this battle"),
    )


def next_point(ctx: Ctx) -> None:
    """Reveal the next battle cards, or end the battle when the stacks are empty."""
    if any(ctx.players[s].stack for s in alive(ctx.state)):
        battle.reveal_point(ctx)
        advance(ctx)
    else:
        end_battle(ctx)


def advance(ctx: Ctx) -> None:
    """Resolve points while no seat has an open reaction decision; the A.I.Toma spends its
    ammo once the human seats are done (after which they may react again)."""
    while ctx.state.phase == "battle" and not battle.eligible(ctx.state):
        if not any(ctx.players[s].current for s in alive(ctx.state)):
            next_point(ctx)
            return
        if battle.toma_react(ctx):
            continue
        if battle.auto_place(ctx):
            return  # a seat chooses where its card goes
        battle.resolve_point(ctx)
        if ctx.state.phase != "battle":
            return
        if any(ctx.players[s].stack for s in alive(ctx.state)):
            battle.reveal_point(ctx)
        else:
            end_battle(ctx)
            return


def battle_damage(state: MatchState) -> dict[int, int]:
    """ "Battle Result": "all players lose health points in an amount equal to the difference
    between their score and the score of the player with the most points. If all players have
    the same score, each player loses one health point." Returns seat -> damage: the best score
    minus the own score (leaders sharing the best score lose 0, e.g. scores 3, 3, 1 give
    0, 0, 2); only when every living seat has the same score does each lose 1, except a
    tie-winner (Neo "You win any tie ... battle results", Last Light), which loses none.
    (C.H.R.O.M.E.'s doubling is its owner's decision, see :func:`end_battle`.) Against the
    A.I.Toma the same rule applies between the two sides (:func:`.sides.battle_damage`).

    RULINGS R-DAMAGE.
    """
    if state.toma:
        return sides.battle_damage(state)
    seats = alive(state)
    scores = {s: state.players[s].score for s in seats}
    best = max(scores.values(), default=0)
    all_equal = len(seats) > 1 and all(v == best for v in scores.values())
    damage = {}
    for s in seats:
        if all_equal:
            damage[s] = 0 if modifiers.has(state.players[s], "tiebreak") else 1
        else:
            damage[s] = best - scores[s]
    return damage


def chrome_decision(ctx: Ctx, damage: dict[int, int]) -> dict[int, int]:
    """C.H.R.O.M.E.: "You can discard C.H.R.O.M.E. if you won the last battle to deal double
    damage to your opponents" — asked of the seat that alone has the best score, against the
    A.I.Toma of a seat of the side that beat it (default: keep it). Returns the damage to apply."""
    for seat in sides.battle_winners(ctx.state):
        if not is_toma(ctx.players[seat]) and modifiers.has(ctx.players[seat], "double_damage"):
            return _chrome(ctx, seat, damage)
    return damage


def _chrome(ctx: Ctx, seat: int, damage: dict[int, int]) -> dict[int, int]:
    p = ctx.players[seat]
    for i, _ in modifiers.statics(p, "double_damage"):
        if i is None or not p.slots[i].unit:
            continue
        unit = unit_of(p.slots[i])
        if (
            ctx.ask(
                seat,
                "chrome",
                ["keep", "double"],
                "C.H.R.O.M.E.: discard it to double your opponents' damage?",
                decline="keep",
            )
            == "double"
        ):
            discard_card(ctx, seat, unit, trigger=False)
            return {s: d * 2 for s, d in damage.items()}
    return damage


def end_battle(ctx: Ctx) -> None:
    """Battle Result, Sudden Death and elimination, alternative wins, clean-up, next round."""
    state = ctx.state
    damage = chrome_decision(ctx, battle_damage(state))
    state = ctx.state
    scores = {str(s): state.players[s].score for s in alive(state)}
    ctx.emit("BattleEnded", None, scores=scores, damage={str(k): v for k, v in damage.items()})
    for seat in sides.battle_winners(ctx.state):
        if not is_toma(ctx.players[seat]):
            fire(ctx, seat, "battle_won", {})
    for seat in alive(ctx.state):  # XxX: "If you have guessed the correct score"
        guess = ctx.players[seat].guess
        if guess is not None and guess == ctx.players[seat].score:
            fire(ctx, seat, "score_guessed", {})
    apply_damage(ctx, damage)
    if ctx.state.phase == "ended" or coop.alternative_win_due(ctx):
        return
    ctx.emit("BattleCleared", None)
    for seat in alive(ctx.state):
        if modifiers.has(ctx.players[seat], "tuck"):
            tuck_cards(ctx, seat)
    if check_alternative_win(ctx):
        return
    start_recruitment(ctx)


def tuck_cards(ctx: Ctx, seat: int) -> None:
    """Kollektah: "If you have cards left after the battle, you can place them under any
    Special Units in your pool" — hand card by hand card (default: keep them), then the pool
    card it goes under. They return when that Special Unit is recruited (see ``fold``)."""
    while True:
        p = ctx.players[seat]
        if not p.hand or not p.pool:
            return
        card = ctx.ask(
            seat,
            "tuck",
            ["stop"] + sorted(p.hand),
            "Kollektah: place a hand card under a Special Unit of your pool?",
            decline="stop",
        )
        if card == "stop":
            return
        under = ctx.ask(
            seat, "special", sorted(set(p.pool)), "Kollektah: under which Special Unit?"
        )
        ctx.emit("CardTucked", seat, card=card, under=under)


def apply_damage(ctx: Ctx, damage: dict[int, int]) -> None:
    """Lose health points: reveal them from the health stack into the pool.

    Before Sudden Death nobody loses more than their stack; when one or more stacks run out
    for the first time the remaining damage is nullified and Sudden Death starts. In Sudden
    Death a seat that must lose a point with an empty stack is eliminated. Elysium: +1 ammo
    per lost point. Ends the match when at most one seat is left. The A.I.Toma loses last,
    one Special Unit at a time, each resolving its action symbols (:func:`.toma.lose_health`);
    against it the match ends by :func:`.sides.check_end`. RULINGS R-SUDDEN-DEATH."""
    sudden = ctx.state.sudden_death
    eliminated_now: list[int] = []
    for seat in sorted(damage):
        n = damage[seat]
        p = ctx.players[seat]
        if n <= 0 or p.eliminated:
            continue
        lose = min(n, len(p.health))
        if lose and is_toma(p):
            eliminated_now += toma.lose_health(ctx, lose, sudden)
        elif lose:
            ctx.emit("HealthLost", seat, cards=p.health[:lose])
            per = modifiers.ammo_per_damage(p)
            if per:
                gain_ammo(ctx, seat, per * lose)
        if sudden and n > lose:
            ctx.emit("SeatEliminated", seat)
            eliminated_now.append(seat)
    if not ctx.state.sudden_death and any(not ctx.players[s].health for s in alive(ctx.state)):
        ctx.emit("SuddenDeathStarted", None)
    if ctx.state.toma:
        sides.check_end(ctx)
        return
    left = alive(ctx.state)
    if len(left) == 1:
        finish(ctx, left, "elimination")
    elif not left:
        finish_by_strength(ctx, eliminated_now, "elimination")


@_op("damage")
def _damage(ctx: Ctx, seat: int, op: Op, origin: dict) -> None:
    """The effect op ``damage`` (``{"n"}``): every opponent of ``seat`` loses ``n`` health points
    (:func:`apply_damage`). Registered with the effect engine here, above it, because the
    damage can end the match (the effect engine sits below the game end)."""
    apply_damage(ctx, {other: op["n"] for other in opponents_of(ctx.state, seat)})


def check_alternative_win(ctx: Ctx) -> bool:
    """Special Units' alternative win conditions (Invader: 5 units of one colour, Rogues
    count as purple), checked after each battle. Several at once -> total strength. Against
    the A.I.Toma: :func:`.coop.alternative_win` (co-op: "both players must survive one more
    battle phase"). RULINGS R-ALT-WIN."""
    if ctx.state.toma:
        return coop.alternative_win(ctx)
    winners = [seat for seat in alive(ctx.state) if coop.meets_alternative_win(ctx.players[seat])]
    if len(winners) == 1:
        finish(ctx, winners, "alternative_win")
    elif winners:
        finish_by_strength(ctx, winners, "alternative_win")
    return bool(winners)


def _strength_key(ctx: Ctx, seat: int, with_hand: bool) -> tuple:
    p = ctx.players[seat]
    return (total_strength(p, with_hand), 1 if modifiers.has(p, "tiebreak") else 0, len(p.health))


def finish_by_strength(
    ctx: Ctx, contenders: list[int], reason: str, with_hand: bool = False
) -> None:
    """ "Total Strength": the highest total strength among ``contenders`` wins (Neo wins ties),
    then more remaining health points; a full tie is a shared win. Against the A.I.Toma:
    :func:`.sides.finish_by_strength`. RULINGS R-LAST-ELIMINATED."""
    if ctx.state.toma:
        sides.finish_by_strength(ctx, reason, with_hand)
        return
    best = max(_strength_key(ctx, s, with_hand) for s in contenders)
    finish(
        ctx, [s for s in contenders if _strength_key(ctx, s, with_hand) == best], reason, with_hand
    )


def finish(ctx: Ctx, winners: list[int], reason: str, with_hand: bool = False) -> None:
    """Emit ``MatchEnded``: scores are total strengths; ranking = winners, then living seats,
    then the eliminated, each by total strength and health."""
    n = ctx.state.n
    resigned = list(ctx.state.resigned or [])
    scores = [total_strength(ctx.players[s], with_hand) for s in range(n)]
    if resigned:  # RULINGS R-RESIGN: a resigned seat never wins; the best standing seats do
        standing = [s for s in range(n) if s not in resigned]
        winners = [w for w in winners if w not in resigned]
        if not winners and standing:
            best = max(_strength_key(ctx, s, with_hand) for s in standing)
            winners = [s for s in standing if _strength_key(ctx, s, with_hand) == best]
    rest = sorted(
        (s for s in range(n) if s not in winners),
        key=lambda s: (
            s in resigned,
            ctx.players[s].eliminated,
            -scores[s],
            -len(ctx.players[s].health),
            s,
        ),
    )
    extra = {"resigned": resigned} if resigned else {}
    ctx.emit(
        "MatchEnded",
        None,
        reason=reason,
        winners=sorted(winners),
        ranking=sorted(winners) + rest,
        scores=scores,
        **extra,
    )
