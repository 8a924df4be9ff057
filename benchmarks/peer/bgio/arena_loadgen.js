// The peer benchmark's load generator for this server (issue 21), in the same language and
// runtime as boardgame.io's (`loadgen.js`), so both servers are driven by equally cheap
// clients: PAIRS matches of Duel played at once over HTTP/1.1, each seat its own client on
// its own keep-alive connection (`http.Agent` with one socket). The rules are bench_http.py's
// seat clients' (`--arena-wait-on post`): seat 0 creates the match (`POST /v1/matches`), each
// seat reads `GET .../legal-actions` once, then sends `POST .../actions?wait=2` with `Prefer:
// return=representation`, a `decision_id` and an `Idempotency-Key`, a random card of its legal
// actions; the answer comes once the seat has its next decision and carries its legal
// actions. An answer whose representation says the match ended ends the seat's match; a seat
// with nothing to do long-polls `GET .../legal-actions?wait=2`, and asks `GET /v1/matches/{id}`
// when that comes back empty. A move's latency is the POST's time minus the wait the server
// reports (`Server-Timing: wait;dur=<ms>`): until the move was accepted. Moves started in
// [countingFrom, deadline) are counted.
// Usage: node arena_loadgen.js '{"port": P, "pairs": N, "countingFrom": EPOCH_S, "deadline": EPOCH_S, "seed": S}'
//   optional: "url" (the server's base URL instead of 127.0.0.1:P), "game" (default "duel":
//   any game, 2 human seats, each plays a random legal action of its own).
// Prints one JSON line: {"moves", "latencies_ms", "matches", "errors", "requests", "cpu_s"}.
'use strict';
const http = require('node:http');
const crypto = require('node:crypto');
const { printAndExit } = require('./report');
const { seededRandom, now, errorCounter } = require('./seeded');

const cfg = JSON.parse(process.argv[2]);
const out = { moves: 0, latencies_ms: [], matches: 0, errors: {}, requests: 0 };
const rand = seededRandom(cfg.seed);
const fail = errorCounter(out.errors);
const LONG_POLL_S = 2;
const server = new URL(cfg.url || `http://127.0.0.1:${cfg.port}`);
const GAME = cfg.game || 'duel';

// One seat's connection: every request of the seat on one kept-alive socket.
function seatClient() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method, path, { token, body, headers } = {}) => new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const head = { ...(headers || {}) };
    if (data) { head['content-type'] = 'application/json'; head['content-length'] = data.length; }
    if (token) head.authorization = `Bearer ${token}`;
    const req = http.request({ host: server.hostname, port: server.port, method, path, agent, headers: head }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        out.requests += 1;
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode >= 400) {
          let code = String(res.statusCode);
          try { code = JSON.parse(text).code || code; } catch (_) { /* not JSON */ }
          const error = new Error(code);
          error.code = code;
          reject(error);
          return;
        }
        resolve({ body: text ? JSON.parse(text) : null, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
  return { call, close: () => agent.destroy() };
}

// The server's reported wait of a held POST (ms), 0 when it did not wait.
function waitedMs(headers) {
  for (const metric of String(headers['server-timing'] || '').split(',')) {
    const [name, ...params] = metric.trim().split(';');
    if (name !== 'wait') continue;
    for (const p of params) if (p.trim().startsWith('dur=')) return Number(p.trim().slice(4)) || 0;
  }
  return 0;
}

async function playSeat(client, matchID, token, counter) {
  const base = `/v1/matches/${matchID}`;
  let legal = null;
  while (now() < cfg.deadline) {
    try {
      if (legal === null) legal = (await client.call('GET', `${base}/legal-actions`, { token })).body;
      if (legal.actions.length > 0) {
        const command = { ...legal.actions[Math.floor(rand() * legal.actions.length)] };
        if (legal.decision_id !== null && legal.decision_id !== undefined) command.decision_id = legal.decision_id;
        else command.expected_version = legal.version;
        const t = now();
        const counted = t >= cfg.countingFrom && t < cfg.deadline;
        const started = performance.now();
        const answer = await client.call('POST', `${base}/actions?wait=${LONG_POLL_S}`, {
          token,
          body: command,
          headers: { prefer: 'return=representation', 'idempotency-key': crypto.randomBytes(16).toString('hex') },
        });
        if (counted) {
          out.moves += 1;
          out.latencies_ms.push(performance.now() - started - waitedMs(answer.headers));
        }
        const rep = answer.body || {};
        if (rep.status !== undefined && rep.status !== 'running') { counter.done(); return; }
        legal = rep.legal_actions && Array.isArray(rep.legal_actions.actions) ? rep.legal_actions : null;
        continue;
      }
      legal = (await client.call('GET', `${base}/legal-actions?wait=${LONG_POLL_S}`, { token })).body;
      if (legal.actions.length === 0) {
        const match = (await client.call('GET', base, { token })).body;
        if (match.status !== 'running') { counter.done(); return; }
      }
    } catch (error) {
      fail(String(error.code || error.message || error).slice(0, 60));
      legal = null;
    }
  }
}

async function pair() {
  const seats = [seatClient(), seatClient()];
  while (now() < cfg.deadline) {
    try {
      const created = (await seats[0].call('POST', '/v1/matches', {
        body: { game: GAME, seats: [{ kind: 'human' }, { kind: 'human' }], options: {} },
      })).body;
      const tokens = created.seats.slice().sort((a, b) => a.seat - b.seat).map((s) => s.token);
      let left = 2;
      const counter = { done: () => { left -= 1; if (left === 0) out.matches += 1; } };
      await Promise.all([0, 1].map((i) => playSeat(seats[i], created.match_id, tokens[i], counter)));
    } catch (error) {
      fail(String(error.code || error.message || error).slice(0, 60));
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  seats.forEach((s) => s.close());
}

(async () => {
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: cfg.pairs }, () => pair()));
  const cpu = process.cpuUsage(cpu0);
  out.cpu_s = (cpu.user + cpu.system) / 1e6;
  printAndExit(out);
})();
