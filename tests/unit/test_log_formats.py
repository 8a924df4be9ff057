"""The log formats (issue 20 item 1): new matches are ``apocalypse-arena/log@2`` (RFC 8785
hashes over I-JSON values, the format inside the chain), and exports of the old
``apocalypse-arena/log@1`` made on main before it (``tests/fixtures/log_v1``) still verify."""

from __future__ import annotations

import hashlib
import json
import lzma
from pathlib import Path

import pytest

from domain.engine import Event
from service.log.codec import (
    LOG_FORMAT,
    LOG_FORMAT_V1,
    LOG_FORMAT_V2,
    LOG_FORMAT_V3,
    MAX_SAFE_INTEGER,
    canonical_json,
    chain_errors,
    envelope_hash,
    genesis_hash,
    ijson,
    ijson_errors,
    jcs,
    plain_json,
)
from service.log.envelopes import build_envelopes, rechain
from service.log.verify import _integral, _json_copy
from tests.support.exports import new_service

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "log_v1"
OLD = sorted(FIXTURES.glob("*.json.xz"))
#: a 64-bit value like A.I.Pokalypse's choice seeds (beyond 2^53)
BIG = 2**63 + 5


def _old(path: Path) -> dict:
    return json.loads(lzma.decompress(path.read_bytes()))


@pytest.fixture(scope="module")
def svc():
    return new_service()


def test_there_is_an_old_format_fixture_for_each_game():
    games = {_old(p)["game"] for p in OLD}
    assert games == {"ai-100-human", "aipokalypse", "dead-apocalypse"}
    assert all(_old(p)["format"] == LOG_FORMAT_V1 for p in OLD)


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.name.split(".")[0])
def test_an_old_format_export_still_verifies(svc, path):
    log = _old(path)
    report = svc.verify(log)
    assert report["valid"] and report["errors"] == [], report["errors"][:5]
    assert report["version"] == len(log["events"])


def test_the_old_fixtures_hold_what_log_at_2_avoids():
    timed = _old(FIXTURES / "ai-100-human-2p-open-timed.json.xz")
    assert isinstance(timed["turn_timeout_s"], float) and timed["turn_timeout_s"] == 300.0
    seeds = [
        e["data"]["seed"]
        for e in _old(FIXTURES / "aipokalypse-2p-expert.json.xz")["events"]
        if e["type"] == "ChoiceRequested"
    ]
    assert any(isinstance(s, int) and s > MAX_SAFE_INTEGER for s in seeds)


def test_an_edited_old_format_export_fails(svc):
    log = _old(FIXTURES / "aipokalypse-2p-expert.json.xz")
    choice = next(e for e in log["events"] if e["type"] == "ChoiceRequested")
    choice["data"]["seed"] += 1
    report = svc.verify(log)
    assert not report["valid"] and any("hash does not match" in e for e in report["errors"])
    relabelled = _old(FIXTURES / "dead-apocalypse-coop.json.xz")
    relabelled["format"] = LOG_FORMAT_V2
    report = svc.verify(relabelled)
    assert not report["valid"]
    assert any("differs from the log format" in e for e in report["errors"])


def test_new_matches_are_log_at_2_with_the_format_in_the_chain(svc):
    created = svc.create_match("ai-100-human", [{"kind": "human"}, {"kind": "open"}], {}, 300.0)
    assert created["turn_timeout_s"] == 300 and isinstance(created["turn_timeout_s"], int)
    view = svc.match_view(created["match_id"], None)
    assert view["turn_timeout_s"] == 300 and isinstance(view["turn_timeout_s"], int)
    first = svc.ctx.envelopes(created["match_id"], svc._record(created["match_id"]))[0]
    assert first["roster"]["log_format"] == LOG_FORMAT == LOG_FORMAT_V3
    assert first["roster"]["turn_timeout_s"] == 300
    assert isinstance(first["roster"]["turn_timeout_s"], int)
    body = {k: v for k, v in first.items() if k != "hash"}
    assert first["hash"] == hashlib.sha256(first["prev_hash"].encode() + jcs(body)).hexdigest()
    assert svc._record(created["match_id"]).log_format == LOG_FORMAT_V3


def test_a_fractional_turn_timeout_stays_a_number(svc):
    created = svc.create_match("ai-100-human", [{"kind": "human"}, {"kind": "human"}], {}, 2.5)
    assert svc.match_view(created["match_id"], None)["turn_timeout_s"] == 2.5


def test_log_at_2_hashes_values_not_text():
    env = build_envelopes(
        [Event("A", {"t": 300.0, "big": BIG, "s": "é"})],
        1,
        genesis_hash("m"),
        "setup",
        at="2026-12-01T00:00:00.000000+00:00",
    )[0]
    assert env["data"] == {"t": 300, "big": str(BIG), "s": "é"}
    assert isinstance(env["data"]["t"], int)
    as_float = dict(env, data=dict(env["data"], t=300.0))
    assert envelope_hash(as_float) == env["hash"]  # 300.0 is 300
    assert envelope_hash(as_float, LOG_FORMAT_V1) != env["hash"]  # not in log@1
    assert chain_errors("m", [env]) == []
    with pytest.raises(ValueError):
        envelope_hash(dict(env, data={"big": BIG}))  # not I-JSON


