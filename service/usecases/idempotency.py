"""Idempotency-Key for the requests that create or claim something: create, fork, join and
rematch (``POST .../actions`` keeps its own records, :mod:`service.usecases.act`).

A client whose answer was lost repeats the request with the same key and gets the same
answer — the same match id and the same seat tokens — for the record's lifetime; the same
key with another body is 422 ``idempotency_key_reused``; nothing is created or claimed twice.

**Seat tokens are never stored.** The store keeps only token digests (:mod:`service.tokens`);
an answer kept for a repeat must not change that. A keyed request's tokens are therefore
*derived*, not drawn: ``token = HKDF-SHA256(IKM = the Idempotency-Key, salt = 16 random
bytes the server keeps in the record, info = scope and seat)`` (RFC 5869; 32 bytes,
base64url like :func:`service.tokens.new_token`). A repeat recomputes them from the key it
sends; the record holds the salt, the body's fingerprint and the answer without tokens.

**Who can fetch the tokens again** (the scope): only a client that sends the same key for
the same *scope* and the same body:

- ``join``: the match and seat (the URL) — record ``join:<seat>:<digest>`` in the match's
  ``idem`` hash, beside the actions' records (and under the match's hash tag);
- ``rematch``: the finished match and the bearer's seat, which its token proves — record
  ``rematch:<seat>:<digest>`` in the rematch's ``idem`` hash;
- ``create``: nothing but the key and the body; ``fork``: the forked match — a pointer key
  ``P:idem-new:{<digest>}`` (``{match id, salt, body fingerprint}``, written before the
  match is stored so a repeat racing the first request stores the very same match id) and
  the answer recorded in the new match's ``idem`` hash by the append that stores it.

``<digest>`` is a SHA-256 over the scope and the key, never the key itself, so neither a key
nor a token can be read out of Redis. Since the key is then the secret that gives the tokens
back, a key that keeps tokens without a bearer token (create, fork, join) must be at least
:data:`MIN_SECRET_KEY_LENGTH` characters (a random UUID is 36): a guessable key on a
guessable body would hand a seat to whoever guesses it. The rematch's key is scoped by the
bearer's seat and takes any 1-128 characters, as on actions.

**Lifetime.** Join and rematch records live in their match's ``idem`` hash: while it runs
and ``ARENA_IDEMPOTENCY_TTL_S`` after it ended, like the actions' records. A create or fork
pointer lives ``ARENA_IDEMPOTENCY_TTL_S`` from the first request (the match's own record
outlives it); a repeat after that creates another match.

**Crash safety.** The salt is recorded (``HSETNX`` / ``SET NX``) before the seat is claimed
or the match stored, so a repeat after a crash between the claim and the answer derives the
same token, recognises the claim as its own (the stored digest matches) and finishes the
job. The join's answer is recorded by the script that appends its ``SeatJoined``
(atomically); two racing repeats append it once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service import errors
from service.log.codec import canonical_json, dumps, loads, sha256_hex

#: Shortest Idempotency-Key accepted where the key alone keeps seat tokens (create, fork,
#: join): 16 characters (a random UUID has 36).
MIN_SECRET_KEY_LENGTH = 16
#: Bytes of the random salt of one record (RFC 5869 section 3.1: as long as the hash is
#: best; 16 random bytes already make every record's tokens independent).
SALT_BYTES = 16


def scope_digest(scope: tuple[Any, ...], key: str) -> str:
    """SHA-256 hex over ``scope`` (e.g. ``("join", match_id, seat)``) and ``key``: what a
    record is filed under (the key itself is never stored)."""
    return sha256_hex(canonical_json({"scope": list(scope), "key": key}))


def fingerprint(body: Mapping[str, Any]) -> str:
    """SHA-256 hex of the canonical JSON of a request's normalised body: a repeat with
    another body is 422 ``idempotency_key_reused``."""
    return sha256_hex(canonical_json(dict(body)))


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    """HKDF-SHA256 (RFC 5869) with an output length of 32 bytes: extract ``PRK =
    HMAC(salt, IKM)``, expand one block ``T(1) = HMAC(PRK, info || 0x01)``."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


def derive_token(key: str, salt_hex: str, scope: tuple[Any, ...], seat: int) -> str:
    """The seat token a keyed request gives ``seat``: :func:`hkdf_sha256` with the
    Idempotency-Key as input keying material, the record's salt and ``info`` the scope and
    seat; 43 base64url characters like :func:`service.tokens.new_token`."""
    info = canonical_json({"scope": list(scope), "seat": seat}).encode("utf-8")
    block = hkdf_sha256(key.encode("utf-8"), bytes.fromhex(salt_hex), info)
    return base64.urlsafe_b64encode(block).rstrip(b"=").decode("ascii")


def new_salt() -> str:
    """A fresh random salt (hex of :data:`SALT_BYTES` bytes)."""
    return secrets.token_hex(SALT_BYTES)


def check_secret_key(key: str) -> None:
    """Raise 400 ``validation_error`` (as :class:`errors.ServiceError`) when ``key`` is
    shorter than :data:`MIN_SECRET_KEY_LENGTH` on a request whose key alone keeps tokens."""
    if len(key) < MIN_SECRET_KEY_LENGTH:
        raise errors.ServiceError(
            "validation_error",
            400,
            f"An Idempotency-Key here keeps seat tokens: use at least {MIN_SECRET_KEY_LENGTH} "
            "random characters (a UUID).",
            errors={"Idempotency-Key": [f"At least {MIN_SECRET_KEY_LENGTH} characters here."]},
        )


