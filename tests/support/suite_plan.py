"""How the suite is cut: the ``--quick`` subset and the pytest-xdist groups.

The quick subset (``./scripts/test --quick``, or ``pytest --quick``) is the inner loop:
``tests/unit`` without the tests that start subprocesses or play many whole matches
(:data:`SLOW`, or a test marked ``@pytest.mark.slow``). Integration, e2e, browser and
production tests are never quick: they need Redis, PostgreSQL, servers or Chromium.

Under ``--dist loadgroup`` (``./scripts/test`` uses it) tests are spread one by one over
the workers, except those :func:`xdist_group` puts in a group, which run on one worker
together:

- ``redis-cluster``: tests on the session's Redis Cluster (``redis_cluster`` fixture, or
  ``store_kind`` ``"cluster"``): one cluster (six redis-servers) for the run, not one per
  worker;
- ``production``: tests on the production tier's standalone stack (``production``
  fixture, tests/production: gunicorn and worker processes, started once);
- ``browser``: the Chromium tests (one Chromium and one web server);
- ``typescript``: tests using the generated TypeScript tools (one ``npm`` generation);
- a module's own name: tests using a module- or class-scoped fixture (a gunicorn, a played
  match) run where that fixture lives, so it is made once.

A test module can still name its own group with ``@pytest.mark.xdist_group("name")``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "tests" / "unit"

#: node-id prefixes of unit tests left out of ``--quick`` (each > ~2 s on a busy 2-core
#: machine: subprocesses, benchmark scripts, many whole matches). A stale entry only makes
#: the quick subset slower; ``@pytest.mark.slow`` in a test module does the same.
SLOW: tuple[str, ...] = (
    "tests/unit/test_cli_play.py",
    "tests/unit/test_cli_benchmarks.py",
    "tests/unit/test_cli_serve.py::test_serve_without_redis_url_is_self_contained",
    "tests/unit/test_openapi_build.py::test_check_mode_fails_on_a_hand_edit",
    "tests/unit/test_licence.py",
    "tests/unit/test_service_turns.py::test_embedded_runtime_runs_worker_scheduler_and_reconcile",
    "tests/unit/test_service_events_views.py::test_every_seat_state_is_the_view_right_after",
    "tests/unit/ai_100_human/test_scoring_added.py",
    "tests/unit/ai_100_human/test_fast_legality.py",
    "tests/unit/ai_100_human/test_scoring_exactness",
    "tests/unit/ai_100_human/test_random_playout.py",
    "tests/unit/ai_100_human/test_bench_rollouts.py",
    "tests/unit/ai_100_human/test_expert_bot.py",
    "tests/unit/aipokalypse/test_playout.py",
    "tests/unit/aipokalypse/test_hunter.py",
    "tests/unit/aipokalypse/test_toma_playout.py",
    "tests/unit/aipokalypse/test_sim.py",
    "tests/unit/aipokalypse/test_choice_redaction.py",
    "tests/unit/dead_apocalypse/test_random_playout.py",
    "tests/unit/test_views_share_nothing_with_the_fold.py",
    "tests/unit/test_cli_replay.py",
    "tests/unit/test_suite_plumbing.py::test_a_run_without_arena_test_redis_url",
    "tests/unit/test_suite_plumbing.py::test_under_xdist_the_tests_of_a_module_fixture",
)


def is_quick(item: pytest.Item) -> bool:
    """True when ``item`` belongs to the quick subset (see module docstring)."""
    path = Path(str(item.path))
    if UNIT not in path.parents or item.get_closest_marker("slow"):
        return False
    return not item.nodeid.startswith(SLOW)


def _module_fixture_scopes(item: pytest.Item) -> set[str]:
    """Scopes of the fixtures the module of ``item`` defines itself (empty when unknown)."""
    module = getattr(item, "module", None)
    markers = (
        getattr(value, "_fixture_function_marker", None)
        for value in (vars(module) if module is not None else {}).values()
    )
    return {marker.scope for marker in markers if isinstance(getattr(marker, "scope", None), str)}


def xdist_group(item: pytest.Item) -> str | None:
    """The xdist group of ``item`` (see module docstring), or None (any worker)."""
    names = set(getattr(item, "fixturenames", ()))
    params = getattr(getattr(item, "callspec", None), "params", {})
    # a parameter naming a fixture the test takes at run time
    # (``request.getfixturevalue(stack)``) counts as that fixture
    if "request" in names:
        names |= {value for value in params.values() if isinstance(value, str)}
    if names & {"redis_cluster", "production_cluster"} or params.get("store_kind") == "cluster":
        return "redis-cluster"
    # Chromium before the production stack: every Playwright test shares the browser worker's
    # one Chromium (a production-tier browser test on the production worker once met a running
    # asyncio loop there and could not start Playwright's sync API)
    if names & {"browser", "page", "web_server", "chromium_path"}:
        return "browser"
    if "production" in names:
        return "production"
    if "typescript_tools" in names:
        return "typescript"
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        if defs and defs[-1].scope in ("module", "class", "package"):
            return item.nodeid.split("::")[0]
    # ``request.getfixturevalue(...)`` of a module-scoped fixture of the test's own module
    # (a server started once for the module, asked for by a name the test builds)
    if "request" in names and _module_fixture_scopes(item) & {"module", "class", "package"}:
        return item.nodeid.split("::")[0]
    return None


# --- grouping under xdist -------------------------------------------------------------
# pytest-xdist's own ``--dist loadgroup`` passes a test's group to the controller inside
# its node id, which pytest 9.2 no longer lets a plugin change (pytest-xdist issue 1386:
# the groups are then silently ignored). The workers here write their groups to a file
# instead, and the controller's scheduler (:func:`make_scheduler`) reads it.

GROUPS_DIR_ENV = "ARENA_XDIST_GROUPS_DIR"


def start_controller() -> str:
    """Controller side: a fresh directory for the workers' group files, named in the
    environment the workers inherit; returns it."""
    import tempfile

    directory = tempfile.mkdtemp(prefix="arena-xdist-groups-")
    os.environ[GROUPS_DIR_ENV] = directory
    return directory


def stop_controller() -> None:
    """Controller side: remove the group files' directory."""
    import shutil

    directory = os.environ.pop(GROUPS_DIR_ENV, None)
    if directory:
        shutil.rmtree(directory, ignore_errors=True)


