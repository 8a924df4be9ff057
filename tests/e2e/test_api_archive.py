"""Issue 12 items 4-5 over HTTP: a finished match answers the same through the API once
compacted (at its end) and once moved to the PostgreSQL archive (real Redis, real
PostgreSQL): view, seat view, events, state at a version, legal actions, export, SSE,
lobby, rematch."""

import pytest

from tests.e2e.http_helpers import Http
from tests.support.reads import finish_by_hand

pytestmark = [pytest.mark.integration, pytest.mark.e2e]


def _answers(http: Http, mid: str, token: str, version: int) -> dict:
    out = {}
    for name, path, tok in [
        ("view", f"/v1/matches/{mid}", None),
        ("seat-view", f"/v1/matches/{mid}", token),
        ("events", f"/v1/matches/{mid}/events?after=3", None),
        ("seat-events", f"/v1/matches/{mid}/events?after=0&limit=50", token),
        ("state", f"/v1/matches/{mid}/state?version={version - 2}", None),
        ("legal", f"/v1/matches/{mid}/legal-actions", token),
        ("export", f"/v1/matches/{mid}/export", None),
        ("lobby", "/v1/matches?status=finished", None),
    ]:
        status, _, body = http.get(path, tok)
        assert status == 200, (name, body)
        out[name] = body
    status, _, body = http.get(f"/v1/matches/{mid}/events/stream?after={version - 2}")
    assert status == 200
    out["sse-ids"] = [line for line in body.splitlines() if line.startswith("id:")]
    return out


def test_a_finished_match_answers_the_same_compacted_and_archived(real_config, archive_url):
    from api.app import create_app
    from service import bootstrap

    config = real_config.with_(engines_path=None, archive_url=archive_url, archive_after_s=1e-6)
    service = bootstrap.install(bootstrap.build_service(config))
    try:
        http = Http(create_app(service, {"SSE_POLL_S": 0.2, "TESTING": True}).test_client())
        created = service.create_match("ai-100-human", [{"kind": "human"}, {"kind": "human"}], {})
        mid = created["match_id"]
        token = created["seats"][0]["token"]
        finish_by_hand(service, mid)
        version = service.match_view(mid, None)["version"]
        assert service._record(mid).compacted
        compacted = _answers(http, mid, token, version)
        assert compacted["legal"]["actions"] == []
        assert compacted["sse-ids"][-1].endswith(str(version))
        assert [i["match_id"] for i in compacted["lobby"]["items"]] == [mid]
        assert service.archive_due() == 1
        assert not any(service.redis.exists(k) for k in service.keys.match_keys(mid))
        service.folds.clear()
        archived = _answers(http, mid, token, version)
        assert archived == compacted
        status, _, body = http.post(f"/v1/matches/{mid}/rematch", {}, token)
        assert status in (200, 201) and body["rematch_of"] == mid, body
        status, _, view = http.get(f"/v1/matches/{mid}")
        assert view["rematch"] == body["match_id"]
    finally:
        service.ctx.archive.close()
        bootstrap.reset()
