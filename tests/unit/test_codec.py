"""Canonical JSON and the envelope hash chain (docs/CONTRACTS.md "Event envelope")."""

import hashlib

from domain.engine import Event
from service.log.codec import (
    canonical_json,
    chain_errors,
    envelope_hash,
    genesis_hash,
    public_envelope,
    seed_commitment,
)
from service.log.envelopes import batches, build_envelopes, rechain


def test_canonical_json_sorts_keys_without_spaces_and_keeps_utf8():
    assert (
        canonical_json({"b": 1, "a": [1, {"d": "é", "c": None}]})
        == '{"a":[1,{"c":null,"d":"é"}],"b":1}'
    )


def test_genesis_hash_is_sha256_of_prefixed_match_id():
    assert genesis_hash("m1") == hashlib.sha256(b"apocalypse-arena:m1").hexdigest()


def _log(match_id="m1"):
    setup = build_envelopes(
        [Event("A", {"x": 1}), Event("B", {"y": [1, 2]}, 0)],
        1,
        genesis_hash(match_id),
        "setup",
        at="2026-11-29T17:00:00.000000+00:00",
    )
    move = build_envelopes(
        [Event("C", {"z": "q"}, 1)],
        3,
        setup[-1]["hash"],
        "player",
        "cid",
        {"type": "go"},
        1,
        at="2026-11-29T17:00:01.000000+00:00",
    )
    return setup + move


def test_hash_is_sha256_of_prev_hash_plus_canonical_envelope_without_hash():
    env = _log()[0]
    body = {k: v for k, v in env.items() if k != "hash"}
    expected = hashlib.sha256((env["prev_hash"] + canonical_json(body)).encode()).hexdigest()
    assert env["hash"] == expected == envelope_hash(env)
    assert env["prev_hash"] == genesis_hash("m1")


def test_intact_chain_has_no_errors():
    assert chain_errors("m1", _log()) == []


def test_tampered_data_is_detected():
    log = _log()
    log[1]["data"]["y"] = [1, 3]
    assert chain_errors("m1", log) == ["event 2: hash does not match its content"]


def test_rehashed_tampering_breaks_the_link_of_the_next_event():
    log = _log()
    log[1]["data"]["y"] = [9]
    log[1]["hash"] = envelope_hash(log[1])
    assert chain_errors("m1", log) == ["event 3: prev_hash does not link to the previous event"]


def test_dropped_event_and_other_match_id_are_detected():
    log = _log()
    assert any("version" in e for e in chain_errors("m1", [log[0], log[2]]))
    assert chain_errors("m2", log)[0].startswith("event 1: prev_hash")


def test_command_and_actor_only_on_first_envelope_and_stripped_publicly():
    log = _log()
    assert log[2]["command"] == {"type": "go"} and log[2]["actor"] == 1
    assert "command" not in log[0]
    assert "command" not in public_envelope(log[2]) and public_envelope(log[2])["actor"] == 1


def test_rechain_under_a_new_match_id_is_a_valid_chain_with_the_same_content():
    copy = rechain(_log(), genesis_hash("m2"))
    assert chain_errors("m2", copy) == []
    assert [e["data"] for e in copy] == [e["data"] for e in _log()]


def test_batches_split_setup_and_commands():
    assert [len(b) for b in batches(_log())] == [2, 1]


def test_seed_commitment_is_sha256_of_seed_bytes():
    seed = bytes(range(32))
    assert seed_commitment(seed) == hashlib.sha256(seed).hexdigest()
