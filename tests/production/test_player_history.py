"""A player's history on the production topology (gunicorn + real Redis): unlisted matches
are listed only for the player's own key, and no cursor names a match id (two newcomer
probes found unlisted matches, open seats included, in public histories and in an
anonymous ``next_cursor``)."""

from __future__ import annotations

import base64
import uuid

from tests.e2e.http_helpers import Http

SEATS = [{"kind": "human"}, {"kind": "open"}]


def test_an_unlisted_match_stays_out_of_other_readers_pages_and_cursors(production):
    http = Http(production.url)
    status, _, ann = http.post("/v1/players", {"name": f"Ann {uuid.uuid4().hex[:6]}"})
    assert status == 201, ann

    def made(**extra):
        status, _, body = http.post(
            "/v1/matches", {"game": "ai-100-human", "seats": SEATS, **extra}, ann["key"]
        )
        assert status == 201, body
        return body["match_id"]

    listed = made()
    hidden = [made(unlisted=True) for _ in range(12)]
    path = f"/v1/players/{ann['player_id']}/matches?limit=1"

    def walk(key=None):
        seen, cursors, url = [], [], path
        while True:
            status, _, page = http.get(url, key)
            assert status == 200, page
            seen += [item["match_id"] for item in page["items"]]
            if page["next_cursor"] is None:
                return seen, cursors
            cursors.append(page["next_cursor"])
            url = f"{path}&cursor={page['next_cursor']}"

    public, cursors = walk()
    assert public == [listed] and cursors
    for cursor in cursors:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        assert not any(mid in raw for mid in [*hidden, listed]), raw
    assert walk(ann["key"])[0] == [*hidden[::-1], listed]
