"""Hidden information: hands, health stacks, deck orders, face-down cards and Recruitment
board changes (until the Battle Phase reveal) never reach another seat or a spectator."""

from __future__ import annotations

import json
import random

from domain.engine import Setup, derive_rng
from domain.games.aipokalypse import ENGINE
from domain.games.aipokalypse.batching import unbatch
from domain.games.aipokalypse.bots import BOTS
from domain.games.aipokalypse.cards import catalogue


def _play(seed: int, seats: int = 3, steps: int = 400):
    events = ENGINE.new_match(Setup(seats, {}), derive_rng(b"h", 0))
    state = None
    for e in events:
        state = ENGINE.evolve(state, e)
    log = [(e, ENGINE.load_state(ENGINE.dump_state(state))) for e in events]
    rng = random.Random(seed)
    while ENGINE.result(state) is None and steps:
        seat = sorted(ENGINE.pending(state))[0]
        cmd = BOTS["tactician"].choose(state, seat, rng)
        for e in ENGINE.decide(state, seat, cmd, derive_rng(b"h", len(log))):
            state = ENGINE.evolve(state, e)
            log.append((e, ENGINE.load_state(ENGINE.dump_state(state))))
        steps -= 1
    return log


def _secret_ids(snapshot, viewer):
    """Card ids that ``viewer`` must not see in this snapshot: other hands, health stacks,
    the draw pile and the specials deck (basic slot cards lie face down)."""
    secret = set(snapshot.draw) | set(snapshot.specials)
    for seat, p in enumerate(snapshot.players):
        secret |= set(p.health)
        if seat != viewer:
            secret |= set(p.hand) | set(p.stash) | set(p.offer) | set(p.offered)
            secret |= set(p.megaton)  # loaded face down on Megaton
    return secret


def test_redacted_events_never_show_another_seats_hand_or_any_deck_order():
    log = _play(1)
    cat = catalogue()
    for viewer in (None, 0, 1):
        for index, (event, after) in enumerate(log):
            before = log[index - 1][1] if index else after
            text = json.dumps(ENGINE.redact(event, viewer, after))
            leaked = {c for c in cat.cards if f'"{c}"' in text}
            secret = _secret_ids(before, viewer) & _secret_ids(after, viewer)
            assert not (leaked & secret), (viewer, event.type, leaked & secret)


def test_views_never_show_another_seats_hand_or_health_stack():
    log = _play(2)
    for viewer in (None, 0, 1, 2):
        for _, snap in log[::7]:
            text = json.dumps(ENGINE.view(snap, viewer))
            for seat, p in enumerate(snap.players):
                for c in p.health:
                    assert f'"{c}"' not in text or c in p.pool
                if seat != viewer:
                    seen = set((p.public or {}).get("pool", []))  # as revealed at the last battle
                    for c in p.hand:
                        assert f'"{c}"' not in text or c in snap.discard or c in seen


def test_ammo_shows_only_its_count():
    from domain.engine import Event

    event = Event("AmmoGained", {"cards": ["F03", "F07"]}, 0)
    assert [ENGINE.redact(event, v) for v in (0, 1, None)] == [{"count": 2}] * 3


def test_recruitment_board_changes_are_hidden_until_the_battle_reveal():
    log = _play(3)
    batches = [e for e, _ in log if e.type == "RecruitmentMoves"]
    assert batches, "recruitment produced board events"
    for e in batches:
        inside = {x.seat for x in unbatch([e])}
        for viewer in [None] + [s for s in range(3) if s not in inside]:
            assert ENGINE.redact(e, viewer) == {"hidden": True}
            assert ENGINE.redact_type(e, viewer) == "RecruitmentMoveMade"
        for seat in inside - {None}:
            shown = ENGINE.redact(e, seat)["events"]
            assert shown and all(
                x["seat"] == seat or x["type"] == "RecruitmentMoveMade" for x in shown
            )
            assert ENGINE.redact_type(e, seat) == "RecruitmentMoves"
    hidden = [x for e in batches for x in unbatch([e])]
    assert all(x.data.get("hidden") for x in hidden)
    assert len({x.type for x in hidden}) > 1, "several kinds of hidden moves were made"
    assert not [e for e, _ in log if e.type != "RecruitmentMoves" and e.data.get("hidden")]
    public = [e for e, _ in log if e.type != "RecruitmentMoves"]
    assert all(ENGINE.redact_type(e, None) == e.type for e in public)
    reveal = next(e for e, _ in log if e.type == "BoardsRevealed")
    assert set(ENGINE.redact(reveal, 1)["boards"]) == {"0", "1", "2"}


def test_in_recruitment_other_seats_see_the_health_the_last_battle_left_not_the_private_moves():
    # Battle damage is public: in the next Recruitment Phase the other seats see each seat's
    # health count and pool as the battle left them; its private Recruitment moves (a slot
    # opened from hand) still show only at the next Battle Phase reveal.
    log = _play(4)
    starts = [
        k for k, (e, _) in enumerate(log) if e.type == "RecruitmentStarted" and e.data["round"] >= 2
    ]
    assert starts
    checked = 0
    for k in starts:
        snap = log[k][1]
        before = log[k - 1][1]
        for seat in range(3):
            p = snap.players[seat]
            if p.eliminated:
                continue
            seen = ENGINE.view(snap, (seat + 1) % 3)["seats"][seat]
            assert seen["health_count"] == len(before.players[seat].health) == len(p.health)
            assert seen["pool"] == before.players[seat].pool
            checked += 1
        later = next((s for e, s in log[k:] if e.type == "SlotOpened"), None)
        if later is not None and later["phase"] == "recruitment":
            opener = next(e.seat for e, _ in log[k:] if e.type == "SlotOpened")
            other = ENGINE.view(later, (opener + 1) % 3)["seats"][opener]
            assert len(other["slots"]) == len(snap.players[opener].slots)
    assert checked
