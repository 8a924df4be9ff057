"""``arena worker``: refuses to start without REDIS_URL; on a real Redis it runs RQ."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import main


def test_worker_needs_redis_url():
    result = CliRunner().invoke(main, ["worker"], env={"REDIS_URL": "", "RQ_REDIS_URL": ""})
    assert result.exit_code == 2
    assert "set REDIS_URL" in result.output


@pytest.mark.integration
def test_worker_burst_plays_the_queued_bot_turns_to_the_end(real_service, real_config):
    from service import bootstrap

    # An all-bot "race" match (tests/support/games.py): creating it queues the first bot
    # turn; each turn queues the next, so a burst worker plays the match to its end.
    created = real_service.create_match(
        "race", [{"kind": "bot", "bot": "random"}] * 2, {"target": 10}
    )
    assert real_service.match_view(created["match_id"], None)["status"] == "running"
    env = {**real_config.to_env(), "COLUMNS": "300"}
    try:
        result = CliRunner().invoke(
            main, ["worker", "--burst", "--name", f"{real_config.key_prefix}-w"], env=env
        )
    finally:
        bootstrap.install(real_service)
    assert result.exit_code == 0, result.output
    assert "(burst)" in result.output
    view = real_service.match_view(created["match_id"], None)
    assert view["status"] == "finished"
    assert view["result"]["winners"]
