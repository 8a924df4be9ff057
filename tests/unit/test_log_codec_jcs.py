"""``service.log.codec.jcs`` writes exactly the ``rfc8785`` library's bytes (RFC 8785, the
log@2/log@3 hash input) whether it takes its ``orjson`` fast path or not, and raises where
the library raises; ``canonical_json`` writes exactly ``json.dumps``' sorted compact text."""

import json

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from service.log.codec import MAX_SAFE_INTEGER, _orjson_canonical, canonical_json, jcs

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
KEYS = st.one_of(TEXT, st.text(alphabet=st.characters(max_codepoint=127), max_size=6))
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-MAX_SAFE_INTEGER - 2, max_value=MAX_SAFE_INTEGER + 2),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=20,
)


def _outcome(write, value):
    try:
        return write(value)
    except ValueError:  # rfc8785.CanonicalizationError and its kin
        return "refused"


def test_every_code_point_is_escaped_as_the_reference_escapes_it():
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    assert jcs(text) == rfc8785.dumps(text)
    assert jcs({text[:200]: text[-50:]}) == rfc8785.dumps({text[:200]: text[-50:]})


def test_an_envelope_takes_the_fast_path_and_gives_the_reference_bytes():
    envelope = {
        "version": 7,
        "type": "CardLaid",
        "data": {"card": "D07", "cards": ["D01", "D20"], "winner": None, "ok": True},
        "seat": 1,
        "command": {"type": "play", "card": "D07", "note": 'é\u2028\x1f"\\'},
        "prev_hash": "0" * 64,
        "big": -MAX_SAFE_INTEGER,
    }
    assert _orjson_canonical(envelope)
    assert jcs(envelope) == rfc8785.dumps(envelope)


def test_floats_large_integers_and_non_ascii_keys_go_to_the_reference():
    for value in ({"x": 300.0}, [MAX_SAFE_INTEGER + 1], {"\ue000": 1, "\U0001f600": 2}, {1: 2}):
        assert not _orjson_canonical(value)
    assert jcs({"\ue000": 1, "\U0001f600": 2}) == rfc8785.dumps({"\ue000": 1, "\U0001f600": 2})
    assert jcs({"x": 300.0, "y": 1e21}) == b'{"x":300,"y":1e+21}'
    for refused in ("\ud800", {"k": ["\udfff"]}, [2**53], float("nan")):
        assert _outcome(jcs, refused) == _outcome(rfc8785.dumps, refused) == "refused"


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_jcs_is_the_reference_for_any_json_value(value):
    assert _outcome(jcs, value) == _outcome(rfc8785.dumps, value)


def _stdlib(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_canonical_json_writes_the_stdlib_text_for_every_code_point_and_lone_surrogates():
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    assert canonical_json({"k": text, "b": [1, None, True]}) == _stdlib(
        {"k": text, "b": [1, None, True]}
    )
    assert canonical_json({"s": "\ud800"}) == _stdlib({"s": "\ud800"})


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_canonical_json_is_the_stdlibs_sorted_compact_text_for_any_json_value(value):
    assert _outcome(canonical_json, value) == _outcome(_stdlib, value)
