"""A gunicorn worker loads the game catalogue before it serves (``api.runtime.warm``, called
by ``api.gunicorn_config.post_worker_init``), not inside its first requests."""

from __future__ import annotations

import logging
import uuid
from types import SimpleNamespace

from api.app import create_app
from api.runtime import warm
from service.bootstrap import build_service
from service.config import Config


def _counting_games(app):
    """Count the catalogue fetches of ``app``'s service (``MatchService.games``)."""
    arena = app.extensions["arena"]
    calls = []
    plain = arena.service.games

    def games():
        calls.append(1)
        return plain()

    arena.service.games = games
    return arena, calls


def test_post_worker_init_loads_the_catalogue_before_the_first_request():
    import api.gunicorn_config as config

    app = create_app(build_service(Config(key_prefix=f"warm-{uuid.uuid4().hex[:8]}")))
    arena, calls = _counting_games(app)
    assert calls == []  # create_app alone loads no game
    worker = SimpleNamespace(
        wsgi=app, cfg=SimpleNamespace(threads=8), pid=1, log=logging.getLogger("warm-test")
    )
    config.post_worker_init(worker)
    assert calls == [1]
    assert arena.game("ai-100-human")["id"] == "ai-100-human"
    assert arena.command_schema("ai-100-human", "no-such-command") is None
    assert calls == [1]  # the requests find it loaded


def test_warm_leaves_another_wsgi_callable_alone():
    assert warm(lambda environ, start_response: []) is False
