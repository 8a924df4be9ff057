"""Counting a service's Redis round trips: every command sent on its own (``execute_command``,
which scripts' ``EVALSHA`` goes through too) and every pipeline execution counts as one.

``count_round_trips(service)`` wraps the service's event-store client (``redis.Redis``,
``RedisCluster`` or fakeredis) in place and returns a :class:`RoundTrips` whose ``calls``
lists what was sent (command name, or ``pipeline:<n commands>``); ``reset()`` starts a
new count. RQ's own client is not wrapped (turn jobs are another Redis).

``redis_fails_at(trip, lost_answer)`` makes the calling thread's round trip number ``trip``
fail once, before it is sent or after Redis ran it (its answer lost).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis


class RoundTrips:
    """The round trips seen since the last :meth:`reset` (see module docstring)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    @property
    def count(self) -> int:
        """How many round trips were counted."""
        return len(self.calls)

    def reset(self) -> None:
        """Forget what was counted."""
        self.calls.clear()


def count_round_trips(service: Any) -> RoundTrips:
    """Wrap ``service.redis`` (the store client every adapter shares) so that each command
    and each pipeline execution is recorded; returns the recorder."""
    client = service.redis
    seen = RoundTrips()
    execute_command = client.execute_command
    make_pipeline = client.pipeline

    def counted_command(*args, **kwargs):
        seen.calls.append(str(args[0]))
        return execute_command(*args, **kwargs)

    def counted_pipeline(*args, **kwargs):
        pipe = make_pipeline(*args, **kwargs)
        execute = pipe.execute

        def counted_execute(*e_args, **e_kwargs):
            queued = len(getattr(pipe, "command_stack", []) or [])
            seen.calls.append(f"pipeline:{queued}")
            return execute(*e_args, **e_kwargs)

        pipe.execute = counted_execute
        return pipe

    client.execute_command = counted_command
    client.pipeline = counted_pipeline
    return seen


@contextmanager
def redis_fails_at(trip: int, lost_answer: bool) -> Iterator[list[str]]:
    """Redis fails (``ConnectionError``) at round trip number ``trip`` (0-based: a command
    or a pipeline's execute) inside the block, once: before sending it, or, with
    ``lost_answer``, after Redis ran it. Yields the trips seen (command names). Only this
    thread's trips count and fail: other threads of the process (an xdist worker's embedded
    runtime from an e2e test, reconciling its own service) go through untouched."""
    seen: list[str] = []
    command, execute = redis.Redis.execute_command, redis.client.Pipeline.execute
    owner = threading.get_ident()

    def fault(name: str, run):
        if threading.get_ident() != owner:
            return run()
        seen.append(name)
        if len(seen) - 1 != trip:
            return run()
        if lost_answer:
            run()
        raise redis.exceptions.ConnectionError(f"Redis gone at trip {trip} ({name})")

    def patched_command(self, *args, **kwargs):
        return fault(str(args[0]), lambda: command(self, *args, **kwargs))

    def patched_execute(self, *args, **kwargs):
        return fault("PIPELINE", lambda: execute(self, *args, **kwargs))

    with pytest.MonkeyPatch.context() as m:
        m.setattr(redis.Redis, "execute_command", patched_command)
        m.setattr(redis.client.Pipeline, "execute", patched_execute)
        yield seen
