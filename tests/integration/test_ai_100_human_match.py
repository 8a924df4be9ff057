"""A full 3-seat bot-only "AI: 100% Human" match through MatchService and a real RQ worker,
then its export verified (re-running new_match and every command from the revealed seed)."""

import time

import pytest

from tests.support.cluster import BOTH_STORES

pytestmark = [pytest.mark.integration, BOTH_STORES]

ai_100_human = pytest.importorskip("domain.games.ai_100_human")


def test_three_bots_play_ai_100_human_to_the_end_and_the_export_verifies(real_config, start_worker):
    from service import bootstrap

    config = real_config.with_(engines_path=None, snapshot_every=50)
    service = bootstrap.install(bootstrap.build_service(config))
    try:
        start_worker(engines_path=None, ready=True)
        seats = [
            {"kind": "bot", "bot": "greedy"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ]
        mid = service.create_match("ai-100-human", seats, {})["match_id"]
        deadline = time.monotonic() + 300  # generous: the loop ends when the match does
        while service.match_view(mid, None)["status"] != "finished" and time.monotonic() < deadline:
            time.sleep(0.2)
        view = service.match_view(mid, None)
        assert view["status"] == "finished", (
            f"stuck at version {view['version']}: {view['pending']}"
        )
        exported = service.export(mid)
        assert {e["cause"] for e in exported["events"]} == {"setup", "bot"}
        report = service.verify(exported)
        assert report["errors"] == [] and report["valid"] is True
        assert report["result"] == view["result"] and report["version"] == view["version"]
    finally:
        bootstrap.reset()