def write_groups(worker_id: str, groups: dict[str, str]) -> None:
    """Worker side: record ``{node id: group}`` for the controller (atomically)."""
    directory = os.environ.get(GROUPS_DIR_ENV)
    if not directory or not os.path.isdir(directory):
        return
    target = Path(directory) / f"{worker_id}.json"
    partial = target.with_suffix(".partial")
    partial.write_text(json.dumps(groups), encoding="utf-8")
    partial.replace(target)


def read_groups() -> dict[str, str]:
    """Controller side: the groups one worker wrote (every worker collects the same)."""
    directory = os.environ.get(GROUPS_DIR_ENV)
    for path in sorted(Path(directory).glob("*.json")) if directory else ():
        return json.loads(path.read_text(encoding="utf-8"))
    return {}


#: The long work units and their seconds, measured on a busy 2-core machine
#: (docs/testing.md; only their order matters): a group's name -> the whole group, a node-id
#: prefix -> each test under it. :func:`make_scheduler` hands the work units out longest
#: first, so that no long unit starts last while the other worker idles (xdist alone hands
#: out the groups with the most tests first, then the rest in collection order). A stale
#: entry only changes the order; any other test counts 1.
LONG: dict[str, float] = {
    "browser": 380,
    "redis-cluster": 200,
    "typescript": 135,
    "production": 90,
    "tests/e2e/test_openapi_contract.py::test_app_honours_its_openapi_contract[positive-ai": 130,
    "tests/e2e/test_openapi_contract.py::test_app_honours_its_openapi_contract[negative-ai": 60,
    "tests/integration/test_faults.py": 64,
    "tests/integration/test_archive.py::test_sigkilling": 60,
    "tests/integration/test_soak_census.py": 60,
    "tests/e2e/test_api_aipokalypse.py::test_the_api_honours": 40,
    "tests/e2e/test_cli_play.py": 14,
    "tests/e2e/test_cli_play.py::test_interactive_dead": 36,
    "tests/integration/test_cluster_failover.py": 30,
    "tests/integration/test_suite_cleanup.py": 23,
    "tests/integration/test_reclaim_outage.py": 23,
    "tests/production/test_outage_and_cli.py": 22,
    "tests/unit/test_types.py::test_mypy_reports_no_error": 20,
    "tests/unit/ai_100_human/test_scoring_added.py": 55,
    "tests/unit/ai_100_human/test_fast_legality.py": 55,
    "tests/unit/ai_100_human/test_bench_rollouts.py": 34,
    "tests/unit/ai_100_human/test_random_playout.py::test_random_matches": 27,
    "tests/unit/ai_100_human/test_scoring_exactness": 20,
    "tests/unit/aipokalypse/test_choice_redaction.py::test_every_choice": 30,
    "tests/unit/aipokalypse/test_expert.py::test_an_expert_match": 32,
    "tests/unit/ai_100_human/test_expert_bot.py": 10,
    "tests/e2e/test_contract_e2e.py::test_every_answer_of_a_whole_match": 15,
    "tests/e2e/test_api_hidden_information.py": 15,
    "tests/integration/test_worker_stop.py": 12,
    "tests/e2e/test_proxy_nginx.py": 12,
    "tests/e2e/test_sdk_python.py": 11,
    "tests/e2e/test_api_aipokalypse_modes.py": 8,
    "tests/e2e/test_openapi_payloads.py": 7,
    "tests/e2e/test_generated_python_client.py": 6,
    "tests/integration/test_workers.py": 5,
    "tests/e2e/test_verify_cross_language.py": 3,
}


def cost(scope: str, nodeids) -> float:
    """Estimated seconds of the work unit ``scope`` (its tests' ``nodeids``): :data:`LONG`
    of a group, else the sum over its tests of the longest matching prefix's entry (1 for
    a test no entry matches)."""
    if scope in LONG:
        return LONG[scope]
    total = 0.0
    for nodeid in nodeids:
        prefixes = [prefix for prefix in LONG if nodeid.startswith(prefix)]
        total += LONG[max(prefixes, key=len)] if prefixes else 1.0
    return total


def make_scheduler(config: pytest.Config, log):
    """xdist's scope scheduler with the scopes of :func:`xdist_group`: a grouped test's
    scope is its group, any other test is a scope of its own (as ``--dist loadgroup``);
    the longest work units (:func:`cost`) are handed out first."""
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        groups: dict[str, str] | None = None
        ordered = False

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:  # once, before the first unit is handed out
                self.ordered = True
                units = sorted(self.workqueue.items(), key=lambda unit: -cost(*unit))
                self.workqueue.clear()
                self.workqueue.update(units)
            super()._assign_work_unit(node)

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:
                self.groups = read_groups()
            if nodeid in self.groups:
                return self.groups[nodeid]
            if nodeid.rfind("@") > nodeid.rfind("]"):  # xdist's own group suffix
                return nodeid.split("@")[-1]
            return nodeid

    return GroupScheduling(config, log)
