"""Issue 20 item 1: the same exports verify in JavaScript (``api/web/js/verify.js`` through
``scripts/verify-export.mjs`` under Node) and in Python (``MatchService.verify``), and each
kind of tampering fails in both.

The exports are finished matches of every game and mode (:mod:`tests.support.exports`:
solo, 2-player, 4-player with a resignation, a fork, A.I.Pokalypse solo/coop/expert and an
8-seat match, Dead Apocalypse cooperative/competitive/abandoned, an open seat joined, a
timed match). Each tampered log is written as JSON text and the same bytes go to both
verifiers. (A forger who re-hashes a whole genuine log under another label changes no
fact of the match: like any complete re-hash, only the published hashes tell it apart.)
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service.log.codec import LOG_FORMAT, LOG_FORMAT_V1, envelope_hash, ijson_errors, jcs
from tests.support.exports import CASES, make_export, new_service
from tests.support.node import node_or_skip

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "scripts" / "verify-export.mjs"

pytestmark = [pytest.mark.e2e]


@pytest.fixture(scope="module")
def node() -> str:
    return node_or_skip("the JavaScript verifier's tests")


def run_node(node: str, files: list[Path]) -> dict[str, dict[str, Any]]:
    """file name -> the JavaScript verifier's report (one Node process for all files)."""
    proc = subprocess.run(
        [node, str(RUNNER), *map(str, files)], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    reports = [json.loads(line) for line in proc.stdout.split("\n") if line.strip()]
    assert len(reports) == len(files), proc.stdout[-2000:]
    return {Path(r["file"]).name: r for r in reports}


@pytest.fixture(scope="module")
def service():
    return new_service()


@pytest.fixture(scope="module")
def exports(service) -> dict[str, dict[str, Any]]:
    """Every case of :data:`tests.support.exports.CASES`, played to the end and exported."""
    return {name: make_export(service, name, case) for name, case in CASES.items()}


def _no_float_integers(value: Any) -> bool:
    """True when no float of ``value`` has an integral value (``300.0`` would be ``300``)."""
    if isinstance(value, float):
        return not value.is_integer()
    if isinstance(value, dict):
        return all(_no_float_integers(v) for v in value.values())
    if isinstance(value, list):
        return all(_no_float_integers(v) for v in value)
    return True


def test_served_data_holds_i_json_numbers_only(service, exports):
    """What the server serves of these matches (views of every seat and the spectator,
    events, past states, exports) reads the same in any language: integers within
    ±(2^53 - 1), no float standing for an integer."""
    for name in ("aipokalypse-2p-expert", "ai-100-human-2p-open-timed", "aipokalypse-8p"):
        doc = exports[name]
        mid, seats = doc["match_id"], len(doc["seats"])
        served = [doc, service.match_view(mid, None), service.events(mid, None)]
        for seat in range(seats):
            served += [
                service.match_view(mid, seat),
                service.events(mid, seat),
                service.state_at(mid, seat, len(doc["events"]) // 2),
            ]
        for answer in served:
            assert ijson_errors(answer) == [], name
            assert _no_float_integers(answer), name


def test_every_game_and_mode_verifies_in_node_and_in_python(node, service, exports, tmp_path):
    files = []
    for name, doc in exports.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        files.append(path)
        assert doc["format"] == LOG_FORMAT
        python = service.verify(json.loads(path.read_text(encoding="utf-8")))
        assert python["valid"], (name, python["errors"][:5])
    reports = run_node(node, files)
    for path in files:
        report = reports[path.name]
        assert report["valid"] and report["errors"] == [], (path.name, report["errors"][:5])
        assert report["checks"] == {"numbers": True, "chain": True, "roster": True, "seed": True}
    eight = exports["aipokalypse-8p"]
    assert len(eight["seats"]) == 8 and len(eight["events"]) > 100
    # the values that broke a JavaScript verifier before: no float timeout, no big integer
    assert exports["ai-100-human-2p-open-timed"]["turn_timeout_s"] == 300
    assert isinstance(exports["ai-100-human-2p-open-timed"]["turn_timeout_s"], int)
    seeds = [
        e["data"]["seed"]
        for d in exports.values()
        for e in d["events"]
        if e["type"] == "ChoiceRequested"
    ]
    assert seeds and all(isinstance(s, (str, int)) for s in seeds)
    assert any(isinstance(s, str) and int(s) > 2**53 for s in seeds)
    assert set(exports) == set(CASES)


# ---------------------------------------------------------------------------- tampering
def _resealed(doc: dict, start: int) -> dict:
    """Recompute every hash from event index ``start`` on (prev_hash links kept honest),
    as a forger who edits content and re-hashes the rest of the chain would."""
    events = doc["events"]
    for i in range(start, len(events)):
        if i > 0:
            events[i]["prev_hash"] = events[i - 1]["hash"]
        events[i]["hash"] = envelope_hash(events[i])
    return doc


def _first(doc: dict, pred: Callable[[dict], bool]) -> int:
    return next(i for i, e in enumerate(doc["events"]) if pred(e))


def event_edited(doc):
    i = _first(doc, lambda e: e["cause"] == "bot" and e["data"])
    key = next(iter(doc["events"][i]["data"]))
    doc["events"][i]["data"][key] = "edited"
    return doc


def events_reordered(doc):
    ev = doc["events"]
    ev[10], ev[11] = ev[11], ev[10]
    return doc


def event_removed(doc):
    del doc["events"][len(doc["events"]) // 2]
    return doc


def event_inserted(doc):
    i = len(doc["events"]) // 2
    doc["events"].insert(i, copy.deepcopy(doc["events"][i]))
    return doc


def seats_edited(doc):
    doc["seats"][0]["name"] = "mallory"
    return doc


def roster_edited_and_rehashed(doc):
    doc["events"][0]["roster"]["seats"][1]["kind"] = "bot"
    doc["events"][0]["roster"]["seats"][1]["bot"] = "greedy"
    return _resealed(doc, 0)


def seed_changed(doc):
    doc["seed"] = "ab" * 32
    return doc


def seed_commitment_changed(doc):
    doc["seed_commitment"] = "cd" * 32
    return doc


def prev_hash_changed(doc):
    i = len(doc["events"]) // 3
    doc["events"][i]["prev_hash"] = "0" * 64
    doc["events"][i]["hash"] = envelope_hash(doc["events"][i])  # its own hash made to fit
    return doc


def version_gap(doc):
    i = len(doc["events"]) // 2
    for env in doc["events"][i:]:
        env["version"] += 1
    return _resealed(doc, i)


def format_changed(doc):
    doc["format"] = LOG_FORMAT_V1
    return doc


def command_edited(doc):
    i = _first(doc, lambda e: "command" in e and e["cause"] == "bot")
    doc["events"][i]["command"]["tampered"] = 1
    return doc


def hash_changed(doc):
    doc["events"][-1]["hash"] = "f" * 64
    return doc


def cause_edited_and_rehashed(doc):
    i = _first(doc, lambda e: "command" in e and e["cause"] == "bot")
    doc["events"][i]["cause"] = "player"
    return _resealed(doc, i)


def turn_timeout_edited(doc):
    doc["turn_timeout_s"] = 30
    return doc


def forked_from_edited(doc):
    """The export's ``forked_from`` (outside the chain) given wrong types (session 8 probe:
    such an export verified)."""
    assert doc["forked_from"]
    doc["forked_from"] = {"match_id": 5, "version": "x"}
    return doc


def fork_roster_forged_and_rehashed(doc):
    """A forged roster in the chain whose fork version is past the log (every command would
    count as the original's, outside the roster checks), re-hashed, and the export to fit."""
    fork = {"match_id": doc["forked_from"]["match_id"], "version": len(doc["events"]) + 5}
    doc["events"][0]["roster"]["forked_from"] = fork
    doc["forked_from"] = dict(fork)
    return _resealed(doc, 0)


def forked_from_added(doc):
    doc["forked_from"] = {"match_id": doc["match_id"], "version": 3}
    return doc


#: kind -> (case it applies to, edit of the parsed export)
TAMPERING: dict[str, tuple[str, Callable[[dict], dict]]] = {
    "event data edited": ("aipokalypse-8p", event_edited),
    "events reordered": ("ai-100-human-4p-resign", events_reordered),
    "event removed": ("dead-apocalypse-coop", event_removed),
    "event inserted": ("aipokalypse-coop", event_inserted),
    "seats edited": ("ai-100-human-2p-open-timed", seats_edited),
    "roster in the chain edited and re-hashed": (
        "ai-100-human-2p-open-timed",
        roster_edited_and_rehashed,
    ),
    "seed changed": ("aipokalypse-solo", seed_changed),
    "seed commitment changed": ("dead-apocalypse-competitive", seed_commitment_changed),
    "prev_hash changed": ("ai-100-human-solo", prev_hash_changed),
    "version gap, re-hashed": ("aipokalypse-2p-expert", version_gap),
    "format version changed": ("aipokalypse-2p-expert", format_changed),
    "stored command edited": ("dead-apocalypse-competitive", command_edited),
    "hash changed": ("aipokalypse-abandoned", hash_changed),
    "cause edited and re-hashed": ("aipokalypse-8p", cause_edited_and_rehashed),
    "turn timeout edited": ("ai-100-human-2p-open-timed", turn_timeout_edited),
    "forked_from edited": ("ai-100-human-fork", forked_from_edited),
    "forked_from added to a match that is no fork": ("ai-100-human-solo", forked_from_added),
    "fork roster forged and re-hashed": ("ai-100-human-fork", fork_roster_forged_and_rehashed),
}


def seed_as_number(text: str) -> str:
    """A big choice seed written as a JSON number, as log@1 and a naive serialiser do: a
    JavaScript parser reads another number, so the log is refused (not I-JSON)."""
    edited, count = re.subn(r'"seed":"(\d{17,})"', r'"seed":\1', text, count=1)
    assert count == 1
    return edited


def timeout_as_string(text: str) -> str:
    """A number re-written as a string (``300`` -> ``"300"``) in the hashed roster."""
    edited, count = re.subn(r'"turn_timeout_s":300\b', '"turn_timeout_s":"300"', text, count=1)
    assert count == 1
    return edited


#: kind -> (case, edit of the export's JSON text)
TEXT_TAMPERING: dict[str, tuple[str, Callable[[str], str]]] = {
    "number re-formatted beyond I-JSON (seed as a bare number)": (
        "aipokalypse-2p-expert",
        seed_as_number,
    ),
    "number re-formatted as a string": ("ai-100-human-2p-open-timed", timeout_as_string),
}


def _text(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def test_each_kind_of_tampering_fails_in_node_and_in_python(node, service, exports, tmp_path):
    files: dict[str, Path] = {}
    for number, (kind, (case, edit)) in enumerate(TAMPERING.items()):
        files[kind] = tmp_path / f"tampered-{number}.json"
        files[kind].write_text(_text(edit(copy.deepcopy(exports[case]))), encoding="utf-8")
    for number, (kind, (case, edit)) in enumerate(TEXT_TAMPERING.items()):
        files[kind] = tmp_path / f"tampered-text-{number}.json"
        files[kind].write_text(edit(_text(exports[case])), encoding="utf-8")
    assert len(files) >= 10
    reports = run_node(node, list(files.values()))
    for kind, path in files.items():
        python = service.verify(json.loads(path.read_text(encoding="utf-8")))
        javascript = reports[path.name]
        assert not python["valid"], (kind, "python")
        assert not javascript["valid"], (kind, "javascript")
        assert python["errors"] and javascript["errors"], kind
        if kind.startswith("forked_from"):
            differs = "forked_from differs from the roster in the hash chain"
            assert differs in python["errors"] and differs in javascript["errors"], kind
        if kind.startswith("fork roster"):
            for errors in (python["errors"], javascript["errors"]):
                assert any(e.startswith("roster: forked_from version") for e in errors), errors


def test_a_value_preserving_reformat_verifies_in_both(node, service, exports, tmp_path):
    """RFC 8785 hashes values, not text: pretty-printing, another key order or ``300.0``
    for ``300`` (what jq or JavaScript may write) keep a log@2 export valid in both."""
    doc = exports["ai-100-human-2p-open-timed"]
    text = json.dumps(dict(reversed(list(doc.items()))), ensure_ascii=True, indent=2)
    text, count = re.subn(r'"turn_timeout_s": 300\b', '"turn_timeout_s": 300.0', text)
    assert count == 2  # the export's and the roster's (hashed)
    text = text.replace('"version": 7,', '"version": 7.0,', 1)
    path = tmp_path / "reformatted.json"
    path.write_text(text, encoding="utf-8")
    assert service.verify(json.loads(text))["valid"]
    assert run_node(node, [path])[path.name]["valid"]


def test_an_old_format_export_is_left_to_the_full_verifier(node, tmp_path):
    import lzma

    path = tmp_path / "v1.json"
    fixture = ROOT / "tests" / "fixtures" / "log_v1" / "aipokalypse-2p-expert.json.xz"
    path.write_bytes(lzma.decompress(fixture.read_bytes()))
    report = run_node(node, [path])[path.name]
    assert not report["valid"] and report["supported"] is False
    assert "full verifier" in report["errors"][0]


#: values whose canonical forms differ between naive serialisers (RFC 8785 section 3.2)
CORPUS = [
    {
        "b": 300.0,
        "a": 1e21,
        "c": 1e-7,
        "d": 0.1,
        "e": -0.0,
        "f": 5e-324,
        "g": 1.7976931348623157e308,
    },
    {"\U0001f600": 1, "\uffff": 2, "é": 3, "a": 4, "A": 5, "": 6},
    [
        '\u0000\u001f"\\/\b\f\n\r\t',
        "\u2028\u2029\u007f",
        "é😀",
        9007199254740991,
        -9007199254740991,
    ],
    {"nested": [{"z": None, "y": True, "x": False}, [], {}], "n": 333333333.33333329},
    [4.5, 2e-3, 1e23, 123456789012345680000.0, 0.000001, 100.0],
]


def test_python_and_javascript_canonicalise_alike(node, tmp_path):
    script = tmp_path / "canon.mjs"
    module = (ROOT / "api" / "web" / "js" / "verify.js").as_uri()
    script.write_text(
        f'import {{ canonicalize }} from "{module}";\n'
        'import { readFileSync } from "node:fs";\n'
        'for (const v of JSON.parse(readFileSync(process.argv[2], "utf-8"))) '
        "console.log(JSON.stringify(canonicalize(v)));\n",
        encoding="utf-8",
    )
    data = tmp_path / "corpus.json"
    data.write_text(json.dumps(CORPUS), encoding="utf-8")
    proc = subprocess.run(
        [node, str(script), str(data)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    javascript = [json.loads(line) for line in proc.stdout.split("\n") if line]
    assert javascript == [jcs(v).decode("utf-8") for v in CORPUS]


# ---------------------------------------------------------------- players (issue 22, log@3)
LOG_V2 = sorted((ROOT / "tests" / "fixtures" / "log_v2").glob("*.json.xz"))


def test_log_at_2_exports_still_verify_in_node(node, tmp_path):
    import lzma

    files = []
    for path in LOG_V2:
        out = tmp_path / path.name.replace(".xz", "")
        out.write_bytes(lzma.decompress(path.read_bytes()))
        files.append(out)
    assert len(files) == 3
    for name, report in run_node(node, files).items():
        assert report["valid"] and report["format"] == "apocalypse-arena/log@2", (
            name,
            report["errors"][:3],
        )


def test_an_export_with_players_verifies_in_both_and_a_swapped_player_fails_in_both(node, tmp_path):
    import random

    from tests.support import exports as ex

    service = new_service()
    ann, bob = service.create_player("Ann"), service.create_player("Bob")
    mid = service.create_match(
        "ai-100-human", [{"kind": "human"}, {"kind": "open"}], {}, player_key=ann["key"], rated=True
    )["match_id"]
    service.join(mid, 1, player_key=bob["key"])
    ex.play(service, mid, random.Random(5))
    doc = service.export(mid)
    assert doc["format"] == LOG_FORMAT == "apocalypse-arena/log@3"
    assert [s["player"] for s in doc["seats"]] == [ann["player_id"], bob["player_id"]]
    swapped = copy.deepcopy(doc)
    swapped["seats"][0]["player"], swapped["seats"][1]["player"] = (
        doc["seats"][1]["player"],
        doc["seats"][0]["player"],
    )
    files = {}
    for name, item in (("good", doc), ("swapped", swapped)):
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(item), encoding="utf-8")
    reports = run_node(node, list(files.values()))
    assert reports["good.json"]["valid"] and service.verify(doc)["valid"]
    assert not reports["swapped.json"]["valid"] and not service.verify(swapped)["valid"]
    assert any("seats differ" in e for e in reports["swapped.json"]["errors"])


# ------------------------------------------------------------------ rules versions
def test_a_rules_version_the_server_cannot_re_decide_is_refused_by_python_alone(
    node, service, exports, tmp_path
):
    """The rules version in the roster says which rules decided the match; only the full
    verifier re-decides, so only it refuses a version its engine does not know, or an older
    one holding an event type the two versions decide differently (``OLDER_RULES_VERIFIED``:
    AI: 100% Human's rules 2 and ``SeatResigned``), each with its reason. The JavaScript
    verifier checks what needs no engine (docs/CONTRACTS.md): both logs, re-hashed, hold a
    sound chain, roster and seed, and it says so; the web client shows the server's refusal
    apart (tests/e2e/browser/test_verify_in_browser.py)."""
    unknown = copy.deepcopy(exports["ai-100-human-solo"])
    unknown["events"][0]["roster"]["rules_version"] = "99"
    older = copy.deepcopy(exports["ai-100-human-4p-resign"])
    assert any(e["type"] == "SeatResigned" for e in older["events"])
    older["events"][0]["roster"]["rules_version"] = "2"
    files = {}
    for name, doc in (("unknown", _resealed(unknown, 0)), ("older", _resealed(older, 0))):
        files[name] = tmp_path / f"rules-{name}.json"
        files[name].write_text(_text(doc), encoding="utf-8")
    reports = run_node(node, list(files.values()))
    python = {name: service.verify(json.loads(p.read_text("utf-8"))) for name, p in files.items()}
    assert not python["unknown"]["valid"] and not python["older"]["valid"]
    assert (
        "roster: rules version '99' is not this server's '3' for ai-100-human"
        in (python["unknown"]["errors"])
    ), python["unknown"]["errors"]
    assert any(
        "SeatResigned under rules version '2'" in e and "cannot be re-decided here" in e
        for e in python["older"]["errors"]
    ), python["older"]["errors"]
    for name, path in files.items():
        report = reports[path.name]
        assert report["valid"] and report["errors"] == [], (name, report["errors"][:3])
