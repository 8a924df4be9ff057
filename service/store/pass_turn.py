"""A short Redis lease that lets one process of a deployment take a periodic pass (the
shared reconcile passes, :class:`service.upkeep.reconcile.SharedPasses`)."""

from __future__ import annotations

import os
import socket

from service.store.store_errors import RedisError


class PassTurn:
    """A deployment-wide turn at a periodic pass: :meth:`take` is ``SET key NX PX`` with a
    TTL of ``every_s`` seconds, so of all the workers asking, one gets each turn and the
    next turn opens ``every_s`` after it was taken (whoever holds it may die: the key just
    expires). No release on success: the TTL *is* the period.

    Args:
        connection: the queue Redis (a client that fails fast: the caller's loop retries).
        key: ``Keys.pass_turn(kind)``.
        every_s: seconds between two passes of the deployment (``> 0``).
    """

    def __init__(self, connection, key: str, every_s: float):
        if every_s <= 0:
            raise ValueError("every_s must be > 0")
        self.connection = connection
        self.key = key
        self.every_s = every_s
        self.value = f"{socket.gethostname()}:{os.getpid()}"

    def take(self) -> bool:
        """True when this process got the turn (nobody took it in the last ``every_s``).
        Raises the client's Redis errors."""
        return bool(
            self.connection.set(self.key, self.value, nx=True, px=max(1, int(self.every_s * 1000)))
        )

    def give_back(self) -> None:
        """Open the turn again now (a pass that failed: the next asker runs it); a Redis
        error is ignored (the turn then opens when it expires)."""
        try:
            self.connection.delete(self.key)
        except RedisError:
            pass
