"""The published hash chain must not leak redacted data (newcomer probe, critical).

Before the fix, a spectator re-hashed each redacted ``CardDrafted`` envelope with every
card id (``data = {"card": id, "forced": ...}``) and recovered every hidden draft. Now each
envelope carries a 128-bit ``nonce`` that is hashed but shown only in the export.
"""

from __future__ import annotations

import random

from service.log.codec import envelope_hash
from tests.e2e.http_helpers import create, play_until_finished, tokens_of

CARD_IDS = [f"{n:03d}" for n in range(1, 121)]


def _guesses(envelope: dict) -> list[dict]:
    """Every full ``data`` a CardDrafted could have had, given its redacted data."""
    return [dict(envelope["data"], card=card) for card in CARD_IDS]


def test_redacted_envelopes_hide_the_nonce_and_resist_guessing(http):
    created = create(http, [{"kind": "human"}] * 3, options={"objectives": "starter"})
    match_id, tokens = created["match_id"], tokens_of(created)
    view = play_until_finished(http, match_id, tokens, random.Random(5))
    assert view["status"] == "finished"

    _, _, page = http.get(f"/v1/matches/{match_id}/events?after=0&limit=500")
    drafted = [e for e in page["events"] if e["type"] == "CardDrafted"]
    assert drafted, "the match must contain hidden drafts"
    assert all("nonce" not in e and "command" not in e for e in page["events"])

    # the spectator's brute force (what the probe did) finds nothing now
    for env in drafted[:10]:
        for data in _guesses(env):
            assert envelope_hash(dict(env, data=data)) != env["hash"]

    # ...while the export (after the end) carries the nonces and the real data re-hashes
    _, _, log = http.get(f"/v1/matches/{match_id}/export")
    exported = {e["version"]: e for e in log["events"]}
    for env in drafted[:10]:
        full = exported[env["version"]]
        assert len(full["nonce"]) == 32 and full["hash"] == env["hash"]
        assert envelope_hash(full) == env["hash"]