@dataclass(frozen=True)
class Ticket:
    """One keyed request: its ``scope``, the ``key`` the client sent, the body's
    ``fingerprint``, the record's ``salt`` and (create/fork) the ``match_id`` to store."""

    scope: tuple[Any, ...]
    key: str
    fingerprint: str
    salt: str
    match_id: str | None = None

    def token(self, seat: int) -> str:
        """The seat's derived token (:func:`derive_token`)."""
        return derive_token(self.key, self.salt, self.scope, seat)

    def check(self, recorded_fingerprint: str | None) -> None:
        """Raise IdempotencyKeyReused unless the recorded body is this request's body."""
        if recorded_fingerprint != self.fingerprint:
            raise errors.IdempotencyKeyReused(what="body")


class IdempotencyStore:
    """The records of :mod:`service.usecases.idempotency` in Redis (``decode_responses=True``)."""

    def __init__(self, redis, keys, ttl_s: float):
        self.redis = redis
        self.keys = keys
        self.ttl_s = max(1, int(ttl_s))

    # -- create / fork: a pointer key, the answer in the new match's idem hash ----------
    def new_match_ticket(
        self, scope: tuple[Any, ...], key: str, body_fingerprint: str, candidate_id: str
    ) -> Ticket:
        """The ticket of a keyed create or fork: the pointer recorded now (``SET NX EX``,
        ``candidate_id`` as the match id) or the one an earlier request recorded.
        Raises IdempotencyKeyReused for another body."""
        digest = scope_digest(scope, key)
        name = self.keys.idem_new_match(digest)
        pointer = {"match_id": candidate_id, "salt": new_salt(), "fingerprint": body_fingerprint}
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(name, dumps(pointer), nx=True, ex=self.ttl_s)
        pipe.get(name)
        stored = loads(pipe.execute()[1])
        ticket = Ticket(scope, key, body_fingerprint, stored["salt"], stored["match_id"])
        ticket.check(stored["fingerprint"])
        return ticket

    def new_match_used(self, scope: tuple[Any, ...], key: str) -> bool:
        """True when a create or fork of ``scope`` recorded ``key`` (its pointer lives)."""
        return bool(self.redis.exists(self.keys.idem_new_match(scope_digest(scope, key))))

    @staticmethod
    def answer_field(ticket: Ticket) -> str:
        """The field of the new match's ``idem`` hash holding a create's or fork's answer."""
        return "new:" + scope_digest(ticket.scope, ticket.key)

    # -- join / rematch: records in the match's idem hash -------------------------------
    def seat_ticket(
        self,
        match_id: str,
        scope: tuple[Any, ...],
        seat: int,
        key: str,
        body_fingerprint: str,
        *,
        record_salt: bool = True,
    ) -> tuple[Ticket | None, Any]:
        """The ticket of a keyed join or rematch of ``seat`` and the recorded answer
        (``None`` when none yet). With ``record_salt`` the salt is recorded now (``HSETNX``)
        unless an earlier request recorded one; without it (a finished match: its ``idem``
        hash may be gone, and must not come back without a TTL) only read, and the ticket
        is ``None`` when nothing was recorded. Raises IdempotencyKeyReused for another body."""
        answer_field, salt_field = self.seat_fields(scope, seat, key)
        idem = self.keys.idem(match_id)
        pipe = self.redis.pipeline(transaction=False)
        if record_salt:
            pipe.hsetnx(
                idem, salt_field, dumps({"salt": new_salt(), "fingerprint": body_fingerprint})
            )
        pipe.hmget(idem, [salt_field, answer_field])
        salted, answer = pipe.execute()[-1]
        if salted is None:
            return None, None
        salted = loads(salted)
        ticket = Ticket(scope, key, body_fingerprint, salted["salt"])
        ticket.check(salted["fingerprint"])
        return ticket, None if answer is None else loads(answer)

    def seat_used(self, match_id: str, scope: tuple[Any, ...], seat: int, key: str) -> bool:
        """True when a join or rematch of ``seat`` recorded ``key`` (its salt field)."""
        _, salt_field = self.seat_fields(scope, seat, key)
        return bool(self.redis.hexists(self.keys.idem(match_id), salt_field))

    @staticmethod
    def seat_fields(scope: tuple[Any, ...], seat: int, key: str) -> tuple[str, str]:
        """``(answer field, salt field)`` of a join or rematch record: ``<kind>:<seat>:<digest>``
        and the same with ``:salt`` (a letter first: never a seat's action field
        ``<seat>:<key>``; no ``#``: kept until the hash expires, :mod:`service.store.compact_store`)."""
        base = f"{scope[0]}:{seat}:{scope_digest(scope, key)}"
        return base, base + ":salt"

    def record_answer(self, match_id: str, field: str, answer: Any) -> tuple[Any, bool]:
        """Record ``answer`` under ``field`` of the match's ``idem`` hash unless one is
        there (``HSETNX``); returns ``(the recorded answer, True when it was recorded by
        another request first)``."""
        idem = self.keys.idem(match_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hsetnx(idem, field, dumps(answer))
        pipe.hget(idem, field)
        added, recorded = pipe.execute()
        return loads(recorded), not added

    def recorded(self, match_id: str, field: str) -> Any:
        """The answer recorded under ``field`` of the match's ``idem`` hash, or ``None``."""
        raw = self.redis.hget(self.keys.idem(match_id), field)
        return None if raw is None else loads(raw)


def with_tokens(answer: Mapping[str, Any], ticket: Ticket) -> dict[str, Any]:
    """A recorded create/fork answer with its human seats' derived tokens put back (the
    seats listed in ``token_seats``) and ``replayed`` set by the caller."""
    out = {k: v for k, v in answer.items() if k != "token_seats"}
    holders = set(answer.get("token_seats") or [])
    out["seats"] = [
        {**s, "token": ticket.token(s["seat"])} if s["seat"] in holders else dict(s)
        for s in answer["seats"]
    ]
    return out
