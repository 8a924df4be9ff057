"""How the production tier's human clients play: one thread per human seat, each waiting on
its own decision with ``GET …/legal-actions?wait=`` (a long-poll longer than any socket
timeout of the store) and answering it with ``POST …/actions`` carrying the
``decision_id`` and ``Prefer: return=representation`` (the next decision comes back with
the answer: one request per move), as a client written from docs/CONTRACTS.md would."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Callable
from typing import Any

import requests

from tests.e2e.http_helpers import Http

#: Seconds one legal-actions long-poll waits (the documented maximum, api/schemas.py).
LONG_POLL_S = 30
#: 409 codes that mean "the match moved on between the read and the post": read again.
MOVED_ON = {"decision_moved", "not_your_turn", "version_conflict"}


def never_resign(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal action other than resigning (resigning only when nothing else is
    legal)."""
    choices = [a for a in actions if a.get("type") != "resign"] or actions
    return rng.choice(choices)


class HumanSeat(threading.Thread):
    """A thread playing one human seat to the end of its match (see module docstring).

    After :meth:`join`, ``moves`` counts its accepted commands, ``error`` holds what
    stopped it early (an unexpected answer: the test fails with it), ``waited`` counts
    long-polls that ended with nothing to do.
    """

    def __init__(
        self,
        base_url: str,
        match_id: str,
        seat: int,
        token: str,
        seed: Any,
        choose: Callable[[list[dict[str, Any]], random.Random], dict[str, Any]] = never_resign,
        max_moves: int = 5000,
    ):
        super().__init__(name=f"human-{match_id}-{seat}", daemon=True)
        self.http = Http(base_url)
        self.match_id, self.seat, self.token = match_id, seat, token
        self.rng = random.Random(seed)
        self.choose = choose
        self.max_moves = max_moves
        self.moves = 0
        self.waited = 0
        self.error: str | None = None

    def _legal(self) -> dict[str, Any]:
        status, _, legal = self.http.get(
            f"/v1/matches/{self.match_id}/legal-actions?wait={LONG_POLL_S}", self.token
        )
        if status != 200:
            raise AssertionError(f"legal-actions of seat {self.seat}: {status} {legal}")
        return legal

    def _finished(self) -> bool:
        status, _, view = self.http.get(f"/v1/matches/{self.match_id}", self.token)
        if status != 200:
            raise AssertionError(f"match view of seat {self.seat}: {status} {view}")
        return view["status"] != "running"

    def run(self) -> None:
        try:
            legal: dict[str, Any] | None = None
            while self.moves < self.max_moves:
                legal = legal or self._legal()
                if not legal["actions"]:
                    if self._finished():
                        return
                    self.waited += 1
                    legal = None
                    continue
                command = {
                    **self.choose(legal["actions"], self.rng),
                    "decision_id": legal["decision_id"],
                }
                status, _, answer = self.http.post(
                    f"/v1/matches/{self.match_id}/actions",
                    command,
                    self.token,
                    headers={
                        "Idempotency-Key": str(uuid.uuid4()),
                        "Prefer": "return=representation",
                    },
                )
                legal = None
                if status == 409 and answer.get("code") in MOVED_ON:
                    continue
                if status == 409 and answer.get("code") == "match_finished":
                    return
                if status != 200:
                    raise AssertionError(f"seat {self.seat} sent {command}: {status} {answer}")
                self.moves += 1
                if answer.get("status", "running") != "running":
                    return
                if isinstance(answer.get("legal_actions"), dict):
                    legal = answer["legal_actions"]
            raise AssertionError(
                f"seat {self.seat} made {self.moves} moves and the match did not end"
            )
        except Exception as error:  # noqa: BLE001 - reported to the test thread
            self.error = f"{type(error).__name__}: {error}"


def play_to_the_end(
    base_url: str, created: dict[str, Any], seed: Any, timeout_s: float = 900.0
) -> tuple[dict[str, Any], list[HumanSeat]]:
    """Every human seat of ``created`` (a ``POST /v1/matches`` answer) played by a
    :class:`HumanSeat` until the match ends (bots play in the workers); returns the final
    view and the seats. ``timeout_s`` is a generous bound for a stuck match (the test fails),
    never a duration asserted."""
    match_id = created["match_id"]
    seats = [
        HumanSeat(base_url, match_id, s["seat"], s["token"], f"{seed}-{s['seat']}")
        for s in created["seats"]
        if "token" in s
    ]
    for seat in seats:
        seat.start()
    for seat in seats:
        seat.join(timeout_s)
    stuck = [s.seat for s in seats if s.is_alive()]
    errors = [s.error for s in seats if s.error]
    assert not stuck and not errors, (stuck, errors)
    status, _, view = Http(base_url).get(f"/v1/matches/{match_id}")
    assert status == 200 and view["status"] == "finished", view
    return view, seats


def verified_export(http: Http, match_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The export of a finished match, POSTed back to ``/v1/replays``: asserts both answer
    200 and the log verifies; ``(log, report)``."""
    status, _, log = http.get(f"/v1/matches/{match_id}/export")
    assert status == 200, log
    status, _, report = http.post("/v1/replays", log)
    assert status == 200 and report["valid"] is True, report
    return log, report


#: a read timeout far beyond every wait here: a hang fails the test instead of blocking it
CLIENT_TIMEOUT_S = 120


class Background(threading.Thread):
    """Runs ``call`` on a thread; ``result`` or ``error`` afterwards."""

    def __init__(self, call: Callable[[], Any]):
        super().__init__(daemon=True)
        self.call = call
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.error = error

    def outcome(self) -> Any:
        self.join(CLIENT_TIMEOUT_S + 30)
        assert not self.is_alive(), "the request did not end"
        if self.error is not None:
            raise self.error
        return self.result


def read_stream(
    url: str, token: str, stop_after_version: int, kept_alive: threading.Event
) -> list[str]:
    """The SSE lines of ``url`` until the message of event ``stop_after_version`` (or the
    stream's end); a stream cut mid-answer ends the list with ``"<cut: ...>"``.
    ``kept_alive`` is set at the first keep-alive comment (or when the stream ends)."""
    lines: list[str] = []
    try:
        with requests.get(
            url,
            headers={"Authorization": f"Bearer {token}"},
            stream=True,
            timeout=(10, CLIENT_TIMEOUT_S),
        ) as response:
            assert response.status_code == 200, response.text
            try:
                for line in response.iter_lines(decode_unicode=True):
                    lines.append(line)
                    if line == ": keep-alive":
                        kept_alive.set()
                    if line == "" and f"id: {stop_after_version}" in lines:
                        break  # the end of that event's message
            except requests.RequestException as error:
                lines.append(f"<cut: {type(error).__name__}>")
    finally:
        kept_alive.set()
    return lines


def two_humans(http: Http) -> tuple[str, str, str, int]:
    """A Dead Apocalypse match of two human seats (one is to move, the other waits):
    ``(match_id, token of the seat to move, token of the waiting seat, version)``."""
    status, _, created = http.post(
        "/v1/matches", {"game": "dead-apocalypse", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    assert status == 201, created
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    status, _, view = http.get(f"/v1/matches/{created['match_id']}", tokens[0])
    assert status == 200 and len(view["pending"]) == 1, view
    mover = int(next(iter(view["pending"])))
    return created["match_id"], tokens[mover], tokens[1 - mover], view["version"]
