"""``arena ratings replay`` and ``arena ratings calibrate`` (issue 22): the ratings from
export files alone equal the service's live table; calibration rates the bot levels from
seeded bot-vs-bot matches."""

from __future__ import annotations

import json
import lzma
import random

from click.testing import CliRunner

from cli.ratings import calibration, ratings
from tests.support import exports
from tests.support.exports import new_service, play


def test_replay_of_export_files_gives_the_live_table(tmp_path, monkeypatch):
    monkeypatch.setitem(exports.LEVEL, "duel", "high")
    svc = new_service()
    ann, bob = svc.create_player("Ann"), svc.create_player("Bob")
    files = []
    for i in range(4):
        mid = svc.create_match(
            "duel",
            [{"kind": "human"}, {"kind": "open"}],
            {"tricks": 1},
            player_key=ann["key"],
            rated=i != 3,
        )["match_id"]
        svc.join(mid, 1, player_key=bob["key"])
        play(svc, mid, random.Random(i))
        svc.match_ended(mid)
        path = tmp_path / f"m{i}.json.xz" if i % 2 else tmp_path / f"m{i}.json"
        text = json.dumps(svc.export(mid)).encode()
        path.write_bytes(lzma.compress(text) if i % 2 else text)
        files.append(str(path))
    result = CliRunner().invoke(ratings, ["replay", *files])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["rated"] == 3 and doc["skipped"] == {"casual": 1}
    live, _ = svc._ratings.live_table()
    assert {e["participant"]: (e["mu"], e["sigma"]) for e in doc["boards"]["duel:2p"]} == {
        p: (r["mu"], r["sigma"]) for p, r in live["duel:2p"].items()
    }


def test_calibration_rates_the_levels_from_seeded_bot_matches():
    found = calibration("duel", 4, 2, ["random", "high"], seed=3)
    board = found["boards"]["duel:2p"]
    assert set(board) == {"bot:duel:random", "bot:duel:high"}
    assert all(r["sigma"] < 25 / 3 for r in board.values())  # each played 4 matches
    assert found["matches"] == 4 and found["levels"] == ["random", "high"]
    assert calibration("duel", 4, 2, ["random", "high"], seed=3) == found  # seeded: the same
