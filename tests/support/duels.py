"""Finished Duel matches (the examples' two-seat trick game) for the tests of what happens
after a match ends: the end-of-match job (counters, ratings, archive rows) and analyses.
Every helper takes a :class:`service.match_service.MatchService` whose games include Duel
(``game_packages=("examples",)`` or ``engines_path=None``)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any


def rated_duel(service, ann: Mapping[str, Any], bob: Mapping[str, Any]) -> str:
    """The id of a finished rated one-trick Duel between the players ``ann`` (seat 0, the
    creator) and ``bob`` (joins seat 1), each playing its first legal card
    (``service.create_player`` answers: ``player_id``, ``key``)."""
    mid = service.create_match(
        "duel",
        [{"kind": "human"}, {"kind": "open"}],
        {"tricks": 1},
        player_key=ann["key"],
        rated=True,
    )["match_id"]
    service.join(mid, 1, player_key=bob["key"])
    for player in (ann, bob):
        seat = service.authenticate(mid, player["key"])
        service.act(mid, seat, service.legal_actions(mid, seat)["actions"][0])
    assert service._record(mid).finished
    return mid


def assert_rated_once(service, mid: str, players: Iterable[Mapping[str, Any]]) -> None:
    """Each of ``players`` counted once (``played``), rated once in ``duel:2p`` with one
    history point (``mid``) and one archive row equal to it; the rebuild from the logs
    equals the live table."""
    table, history = service._ratings.live_table()
    for player in players:
        who = f"player:{player['player_id']}"
        assert service.player_profile(player["player_id"])["played"] == 1
        assert table["duel:2p"][who]["matches"] == 1
        assert [p["match_id"] for p in history[who]] == [mid]
        rows = service.ctx.archive.rating_curve(who, "duel:2p")
        assert [(r["match_id"], r["mu"], r["sigma"]) for r in rows] == [
            (mid, history[who][0]["mu"], history[who][0]["sigma"])
        ]
    assert service.ratings_rebuild()["same"] is True


def finished_duel(service, tricks: int = 6, seed: int = 9) -> str:
    """The id of a finished ``tricks``-trick Duel of two human seats playing random legal
    cards (``random.Random(seed)``; the seats in seat order)."""
    mid = service.create_match("duel", [{"kind": "human"}, {"kind": "human"}], {"tricks": tricks})[
        "match_id"
    ]
    rng = random.Random(seed)
    while service.match_view(mid, None)["status"] != "finished":
        for seat in (0, 1):
            legal = service.legal_actions(mid, seat)["actions"]
            if legal:
                service.act(mid, seat, rng.choice(legal))
    return mid


def in_process_analysis(service, mid: str, budget: int) -> dict[str, Any]:
    """What :func:`domain.analysis.analyse` answers in this process for the two-seat Duel
    ``mid`` (its export) at ``budget``, seeded by the log's head hash: the answer a worker's
    analysis must equal."""
    from domain.analysis import analyse
    from domain.games import registry
    from service.usecases.analysis import turns_of

    log = service.export(mid)
    setup, turns = turns_of(log)
    return analyse(
        registry()["duel"], setup, turns, budget, log["events"][-1]["hash"].encode(), seat_count=2
    )
