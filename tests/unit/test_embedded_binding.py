"""An embedded runtime's worker runs its jobs on its own service, whatever service the
process installed (:func:`service.bootstrap.bound`): the suite's session-long embedded
runtime ran jobs on a unit test's service, and after a ``reset`` installed one built from
the environment over it, so that test's bot turns found no match (a red CI run)."""

from __future__ import annotations

import threading
import time

from service import bootstrap
from workers.embedded import EmbeddedRuntime

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]


def test_a_bound_thread_gets_its_own_service_and_others_the_installed_one():
    mine, installed = object(), object()
    bootstrap.install(installed)  # type: ignore[arg-type]
    seen = []

    def run() -> None:
        with bootstrap.bound(mine):  # type: ignore[arg-type]
            seen.append(bootstrap.get_service())
        seen.append(bootstrap.get_service())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [mine, installed] and bootstrap.get_service() is installed
    bootstrap.reset()


def test_an_embedded_runtime_plays_its_matches_while_another_service_is_installed(
    service, fake_redis_server
):
    runtime = EmbeddedRuntime(service, interval_s=0.2, reconcile_s=60).start()
    try:
        bootstrap.install(object())  # type: ignore[arg-type]  # a unit test's, elsewhere
        mid = service.create_match("race", BOTS, {"target": 6})["match_id"]
        deadline = time.monotonic() + 120  # a generous bound, not a timing assertion
        while service.match_view(mid, None)["status"] != "finished":
            assert time.monotonic() < deadline, "the runtime's worker never played the match"
            time.sleep(0.05)
    finally:
        runtime.stop()
        bootstrap.reset()
