"""No response meant for seat A (or a spectator) shows seat B's hidden cards.

Three human seats play random legal actions over HTTP. After every round, each seat's
secrets are read from its OWN view (``you``: hand, reserve, dealt cards, face-down choice).
Then every kind of response to every other seat — match view, legal actions, the whole
event log, a page of new events, SSE, its own past state, an error — is searched for any
of those card ids that A has never held itself (in a draft A legitimately knows the cards
it passed on or returned, as its own views and its own events showed them; it must not
learn any other). A card once revealed face up (tableau, last reveal) and taken back into
a reserve (115/116 exchange) is public knowledge and not counted as a secret.
"""
from __future__ import annotations

import random
import re
from typing import Any, Iterator

from tests.e2e.http_helpers import create, play_round, tokens_of, version_of

ROUNDS = 40


CARD_ID = re.compile(r"^(?:\d{3}|AI-\d{1,2})$")


def strings(value: Any) -> Iterator[str]:
    """Every string (values and keys) inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def own_cards(you: dict[str, Any]) -> set[str]:
    """The card ids private to a seat, from its own view's ``you`` section."""
    cards = set(you["hand"]) | set(you["reserve"]) | set(you["dealt"])
    # the face-down choice: only its card ids are secret (command types such as
    # "exchange_reserve" are public decision kinds, shown in every view's "pending")
    return cards | {s for s in strings(you["choice"] or {}) if CARD_ID.match(s)}


def responses_for(http, client, match_id: str, token: str | None, since: int) -> list[Any]:
    """Everything this viewer can be answered now (token None = spectator)."""
    base = f"/v1/matches/{match_id}"
    out = [http.get(base, token)[2], http.get(f"{base}/events", token)[2],
           http.get(f"{base}/events?after={since}", token)[2]]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    stream = client.get(f"{base}/events/stream?max_s=0&after={since}", headers=headers)
    out.append(stream.get_data(as_text=True))
    if token is not None:
        out.append(http.get(f"{base}/legal-actions", token)[2])
        out.append(http.get(f"{base}/state?version={version_of(http, match_id)}", token)[2])
        out.append(http.post(f"{base}/actions", {"type": "draft", "card": "none"}, token)[2])
    return out


def leaked(responses: list[Any], secrets: set[str]) -> set[str]:
    found: set[str] = set()
    for response in responses:
        if isinstance(response, str):  # SSE text: compare JSON string tokens
            found |= {s for s in secrets if f'"{s}"' in response}
        else:
            found |= secrets & set(strings(response))
    return found


def test_no_response_to_a_seat_or_spectator_shows_another_seats_hidden_cards(http, client):
    created = create(http, [{"kind": "human"}] * 3, options={"objectives": "starter"})
    match_id, tokens = created["match_id"], tokens_of(created)
    rng = random.Random(2024)
    seen: dict[int, set[str]] = {seat: set() for seat in tokens}
    revealed: set[str] = set()  # ever placed face up (tableaux, last reveal): public by the rules
    checked = 0
    for _ in range(ROUNDS):
        since = version_of(http, match_id)
        play_round(http, match_id, tokens, rng)
        public = http.get(f"/v1/matches/{match_id}")[2]["view"]
        revealed |= set(strings([s["tableau"] for s in public["seats"]] + public["last_reveal"]))
        secrets = {}
        for seat, token in tokens.items():
            you = http.get(f"/v1/matches/{match_id}", token)[2]["view"]["you"]
            secrets[seat] = own_cards(you) - revealed
            own_events = [e for e in http.get(f"/v1/matches/{match_id}/events", token)[2]["events"]
                          if e["seat"] == seat]
            seen[seat] |= secrets[seat] | set(strings(own_events))
        for a, token in tokens.items():
            forbidden = set().union(*(secrets[b] for b in tokens if b != a)) - seen[a]
            assert not leaked(responses_for(http, client, match_id, token, since), forbidden)
            checked += len(forbidden)
        everyone = set().union(*secrets.values())
        assert not leaked(responses_for(http, client, match_id, None, since), everyone)
    assert checked > 100  # the test really compared many hidden cards
