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


def test_calibration_of_a_family_against_the_game_rates_each_level_and_each_difficulty():
    found = calibration(
        "aipokalypse",
        4,
        1,
        ["random", "tactician"],
        seed=3,
        options=[{"difficulty": "handy_man"}, {"difficulty": "boss"}],
    )
    board = found["boards"]["aipokalypse:toma"]
    assert set(board) == {
        "bot:aipokalypse:random",
        "bot:aipokalypse:tactician",
        "game:aipokalypse:handy_man",
        "game:aipokalypse:boss",
    }
    assert all(r["sigma"] < 25 / 3 for r in board.values())
    assert found["options"] == [{"difficulty": "handy_man"}, {"difficulty": "boss"}]


def test_calibrate_writes_every_family_beside_the_others(tmp_path, monkeypatch):
    import cli.ratings
    from service.ratings import fold

    target = tmp_path / "bot_ratings.json"
    target.write_text(fold.BOT_RATINGS_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(fold, "BOT_RATINGS_PATH", target)
    args = ["calibrate", "--game", "dead-apocalypse", "--seats", "1", "--matches", "2"]
    args += ["--levels", "random", "--options", '{"difficulty": "easiest"}', "--write"]
    result = CliRunner().invoke(cli.ratings.ratings, args)
    assert result.exit_code == 0, result.output
    written = json.loads(target.read_text(encoding="utf-8"))
    assert "game:dead-apocalypse:easiest" in written["boards"]["dead-apocalypse:coop"]
    assert "ai-100-human:2p" in written["boards"]  # the other families stay
    assert written["calibrations"][-1]["boards"] == ["dead-apocalypse:coop"]
    bad = CliRunner().invoke(cli.ratings.ratings, [*args[:-1], "--options", "[1]"])
    assert bad.exit_code == 2 and "JSON object" in bad.output
