"""The API's JSON provider (``api.app.FastJSONProvider``): ``jsonify`` answers are written by
orjson (the stdlib encoder only for what orjson refuses), keys in their order, UTF-8 kept."""

import json

from api.app import ArenaFlask


def test_jsonify_takes_orjson_and_falls_back_to_the_stdlib_for_what_it_refuses(monkeypatch):
    app = ArenaFlask(__name__)
    real = json.dumps
    calls = []
    monkeypatch.setattr(json, "dumps", lambda *a, **k: calls.append(a) or real(*a, **k))
    with app.app_context():
        body = app.json.response({"b": [1, "é", None], "a": True, 2: 3}).get_data(as_text=True)
        assert body == '{"b":[1,"é",null],"a":true,"2":3}\n' and calls == []
        big = app.json.response({"n": 2**70}).get_data(as_text=True)
    assert json.loads(big) == {"n": 2**70} and len(calls) == 1
