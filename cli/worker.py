"""``arena worker``: a real RQ worker (with the scheduler) for bot turns and turn timeouts.

Jobs read and append match events on ``REDIS_URL`` (required); the queue and scheduler
live on ``RQ_REDIS_URL`` (default ``REDIS_URL``): RQ needs a standalone Redis, not a
Cluster (DESIGN.md "Scale"). The job functions and queue names are ``workers/``'s.
SIGTERM (``docker stop``) or SIGINT ends it with status 0: at once when idle, after its
running turn when busy (:mod:`workers.runner`).
"""

from __future__ import annotations

import os
import sys

import click


@click.command("worker")
@click.option("--burst", is_flag=True, help="Exit once the queue is empty.")
@click.option("--name", default=None, help="RQ worker name (default: random).")
@click.option(
    "--fork",
    is_flag=True,
    help="Fork a work horse per job (RQ Worker) instead of running jobs in-process.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Health check: exit 0 when this host's worker beat recently and reached "
    "Redis (its ARENA_WORKER_HEARTBEAT_FILE), else 1. Starts nothing.",
)
def worker(burst: bool, name: str | None, fork: bool, check: bool) -> None:
    """Run an RQ worker with its scheduler on RQ_REDIS_URL / REDIS_URL."""
    from service.config import Config
    from service.settings import or_exit

    # every variable a worker reads, parsed before it starts: a bad one exits 1, one line
    config = or_exit(lambda: Config.from_env().check())
    if check:
        from workers.rq_runtime import check_heartbeat

        healthy, reason = check_heartbeat(
            config.heartbeat_file, max(5.0, 3 * config.worker_lease_s)
        )
        click.echo(reason)
        sys.exit(0 if healthy else 1)
    if not os.environ.get("REDIS_URL"):
        raise click.UsageError(
            "set REDIS_URL: `arena worker` needs the real Redis the API "
            "uses (`arena serve` without REDIS_URL runs its own worker)."
        )
    from cli.serve import redacted_url
    from service.logs import configure
    from workers.runner import run_worker

    configure()  # ARENA_LOG_FORMAT / ARENA_LOG_LEVEL (RQ's loggers propagate to it)

    queue_url = os.environ.get("RQ_REDIS_URL") or os.environ["REDIS_URL"]
    click.echo(
        f"{click.style('arena worker', fg='green', bold=True)} on queue Redis "
        f"{redacted_url(queue_url)}{' (burst)' if burst else ''}",
        err=True,
    )
    run_worker(burst=burst, name=name, fork=fork)