def test_log_at_1_envelopes_are_built_as_before():
    env = build_envelopes(
        [Event("A", {"t": 300.0, "big": BIG})],
        1,
        genesis_hash("m"),
        "setup",
        at="2026-12-01T00:00:00.000000+00:00",
        log_format=LOG_FORMAT_V1,
    )[0]
    assert env["data"] == {"t": 300.0, "big": BIG}
    body = {k: v for k, v in env.items() if k != "hash"}
    assert (
        env["hash"]
        == hashlib.sha256((env["prev_hash"] + canonical_json(body)).encode()).hexdigest()
    )
    assert chain_errors("m", [env], LOG_FORMAT_V1) == []
    assert chain_errors("m", [env]) != []  # read as log@2 it does not hash
    fork = rechain([env], genesis_hash("f"))  # a fork of it is log@2
    assert fork[0]["data"] == {"t": 300, "big": str(BIG)}
    assert chain_errors("f", fork) == []


def test_ijson_and_its_errors():
    assert ijson({"a": (1, 2.0, 2.5, -(2**60), True, None)}) == {
        "a": [1, 2, 2.5, str(-(2**60)), True, None]
    }
    assert ijson(MAX_SAFE_INTEGER) == MAX_SAFE_INTEGER and ijson(MAX_SAFE_INTEGER + 1) == str(
        MAX_SAFE_INTEGER + 1
    )
    with pytest.raises(ValueError):
        ijson(float("nan"))
    assert ijson_errors({"e": [{"seed": 2**63}], "f": 1e300, "ok": [1, 2.5, "x"]}) == [
        "log.e[0].seed: the integer 9223372036854775808 is outside the I-JSON range "
        "(±2^53 - 1; larger values are strings)",
        "log.f: the number 1e+300 is outside the I-JSON range "
        "(±2^53 - 1; larger values are strings)",
    ]


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        ({"a": [1, "x", None, True, {"b": [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER]}]}, True),
        ([], True),
        ({"a": [1, 2.0]}, False),  # an integral float: _integral makes it 2
        ({"a": [1, 2.5]}, False),
        ({"a": MAX_SAFE_INTEGER + 1}, False),  # ijson_errors names it
        ({"a": (1, 2)}, False),  # a tuple: _integral keeps it, a copy would not
        ({1: "x"}, False),  # a non-string key
        ({"a": float("nan")}, False),
    ],
)
def test_the_plain_json_shortcut_of_verify_agrees_with_the_exact_walks(value, plain):
    """``verify_log`` only copies a log that :func:`plain_json` accepts: for such a log
    the exact walks find no error and change nothing, and the copy is equal and separate."""
    assert plain_json(value) is plain
    if plain:
        assert ijson_errors(value) == []
        assert _integral(value) == value
        copy = _json_copy(value)
        assert copy == value and copy is not value
        if isinstance(value, dict):
            assert copy["a"] is not value["a"]


def test_a_log_at_2_with_a_big_integer_is_refused(svc):
    log = {
        "format": LOG_FORMAT_V2,
        "match_id": "m",
        "game": "ai-100-human",
        "seats": [{"seat": 0, "kind": "human"}],
        "options": {},
        "seed": "00" * 32,
        "seed_commitment": "0" * 64,
        "events": [
            {
                "version": 1,
                "prev_hash": genesis_hash("m"),
                "hash": "0" * 64,
                "data": {"seed": 2**60},
            }
        ],
    }
    report = svc.verify(log)
    assert not report["valid"]
    assert any("outside the I-JSON range" in e for e in report["errors"])


def test_an_unknown_format_is_refused(svc):
    report = svc.verify({"format": "apocalypse-arena/log@9", "match_id": "m", "events": []})
    assert not report["valid"] and report["errors"][0].startswith("format must be one of")


# ---------------------------------------------------------------- log@2 after log@3 (issue 22)
V2_FIXTURES = sorted(
    (Path(__file__).resolve().parents[1] / "fixtures" / "log_v2").glob("*.json.xz")
)


def test_there_is_a_log_at_2_fixture_for_each_game():
    docs = [_old(p) for p in V2_FIXTURES]
    assert {d["game"] for d in docs} == {"ai-100-human", "aipokalypse", "dead-apocalypse"}
    assert all(d["format"] == LOG_FORMAT_V2 for d in docs)
    assert all("player" not in s for d in docs for s in d["seats"])


