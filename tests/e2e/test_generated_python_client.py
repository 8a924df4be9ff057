"""A Python client generated from ``openapi.yaml`` by openapi-python-client (pinned in the
test extras; generated into a temporary folder, never committed) plays a whole match of
every game against the embedded server served on a random local port (issue 10 item 3).
Its typed models parse every answer: the match view is the game's own ``<Game>MatchView``,
the legal actions are that game's command models and go back as the action bodies."""

from __future__ import annotations

import importlib
import random
import shutil
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from service import bootstrap
from tests.e2e.http_helpers import GAME_OPTIONS
from tests.support.game_settings import e2e_seats

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def arena_client(tmp_path_factory, python_client_code):
    """The generated package (``python_client_code``: openapi-python-client's output for
    the current ``openapi.yaml``, made once per session) imported as ``arena_client`` from
    a temporary folder."""
    folder = tmp_path_factory.mktemp("generated")
    shutil.copytree(python_client_code, folder / "arena_client")
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("arena_client")
    finally:
        sys.path.remove(str(folder))
        for name in [
            m for m in sys.modules if m == "arena_client" or m.startswith("arena_client.")
        ]:
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
def test_generated_python_client_plays_a_whole_match(
    arena_client, base_url, embedded_service, game
):
    bootstrap.install(embedded_service)
    from arena_client import AuthenticatedClient, Client, models
    from arena_client.api.events import stream_events
    from arena_client.api.matches import act, create_match, get_legal_actions, get_match

    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True, timeout=60)
    request = getattr(models, f"{_prefix(game)}CreateMatchRequest").from_dict(
        {
            "game": game,
            "options": GAME_OPTIONS[game],
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
    )
    created = create_match.sync(client=anonymous, body=request)
    assert isinstance(created, models.CreatedMatch), created
    seats = {
        s.seat: AuthenticatedClient(
            base_url=base_url, token=s.token, timeout=60, raise_on_unexpected_status=True
        )
        for s in created.seats
    }
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
            assert isinstance(legal, getattr(models, f"{_prefix(game)}LegalActions")), legal
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


def _round_trips(model: Any, raw: Any) -> bool:
    """Whether a parsed model gives back exactly the JSON it was parsed from."""
    return hasattr(model, "to_dict") and model.to_dict() == raw


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
def test_generated_python_client_round_trips_every_event_of_every_game(
    arena_client, base_url, embedded_service, game
):
    # Envelopes are unambiguous across games: each page names its game, so an event type
    # two games share (CardDiscarded) parses as its own game's and keeps all of its data.
    bootstrap.install(embedded_service)
    import requests
    from arena_client import AuthenticatedClient, Client, models
    from arena_client.api.events import get_events
    from arena_client.api.replays import export_match

    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True, timeout=60)
    body = {
        "game": game,
        "options": GAME_OPTIONS[game],
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (e2e_seats()[game] - 1),
    }
    created = requests.post(f"{base_url}/v1/matches", json=body, timeout=60).json()
    token = created["seats"][0]["token"]
    seat = AuthenticatedClient(
        base_url=base_url, token=token, timeout=60, raise_on_unexpected_status=True
    )
    rng = random.Random(game)
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(5000):
        legal = requests.get(
            f"{base_url}/v1/matches/{created['match_id']}/legal-actions?wait=5",
            headers=headers,
            timeout=60,
        ).json()
        if legal["status"] != "running":
            break
        if legal["actions"]:
            requests.post(
                f"{base_url}/v1/matches/{created['match_id']}/actions",
                json=rng.choice(legal["actions"]),
                headers=headers,
                timeout=60,
            )
    else:
        raise AssertionError("the match did not finish")
    expected_page = getattr(models, f"{_prefix(game)}EventPage")
    total = kept = 0
    for client, auth in ((anonymous, {}), (seat, headers)):
        raw = requests.get(
            f"{base_url}/v1/matches/{created['match_id']}/events?after=0", headers=auth, timeout=60
        ).json()
        page = get_events.sync(created["match_id"], client=client, after=0)
        assert isinstance(page, expected_page), type(page)
        for parsed, event in zip(page.events, raw["events"], strict=True):
            total += 1
            kept += _round_trips(parsed, event)
    raw_log = requests.get(f"{base_url}/v1/matches/{created['match_id']}/export", timeout=60).json()
    log = export_match.sync(created["match_id"], client=anonymous)
    assert isinstance(log, getattr(models, f"{_prefix(game)}MatchLog")), type(log)
    for parsed, event in zip(log.events, raw_log["events"], strict=True):
        total += 1
        kept += _round_trips(parsed, event)
    assert total > 50 and kept == total, f"{total - kept} of {total} events changed"
    assert log.to_dict() == raw_log
