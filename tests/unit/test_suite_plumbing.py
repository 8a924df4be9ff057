"""The suite's own plumbing (issue 19 item 7): which Redis database each pytest process
uses (tests/support/redis_env.py), the run saying so, the quick subset and the xdist groups
(tests/support/suite_plan.py), and the process walk of tests/support/reaper.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support import depth, reaper, redis_env, suite_plan
from tests.support.inner_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("ARENA_TEST_REDIS_URL", "ARENA_TEST_REDIS_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_without_xdist_the_given_url_is_used_as_it_is(clean_env):
    clean_env.setenv("ARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379/8")
    assert redis_env.configure_process(None) == ("redis://127.0.0.1:6379/8", "ARENA_TEST_REDIS_URL")
    assert "ARENA_TEST_REDIS_BASE_URL" not in os.environ


def test_xdist_worker_n_uses_the_base_database_plus_n_and_its_children_inherit_it(clean_env):
    clean_env.setenv("ARENA_TEST_REDIS_URL", "redis://:pw@10.0.0.5:6390/8?protocol=3")
    url, source = redis_env.configure_process("gw3")
    assert url == os.environ["ARENA_TEST_REDIS_URL"] == "redis://:pw@10.0.0.5:6390/11?protocol=3"
    assert "gw3" in source
    # a pytest a test of that worker starts keeps the worker's database (even as a worker)
    assert redis_env.configure_process(None)[0] == url
    assert redis_env.configure_process("gw0")[0] == url


def test_without_a_url_the_default_database_is_used_and_said(clean_env):
    url, source = redis_env.configure_process("gw1")
    assert url == redis_env.with_db(
        redis_env.DEFAULT_URL, redis_env.db_of(redis_env.DEFAULT_URL) + 1
    )
    assert source.startswith("default")


def test_a_worker_past_the_last_database_is_refused(clean_env):
    clean_env.setenv("ARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    with pytest.raises(ValueError, match="database 16"):
        redis_env.configure_process("gw2")


def _item(nodeid: str, fixtures=(), params=None, scopes=None):
    defs = {name: [SimpleNamespace(scope=scope)] for name, scope in (scopes or {}).items()}
    return SimpleNamespace(
        nodeid=nodeid,
        path=ROOT / nodeid.split("::")[0],
        fixturenames=list(fixtures),
        callspec=SimpleNamespace(params=params or {}),
        _fixtureinfo=SimpleNamespace(name2fixturedefs=defs),
        get_closest_marker=lambda name: None,
    )


def test_cluster_browser_and_module_fixture_tests_share_a_worker_and_the_rest_spread():
    group = suite_plan.xdist_group
    assert (
        group(_item("tests/e2e/test_x.py::t[cluster]", ["store_kind"], {"store_kind": "cluster"}))
        == "redis-cluster"
    )
    assert (
        group(
            _item(
                "tests/e2e/test_x.py::t[standalone]", ["store_kind"], {"store_kind": "standalone"}
            )
        )
        is None
    )
    assert group(_item("tests/e2e/browser/test_b.py::t", ["page", "browser"])) == "browser"
    assert (
        group(_item("tests/e2e/test_m.py::t", ["played"], scopes={"played": "module"}))
        == "tests/e2e/test_m.py"
    )
    assert (
        group(_item("tests/unit/test_u.py::t", ["tmp_path"], scopes={"tmp_path": "function"}))
        is None
    )


def test_a_fixture_taken_at_run_time_by_name_groups_its_test_too():
    group = suite_plan.xdist_group
    # ``request.getfixturevalue(stack)`` with the stack a parameter (tests/production)
    for stack, expected in (("production", "production"), ("production_cluster", "redis-cluster")):
        item = _item(
            f"tests/production/test_w.py::t[{stack}]", ["request", "stack"], {"stack": stack}
        )
        assert group(item) == expected
    # a module-scoped server of the test's own module, asked for by a name the test builds
    item = _item("tests/e2e/test_w.py::t[gunicorn]", ["request", "server"], {"server": "gunicorn"})
    assert group(item) is None
    item.module = SimpleNamespace(
        gunicorn_port=SimpleNamespace(_fixture_function_marker=SimpleNamespace(scope="module")),
        helper=len,
    )
    assert group(item) == "tests/e2e/test_w.py"
    # without ``request`` a parameter is only a value
    assert (
        group(_item("tests/e2e/test_v.py::t[production]", ["what"], {"what": "production"})) is None
    )


def test_the_longest_work_units_are_handed_out_first():
    cost = suite_plan.cost
    browser = cost("browser", ["tests/e2e/browser/test_a.py::t"])
    killing = (
        "tests/integration/test_faults.py::"
        "test_killing_workers_at_random_loses_no_turn_and_plays_no_decision_twice"
    )
    faults = cost(killing, [killing])
    module = cost("tests/unit/test_m.py", [f"tests/unit/test_m.py::t{n}" for n in range(7)])
    assert (
        browser
        > faults
        > module
        == 7
        > cost("tests/unit/test_u.py::t", ["tests/unit/test_u.py::t"])
    )
    # the longest matching prefix counts
    dead = "tests/e2e/test_cli_play.py::test_interactive_dead_apocalypse_to_the_result"
    assert (
        cost("x", [dead + "[x]"])
        == suite_plan.LONG[dead]
        != suite_plan.LONG["tests/e2e/test_cli_play.py"]
    )


def test_the_deep_profile_multiplies_the_example_counts_and_a_wrong_name_is_refused(monkeypatch):
    monkeypatch.delenv(depth.PROFILE_ENV, raising=False)
    assert depth.examples(8) == 8 and not depth.deep()
    monkeypatch.setenv(depth.PROFILE_ENV, "deep")
    assert depth.examples(8) == 8 * depth.DEEP_FACTOR > 8 and depth.deep()
    monkeypatch.setenv(depth.PROFILE_ENV, "deeep")
    with pytest.raises(ValueError, match="deeep"):
        depth.examples(8)


def test_the_quick_subset_is_unit_tests_without_the_slow_ones():
    assert suite_plan.is_quick(_item("tests/unit/test_codec.py::test_a"))
    assert not suite_plan.is_quick(_item("tests/unit/test_cli_play.py::test_b"))
    assert not suite_plan.is_quick(_item("tests/integration/test_workers.py::test_c"))
    assert not suite_plan.is_quick(_item("tests/e2e/test_api_errors.py::test_d"))


def test_descendants_finds_a_grandchild_whose_parent_exited():
    assert reaper.become_subreaper() or sys.platform != "linux"
    out = subprocess.run(
        ["bash", "-c", "sleep 300 >/dev/null 2>&1 & echo $!"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    orphan = int(out)
    try:
        assert orphan in reaper.descendants()
    finally:
        os.kill(orphan, 9)
        os.waitpid(orphan, 0)


def test_a_run_without_arena_test_redis_url_says_which_redis_and_database_it_uses(tmp_path):
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
    run = run_pytest(
        tmp_path,
        "-q",
        "-p",
        "tests.conftest",
        "test_one.py",
        drop=("ARENA_TEST_REDIS_URL", "ARENA_TEST_REDIS_BASE_URL"),
    )
    assert f"test Redis: {redis_env.DEFAULT_URL} (default" in run.stdout


GROUPED = """
import os
import pytest


@pytest.fixture(scope="module")
def made_once():
    return os.getpid()


@pytest.mark.parametrize("n", range(6))
def test_shares_the_module_fixture(made_once, n):
    print("WORKER", os.environ["PYTEST_XDIST_WORKER"])


@pytest.mark.parametrize("n", range(6))
def test_free(n):
    pass
"""


def test_under_xdist_the_tests_of_a_module_fixture_run_on_one_worker(tmp_path):
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    run = run_pytest(
        tmp_path, "-p", "tests.conftest", "-n", "2", "--dist", "loadgroup", "-v", "test_grouped.py"
    )
    workers = {
        line.split()[0]
        for line in run.stdout.splitlines()
        if "PASSED" in line and "test_shares_the_module_fixture" in line
    }
    assert len(workers) == 1, run.stdout
    assert "12 passed" in run.stdout
