"""``arena serve``: run the HTTP API.

- ``REDIS_URL`` unset: embedded mode. One process holds an in-memory Redis (fakeredis),
  the API, an RQ worker thread and the scheduler (``workers.embedded``); the API is
  served by werkzeug's threaded server (long-polls need one thread per waiting client).
- ``REDIS_URL`` set: the API alone under gunicorn (``api.app:create_app()``); bots and
  turn timeouts need ``arena worker`` running against the same Redis.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from typing import Any

import click
from werkzeug.serving import BaseWSGIServer, make_server

from api.wire_errors import ProblemRequestHandler


class QuietRequestHandler(ProblemRequestHandler):
    """The embedded server's handler without the per-request access log line (``arena play``)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Log nothing for a served request."""


class EmbeddedServer:
    """The embedded stack (fakeredis + API + RQ worker + scheduler) serving HTTP on a thread.

    ``port=0`` picks a free port; :attr:`url` tells which. ``access_log=False`` drops the
    per-request log lines. Use as a context manager or call :meth:`close`. Raises
    ``OSError`` when the port is taken.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, access_log: bool = True):
        from service.bootstrap import build_service
        from service.config import Config
        from workers.embedded import start_embedded

        # Always the in-process fakeredis, even when REDIS_URL is set (``arena play``
        # without --url); other settings (prefix, snapshot period, ...) from the env.
        config = Config.from_env().with_(redis_url=None, rq_redis_url=None)
        self.embedded = start_embedded(build_service(config))
        try:
            from api.app import create_app

            self.app = create_app(self.embedded.service)
            self.http: BaseWSGIServer = make_server(
                host,
                port,
                self.app,
                threaded=True,
                request_handler=ProblemRequestHandler if access_log else QuietRequestHandler,
            )
        except BaseException:
            self.embedded.stop()
            raise
        self.thread = threading.Thread(
            target=self.http.serve_forever, name="arena-http", daemon=True
        )

    @property
    def url(self) -> str:
        """``http://host:port`` the API answers on."""
        return f"http://{self.http.host}:{self.http.server_port}"

    def start(self) -> EmbeddedServer:
        """Start serving HTTP on a daemon thread; returns ``self``."""
        self.thread.start()
        return self

    def close(self) -> None:
        """Stop the HTTP server, then the worker and scheduler threads."""
        self.http.shutdown()
        self.http.server_close()
        self.embedded.stop()

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()


#: gunicorn worker class of every deployment (Dockerfile, compose.yaml, ``arena serve``)
WORKER_CLASS = "api.wire_errors.ProblemThreadWorker"


def gunicorn_application(bind: str, workers: int, threads: int) -> Any:
    """A gunicorn application serving ``api.app:create_app()`` on ``bind`` (``host:port``).

    Workers are ``api.wire_errors.ProblemThreadWorker`` (gunicorn's ``gthread`` worker, so
    long-polls hold a thread, not a process, answering its own request errors — 414, 431,
    400 — as problem+json); the other settings and hooks are :mod:`api.gunicorn_config`'s
    (access log, log format, prometheus_client's multi-process directory).
    """
    from gunicorn.app.base import BaseApplication

    class ArenaApplication(BaseApplication):
        """Gunicorn configured from Python instead of a config file."""

        def load_config(self) -> None:
            from api.gunicorn_config import SETTINGS

            for name, value in SETTINGS.items():
                self.cfg.set(name, value)
            self.cfg.set("bind", bind)
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)

        def load(self) -> Any:
            from api.app import create_app

            return create_app()

    return ArenaApplication()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8000, show_default=True, type=int, help="TCP port.")
@click.option(
    "--workers",
    default=2,
    show_default=True,
    type=click.IntRange(1),
    help="Gunicorn worker processes (REDIS_URL mode only).",
)
@click.option(
    "--threads",
    default=48,
    show_default=True,
    type=click.IntRange(1),
    help="Threads per gunicorn worker (REDIS_URL mode only).",
)
def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Serve the HTTP API (embedded in-memory Redis when REDIS_URL is unset)."""
    from api.settings import check_or_exit
    from service.logs import configure

    check_or_exit()  # every variable parsed before serving: a bad one exits 1, one line
    title = click.style("Apocalypse Arena", fg="green", bold=True)
    if not os.environ.get("REDIS_URL"):
        if importlib.util.find_spec("fakeredis") is None:
            raise click.ClickException(
                "the embedded mode (REDIS_URL unset) needs the cli "
                "extra: pip install 'apocalypse-arena[cli]'"
            )
        configure()
        server = EmbeddedServer(host, port, access_log=False)  # api.request_id logs them
        click.echo(
            f"{title} (embedded: in-memory Redis, API, RQ worker and scheduler in "
            f"this process) on {click.style(server.url, bold=True)}",
            err=True,
        )
        click.echo("State is lost when this process exits. Ctrl-C to stop.", err=True)
        try:
            server.http.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
        return
    click.echo(
        f"{title} API on {click.style(f'http://{host}:{port}', bold=True)} "
        f"(Redis {redacted_url(os.environ['REDIS_URL'])}). Bots and turn timeouts need "
        f"{click.style('arena worker', bold=True)} running against the same Redis.",
        err=True,
    )
    gunicorn_application(f"{host}:{port}", workers, threads).run()


def redacted_url(url: str) -> str:
    """``url`` without its password (``redis://:secret@h`` -> ``redis://:***@h``)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@", 1)
    return url
