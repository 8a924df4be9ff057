"""Counting a service's Redis round trips: every command sent on its own (``execute_command``,
which scripts' ``EVALSHA`` goes through too) and every pipeline execution counts as one.

``count_round_trips(service)`` wraps the service's event-store client (``redis.Redis``,
``RedisCluster`` or fakeredis) in place and returns a :class:`RoundTrips` whose ``calls``
lists what was sent (command name, or ``pipeline:<n commands>``); ``reset()`` starts a
new count. RQ's own client is not wrapped (turn jobs are another Redis).
"""

from __future__ import annotations

from typing import Any


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