@pytest.mark.parametrize("path", V2_FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_a_log_at_2_export_still_verifies(svc, path):
    log = _old(path)
    report = svc.verify(log)
    assert report["valid"] and report["errors"] == [], report["errors"][:5]


def test_a_player_in_a_log_at_2_roster_is_refused(svc):
    log = _old(V2_FIXTURES[0])
    first = log["events"][0]
    first["roster"]["seats"][0]["player"] = "0123456789abcdef"
    log["seats"][0]["player"] = "0123456789abcdef"
    for i, env in enumerate(log["events"]):  # a forger re-hashes the whole chain
        env["prev_hash"] = genesis_hash(log["match_id"]) if i == 0 else log["events"][i - 1]["hash"]
        env["hash"] = envelope_hash(env, LOG_FORMAT_V2)
    report = svc.verify(log)
    assert not report["valid"]
    assert any("players and rated are not part of format" in e for e in report["errors"])


@pytest.mark.parametrize("game", ["ai-100-human-2p-open-timed", "dead-apocalypse-coop"])
def test_a_rules_2_log_verifies_unless_it_holds_a_resignation(svc, game):
    """AI: 100% Human and Dead Apocalypse moved to rules version 3 (R-RESIGN: the ranking
    after a resignation); their rules-2 exports hold no SeatResigned, so rules 3 re-decides
    them exactly and they verify (above); one holding a SeatResigned is refused by name."""
    log = _old(FIXTURES / f"{game}.json.xz")
    assert log["events"][0]["roster"]["rules_version"] == "2"
    assert svc.verify(log)["valid"]
    last = log["events"][-1]
    log["events"].append({**last, "version": last["version"] + 1, "type": "SeatResigned"})
    report = svc.verify(log)
    assert not report["valid"]
    assert any(
        "SeatResigned under rules version '2'" in e and "cannot be re-decided" in e
        for e in report["errors"]
    ), report["errors"][:5]


def test_plain_json_admits_tuples_and_non_ascii_keys_only_as_asked():
    """One walk serves verify's copy (no tuple; any string key) and the orjson fast path of
    the codec (tuples are lists to a writer; keys must be ASCII to sort as RFC 8785 does)."""
    assert plain_json({"\u00e9": 1}) and not plain_json({"\u00e9": 1}, ascii_keys=True)
    assert not plain_json([(1, 2)]) and plain_json([(1, 2)], tuples=True)
    assert not plain_json([(1, 2.5)], tuples=True)


def test_a_rules_3_aipokalypse_log_verifies_and_a_difference_names_both_versions(svc):
    """A.I.Pokalypse moved to rules version 4 (a reshuffle caused in the Recruitment Phase
    is the move's hidden event, R-HIDDEN-BATCH). Rules 3 logs re-decide exactly unless they
    hold such a reshuffle, which no event type tells apart: the log@2 fixture (rules 3, no
    reshuffle) verifies; where a rules 3 log differs, the error names both versions."""
    log = _old(V2_FIXTURES[1])
    assert log["game"] == "aipokalypse"
    assert log["events"][0]["roster"]["rules_version"] == "3"
    assert svc.verify(log)["valid"]
    ready = next(e for e in log["events"] if e["type"] == "SeatReady")
    ready["data"] = {**ready["data"], "forged": True}  # a differing event, resealed
    for i, env in enumerate(log["events"]):
        env["prev_hash"] = genesis_hash(log["match_id"]) if i == 0 else log["events"][i - 1]["hash"]
        env["hash"] = envelope_hash(env, LOG_FORMAT_V2)
    report = svc.verify(log)
    assert not report["valid"]
    assert any(
        "decide produced different events (the log's rules version '3' decided it; "
        "this server's '4' decides it differently)" in e
        for e in report["errors"]
    ), report["errors"][:5]


def test_a_rules_3_aipokalypse_log_with_a_hidden_reshuffle_verifies(monkeypatch):
    """Rules 3 put a reshuffle caused by a hidden Recruitment move between two
    ``RecruitmentMoves`` batches as a public event; rules 4 keep it inside the move's
    batch. A rules 3 log holding one is re-decided by this server and compared as rules 3
    recorded it (``engine.as_older_rules``), so it verifies. The log is made here by the
    rules 3 decider (rules 4's events as ``batching.as_rules_3``): three random bots, a
    fixed seed (byte 6) whose match reshuffles in Recruitment at envelope 269."""
    import random

    import service.usecases.create_join as create_join
    from domain.games.aipokalypse import ENGINE
    from domain.games.aipokalypse.batching import as_rules_3
    from tests.support.exports import play

    rules_4 = ENGINE.decide
    real_bytes = create_join.secrets.token_bytes
    with monkeypatch.context() as m:
        m.setattr(type(ENGINE), "rules_version", "3")
        m.setattr(ENGINE, "decide", lambda *a: as_rules_3(rules_4(*a)))
        m.setattr(
            create_join.secrets, "token_bytes", lambda n: b"\6" * n if n == 32 else real_bytes(n)
        )
        svc = new_service()
        seats = [{"kind": "bot", "bot": "random"}] * 3
        match_id = svc.create_match("aipokalypse", seats, {}, None)["match_id"]
        play(svc, match_id, random.Random(0))
        log = svc.export(match_id)
    events = log["events"]
    assert events[0]["roster"]["rules_version"] == "3"
    public = [
        i
        for i, e in enumerate(events)
        if e["type"] == "DrawPileReshuffled" and events[i - 1]["type"] == "RecruitmentMoves"
    ]
    assert public == [269] and events[270]["type"] == "RecruitmentMoves"
    report = new_service().verify(log)
    assert report["valid"] and report["errors"] == [], report["errors"][:5]
