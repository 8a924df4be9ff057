/** The retry layer (`sdk/retry.ts`), run by `node --test build/tests/` (tests/e2e/test_sdk_ts.py). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { retryAfterSeconds, retryingFetch } from "../sdk/retry.js";

function scripted(statuses: number[], retryAfter: string): {
  fetch: (input: Request) => Promise<Response>; seen: Request[];
} {
  const seen: Request[] = [];
  return {
    seen,
    fetch: async (input: Request) => {
      seen.push(input);
      const status = statuses[seen.length - 1] ?? 200;
      return new Response(status === 200 ? "{}" : null,
                          { status, headers: status === 200 ? {} : { "Retry-After": retryAfter } });
    },
  };
}

const FAST = { attempts: 4, maxDelayS: 0.01, defaultDelayS: 0 };

test("a GET answered 429 then 503 is repeated until it succeeds", async () => {
  const server = scripted([429, 503, 200], "0");
  const answer = await retryingFetch(FAST, server.fetch)(new Request("http://x/v1/games"));
  assert.equal(answer.status, 200);
  assert.equal(server.seen.length, 3);
});

test("a POST with an Idempotency-Key is repeated with the same key and body", async () => {
  const server = scripted([503, 200], "1");
  const request = new Request("http://x/v1/matches/m/actions", {
    method: "POST", body: '{"type":"pass"}', headers: { "Idempotency-Key": "k".repeat(16) } });
  const answer = await retryingFetch(FAST, server.fetch)(request);
  assert.equal(answer.status, 200);
  assert.equal(server.seen.length, 2);
  for (const sent of server.seen) {
    assert.equal(sent.headers.get("Idempotency-Key"), "k".repeat(16));
    assert.equal(await sent.text(), '{"type":"pass"}');
  }
});

test("a POST without an Idempotency-Key is never repeated", async () => {
  const server = scripted([429, 200], "0");
  const request = new Request("http://x/v1/matches", { method: "POST", body: "{}" });
  const answer = await retryingFetch(FAST, server.fetch)(request);
  assert.equal(answer.status, 429);
  assert.equal(server.seen.length, 1);
});

test("the attempts are bounded: the last 429 is returned", async () => {
  const server = scripted([429, 429, 429, 429, 429], "0");
  const answer = await retryingFetch(FAST, server.fetch)(new Request("http://x/v1/games"));
  assert.equal(answer.status, 429);
  assert.equal(server.seen.length, 4);
});

test("Retry-After is read as seconds or as an HTTP-date", () => {
  assert.equal(retryAfterSeconds("7"), 7);
  assert.equal(retryAfterSeconds(null), null);
  assert.equal(retryAfterSeconds("soon"), null);
  const now = Date.parse("Tue, 01 Dec 2026 10:00:00 GMT");
  assert.equal(retryAfterSeconds("Tue, 01 Dec 2026 10:00:03 GMT", now), 3);
  assert.equal(retryAfterSeconds("Tue, 01 Dec 2026 09:00:00 GMT", now), 0);
});
