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
- ``python-client``: tests using the Python client generated from ``openapi.yaml``
  (``python_client_code``: one openapi-python-client run);
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
    if "python_client_code" in names:
        return "python-client"
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
#: prefix -> each test under it. Session 10: setup + call + teardown of the slowest 120 of
#: ``./scripts/test --durations=120`` (3 workers, load average 8-23 from other sessions; the
#: browser group without Chromium's installation, which .ci/run does before pytest), the
#: tests made cheaper since then scaled by what they saved run alone.
#: :func:`make_scheduler` hands the work units out longest first, so that no long unit
#: starts last while the other workers idle (xdist alone hands out the groups with the most
#: tests first, then the rest in collection order). A stale entry only changes the order;
#: any other test counts 1. Session 11 (run alone, scaled to the busy machine by about 3x,
#: as the session-10 entries compare with runs alone): the browser group without 47 s of the
#: rate-limit test's wait (30 requests per 15 s, was a minute), the python-client group
#: (one client generation, the examples against random bots: 60 s alone at load 3-9,
#: was two modules of 203 + 114), the A.I.Pokalypse hidden-information match with the
#: leak checker's one walk (3 s less CPU).
LONG: dict[str, float] = {
    "browser": 300,
    "typescript": 250,
    (
        "tests/e2e/test_openapi_contract.py::"
        "test_app_honours_its_openapi_contract[negative-ai-100-human]"
    ): 175,
    "python-client": 180,
    "redis-cluster": 200,
    (
        "tests/e2e/test_api_hidden_information.py::"
        "test_no_answer_to_a_seat_or_spectator_shows_another_seats_secrets[aipokalypse]"
    ): 180,
    (
        "tests/e2e/test_openapi_contract.py::"
        "test_app_honours_its_openapi_contract[positive-ai-100-human]"
    ): 120,
    "production": 90,
    "tests/unit/test_types.py::test_mypy_reports_no_error": 76,
    (
        "tests/unit/test_cli_benchmarks.py::"
        "test_bench_domain_calls_compares_a_git_revision_with_this_tree"
    ): 75,
    (
        "tests/integration/test_soak_census.py::"
        "test_after_a_soak_every_key_is_accounted_for_and_finished_matches_are_compacted"
    ): 75,
    "tests/unit/aipokalypse/test_playout.py::test_decide_accepts_exactly_the_legal_actions": 68,
    (
        "tests/integration/test_faults.py::"
        "test_a_redis_outage_answers_503_with_retry_after_and_every_match_finishes_after_it"
    ): 66,
    (
        "tests/unit/test_analysis.py::"
        "test_the_same_log_budget_and_seed_give_the_same_analysis[dead-apocalypse]"
    ): 65,
    (
        "tests/integration/test_faults.py::"
        "test_killing_workers_at_random_loses_no_turn_and_plays_no_decision_twice"
    ): 65,
    "tests/unit/ai_100_human/test_scoring_added.py::test_placements_equal_the_public_scorers": 64,
    "tests/production/test_outage_and_cli.py": 60,
    (
        "tests/unit/dead_apocalypse/test_random_playout.py::"
        "test_bot_matches_finish_and_every_projection_agrees"
    ): 59,
    (
        "tests/e2e/test_contract_e2e.py::"
        "test_every_answer_of_a_whole_match_matches_the_contract[ai-100-human-2-]"
    ): 58,
    (
        "tests/integration/test_archive.py::"
        "test_sigkilling_a_mover_subprocess_again_and_again_loses_and_duplicates_nothing"
    ): 55,
    (
        "tests/unit/aipokalypse/test_expert.py::"
        "test_an_expert_match_plays_legal_commands_to_the_end_within_its_budget"
    ): 50,
    (
        "tests/e2e/test_api_aipokalypse.py::"
        "test_the_api_honours_its_contract_on_an_aipokalypse_match[positive]"
    ): 50,
    "tests/unit/test_problem_codes.py::test_problem_code_lists_no_code_the_server_never_sends": 47,
    (
        "tests/unit/ai_100_human/test_scoring_exactness_vocabulary.py::"
        "test_any_effect_of_the_vocabulary_equals_the_reference"
    ): 47,
    "tests/unit/test_cli_benchmarks.py::test_bench_http": 47,
    (
        "tests/unit/test_players_ratings.py::"
        "test_rebuild_and_replay_equal_the_live_table_over_100_random_rated_matches"
    ): 45,
    "tests/e2e/test_openapi_payloads.py": 45,
    (
        "tests/unit/ai_100_human/test_bench_rollouts.py::"
        "test_bench_rollouts_reports_ms_per_rollout_and_the_reference_scorer_agrees"
    ): 41,
    "tests/e2e/test_openapi_contract.py::test_openapi_document_is_valid_openapi_3_1": 41,
    (
        "tests/unit/test_suite_plumbing.py::"
        "test_under_xdist_the_tests_of_a_module_fixture_run_on_one_worker"
    ): 41,
    (
        "tests/unit/test_analysis.py::"
        "test_a_seats_analysis_ignores_what_it_cannot_see[dead-apocalypse]"
    ): 40,
    (
        "tests/unit/aipokalypse/test_toma_playout.py::"
        "test_the_toma_acts_on_its_own_with_its_whole_rule_set_over_many_games"
    ): 40,
    "tests/e2e/test_openapi_served.py::test_an_installed_package_serves_its_packaged_copy": 39,
    "tests/unit/test_problem_codes.py::test_problem_code_lists_every_code_the_server_can_send": 39,
    (
        "tests/unit/aipokalypse/test_hunter.py::"
        "test_the_hunter_beats_the_tactician_against_the_handy_man_on_the_same_seeds"
    ): 37,
    "tests/e2e/test_openapi_contract.py::test_app_honours_its_openapi_contract[negative-duel]": 36,
    (
        "tests/unit/ai_100_human/test_fast_legality.py::"
        "test_is_legal_agrees_with_membership_in_legal_actions"
    ): 36,
    "tests/e2e/test_verify_cross_language.py": 35,
    (
        "tests/unit/test_service_events_views.py::"
        "test_every_seat_state_is_the_view_right_after_its_event[aipokalypse]"
    ): 35,
    (
        "tests/integration/test_suite_cleanup.py::"
        "test_sigterm_to_an_xdist_run_ends_it_and_no_process_of_its_workers_survives"
    ): 35,
    (
        "tests/e2e/test_openapi_contract.py::"
        "test_app_honours_its_openapi_contract[negative-aipokalypse]"
    ): 34,
    (
        "tests/e2e/test_openapi_contract.py::"
        "test_app_honours_its_openapi_contract[negative-dead-apocalypse]"
    ): 33,
    (
        "tests/unit/dead_apocalypse/test_random_playout.py::"
        "test_same_seed_and_choices_give_the_same_events"
    ): 33,
    "tests/e2e/test_openapi_contract.py::test_app_honours_its_openapi_contract[positive-duel]": 32,
    "tests/e2e/test_cli_play.py::test_interactive_dead_apocalypse_to_the_result": 32,
    "tests/unit/test_cli_play.py::test_arena_play_seats_2_auto_finishes_and_prints_the_result": 32,
    "tests/unit/test_openapi_build.py::test_check_mode_fails_on_a_hand_edit": 31,
    "tests/unit/test_cli_play.py::test_arena_play_seats_1_auto_finishes_and_prints_the_rating": 28,
    (
        "tests/e2e/test_contract_e2e.py::"
        "test_every_answer_of_a_whole_match_matches_the_contract[ai-100-human-1-]"
    ): 28,
    (
        "tests/e2e/test_cli_play.py::"
        "test_interactive_aipokalypse_solo_against_the_ai_toma_to_the_result"
    ): 26,
    "tests/unit/test_cli_benchmarks.py::test_bench_scoring": 26,
    "tests/e2e/test_proxy_nginx.py": 25,
    (
        "tests/integration/test_suite_cleanup.py::"
        "test_sigterm_to_a_plain_run_ends_it_and_no_process_survives"
    ): 25,
    "tests/unit/test_cli_benchmarks.py::test_bench_redis_bytes": 25,
    (
        "tests/unit/ai_100_human/test_random_playout.py::"
        "test_random_matches_finish_and_every_projection_agrees"
    ): 24,
    (
        "tests/e2e/test_openapi_contract.py::"
        "test_app_honours_its_openapi_contract[positive-aipokalypse]"
    ): 24,
    (
        "tests/integration/test_reclaim_outage.py::"
        "test_a_worker_survives_an_outage_during_reclaim_and_replays_the_stranded_turn_once"
    ): 24,
    "tests/e2e/test_cli_play.py::test_interactive_play_reads_the_numbered_choice_from_stdin": 24,
    (
        "tests/unit/test_suite_plumbing.py::"
        "test_a_run_without_arena_test_redis_url_says_which_redis_and_database_it_uses"
    ): 24,
    (
        "tests/unit/test_bots_never_peek.py::"
        "test_no_bot_and_no_estimator_reads_what_its_seat_cannot_see[dead-apocalypse-2-easiest]"
    ): 24,
    "tests/e2e/test_cli_play.py::test_auto_play_finishes_a_4_seat_match_against_3_greedy_bots": 23,
    (
        "tests/unit/aipokalypse/test_choice_redaction.py::"
        "test_every_choice_random_matches_ask_shows_no_option_card_to_the_others"
    ): 23,
    (
        "tests/unit/test_settings.py::"
        "test_arena_commands_exit_non_zero_with_one_line_before_serving[args7-ARENA_SNAPSHOT_EVERY-abc]"
    ): 22,
    (
        "tests/unit/test_ops_metrics.py::"
        "test_gunicorn_sums_the_http_metrics_of_every_worker_process"
    ): 22,
    (
        "tests/unit/test_analysis.py::"
        "test_the_same_log_budget_and_seed_give_the_same_analysis[ai-100-human]"
    ): 21,
    (
        "tests/integration/test_suite_cleanup.py::"
        "test_ctrl_c_ends_the_run_and_no_cluster_node_or_started_process_survives"
    ): 21,
    (
        "tests/production/test_wait_slots.py::"
        "test_streams_beyond_the_cap_answer_too_many_waits_and_leave_threads_free"
    ): 21,
    (
        "tests/e2e/test_api_aipokalypse.py::"
        "test_the_api_honours_its_contract_on_an_aipokalypse_match[negative]"
    ): 21,
    (
        "tests/e2e/test_openapi_contract.py::"
        "test_app_honours_its_openapi_contract[positive-dead-apocalypse]"
    ): 21,
    (
        "tests/e2e/test_api_hidden_information.py::"
        "test_no_answer_to_a_seat_or_spectator_shows_another_seats_secrets[ai-100-human]"
    ): 21,
    "tests/e2e/test_contract_e2e.py::test_an_undeclared_field_fails_the_check": 21,
    "tests/e2e/test_openapi_contract.py::test_stateful_run_over_the_links_has_no_failure": 20,
    # each other test of these files (subprocesses, benchmark scripts, whole matches)
    "tests/unit/aipokalypse/test_sim.py": 18,
    "tests/unit/test_cli_benchmarks.py": 15,
    "tests/e2e/test_cli_play.py": 14,
    "tests/unit/test_cli_play.py": 12,
    "tests/e2e/test_contract_e2e.py": 10,
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
