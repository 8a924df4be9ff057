"""A Python client generated from ``openapi.yaml`` by openapi-python-client (pinned in the
test extras; generated into a temporary folder, never committed) plays a whole match of
every game against the embedded server served on a random local port (issue 10 item 3).
Its typed models parse every answer: the match view is the game's own ``<Game>MatchView``,
the legal actions are that game's command models and go back as the action bodies."""
from __future__ import annotations

import importlib
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from service import bootstrap
from tests.e2e.http_helpers import GAME_OPTIONS

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = Path(sys.executable).parent / "openapi-python-client"


@pytest.fixture(scope="module")
def arena_client(tmp_path_factory):
    """The generated package ``arena_client``, imported from a temporary folder."""
    if not GENERATOR.exists() and shutil.which("openapi-python-client") is None:
        pytest.fail("openapi-python-client is not installed (pip install -e '.[test]')")
    folder = tmp_path_factory.mktemp("generated")
    config = folder / "config.yaml"
    config.write_text("post_hooks: []\n", encoding="utf-8")
    subprocess.run([str(GENERATOR) if GENERATOR.exists() else "openapi-python-client",
                    "generate", "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
                    "--output-path", str(folder / "arena_client"), "--config", str(config)],
                   check=True, timeout=900, capture_output=True)
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("arena_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "arena_client" or m.startswith("arena_client.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def base_url(app, embedded_service):
    """The embedded app over real HTTP on a random port of 127.0.0.1."""
    bootstrap.install(embedded_service)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
def test_generated_python_client_plays_a_whole_match(arena_client, base_url, embedded_service, game):
    bootstrap.install(embedded_service)
    from arena_client import AuthenticatedClient, Client
    from arena_client.api.events import stream_events
    from arena_client.api.matches import act, create_match, get_legal_actions, get_match
    from arena_client import models

    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True, timeout=60)
    request = models.CreateMatchRequest.from_dict(
        {"game": game, "options": GAME_OPTIONS[game], "seats": [{"kind": "human"}, {"kind": "human"}]})
    created = create_match.sync(client=anonymous, body=request)
    assert isinstance(created, models.CreatedMatch), created
    seats = {s.seat: AuthenticatedClient(base_url=base_url, token=s.token, timeout=60,
                                         raise_on_unexpected_status=True)
             for s in created.seats}
    expected_view = getattr(models, f"{_prefix(game)}MatchView")
    rng = random.Random(game)
    for _ in range(5000):
        view = get_match.sync(created.match_id, client=anonymous)
        assert isinstance(view, expected_view), type(view)
        if view.status != "running":
            break
        for client in seats.values():
            mine = get_match.sync(created.match_id, client=client)
            assert isinstance(mine, expected_view)
            legal = get_legal_actions.sync(created.match_id, client=client)
            assert isinstance(legal, models.LegalActions), legal
            if not legal.actions:
                continue
            command = rng.choice(legal.actions)
            answer = act.sync_detailed(created.match_id, client=client, body=command)
            assert answer.status_code in (200, 409), answer.content
    else:
        raise AssertionError("the match did not finish")
    assert view.result is not None and view.to_dict()["result"]["winners"] is not None
    assert view.to_dict()["game"] == game
    # the SSE stream is text/event-stream: the generated client hands it over as text
    stream = stream_events.sync(created.match_id, client=anonymous, after=0, max_s=1)
    assert isinstance(stream, str) and "\ndata: {" in stream


def _prefix(game: str) -> str:
    from api.openapi_build import prefix

    return prefix(game)
