// The peer benchmark's load generator for boardgame.io (issue 21): PAIRS matches of Duel
// played at once, each seat its own boardgame.io client over its own socket.io connection
// (the transport boardgame.io's clients use), matches created and joined over the lobby API.
// A seat lays a random card of its hand as soon as it may (both seats of a trick lay at the
// same time); a move's latency is the time from `moves.play` to the state in which the
// server has taken the card out of the seat's hand. When a match ends, its two seats start
// the next one. Moves started in [countingFrom, deadline) are counted.
// Usage: node loadgen.js '{"port": P, "pairs": N, "countingFrom": EPOCH_S, "deadline": EPOCH_S, "seed": S}'
//    or node loadgen.js '{"port": P, "memory": M, "budgetS": 120}' (see memoryMode)
// Prints one JSON line: {"moves", "latencies_ms", "matches", "errors", "resent", "resyncs", "cpu_s"}.
'use strict';
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Duel } = require('./duel');
const { printAndExit } = require('./report');
const { seededRandom, now, errorCounter } = require('./seeded');

const cfg = JSON.parse(process.argv[2]);
const base = `http://127.0.0.1:${cfg.port}`;
const out = { moves: 0, latencies_ms: [], matches: 0, errors: {}, resent: 0 };
const rand = seededRandom(cfg.seed);
const fail = errorCounter(out.errors);

// A seat with no state, or with a move unanswered, for STALL_MS reconnects (as a real client's
// reconnect would): with the FlatFile storage a first sync or a move was sometimes never
// answered (boardgame.io 0.50.2 on node-persist's write queue, now off in server.js).
const STALL_MS = 3000;
function resync(client) {
  out.resyncs = (out.resyncs || 0) + 1;
  client.stop();
  client.start();
}

// The two seats of a match start playing only once both hold the match's state (a seat that
// played at once could finish its half of the trick before the other seat's client had
// synced, and the other seat's first sync then raced a state change).
function makeGate() {
  const gate = { seats: new Set(), open: false, waiting: [] };
  gate.arrive = (playerID, wake) => {
    if (gate.open) return true;
    gate.seats.add(playerID);
    gate.waiting.push(wake);
    if (gate.seats.size < 2) return false;
    gate.open = true;
    const waiting = gate.waiting.splice(0);
    setImmediate(() => waiting.forEach((w) => w()));
    return false;
  };
  return gate;
}

async function post(path, body) {
  const answer = await fetch(base + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

// The two seats join one after the other: FlatFile's join is a read-modify-write of the
// match's metadata without a lock, so two joins at once lose one seat's credentials
// (boardgame.io 0.50.2; that seat's client is then never synced).
async function joinBoth(matchID, name) {
  const seats = [];
  for (const playerID of ['0', '1']) {
    seats.push(await post(`/games/duel/${matchID}/join`, { playerID, playerName: `${name}-${playerID}` }));
  }
  return seats;
}

function playSeat(matchID, playerID, credentials, gate) {
  return new Promise((resolve) => {
    const client = Client({ game: Duel, multiplayer: SocketIO({ server: base }), matchID, playerID, credentials, debug: false });
    let pending = null; // {card, started, counted}
    let done = false;
    let unsubscribe = () => {};
    const finish = () => {
      if (done) return;
      done = true;
      unsubscribe();
      setImmediate(() => { client.stop(); resolve(); });
    };
    const onState = (state) => {
      if (done) return;
      if (!state || !state.G || !state.G.hand) return;
      synced = true;
      if (!gate.arrive(playerID, () => onState(client.getState()))) return;
      if (pending && !state.G.hand.includes(pending.card)) {
        if (pending.counted) { out.moves += 1; out.latencies_ms.push((performance.now() - pending.started)); }
        pending = null;
      } else if (pending && state._stateID > pending.sentAt && !state.ctx.gameover) {
        // boardgame.io drops a move sent at an older stateID (the other seat's play of the
        // same trick landed first): send it again, as its own clients must; the latency
        // counts from the first send, the dropped send's server CPU counts too.
        out.resent += 1;
        pending.sentAt = state._stateID;
        pending.lastSent = performance.now();
        client.moves.play(pending.card);
        return;
      }
      if (state.ctx.gameover) { if (playerID === '0') out.matches += 1; finish(); return; }
      if (now() >= cfg.deadline) { finish(); return; }
      if (pending || state.G.laid !== null || state.G.hand.length === 0) return;
      const card = state.G.hand[Math.floor(rand() * state.G.hand.length)];
      const t = now();
      pending = { card, started: performance.now(), counted: t >= cfg.countingFrom && t < cfg.deadline, sentAt: state._stateID, lastSent: performance.now() };
      client.moves.play(card);
    };
    unsubscribe = client.subscribe(onState);
    // A send with no answer (no state without the card, no newer state) for STALL_MS:
    // the seat reconnects, and resends on the state its new connection syncs.
    let lastSync = performance.now();
    let synced = false;
    const retry = setInterval(() => {
      if (done) { clearInterval(retry); return; }
      if (now() >= cfg.deadline + 2) { clearInterval(retry); finish(); return; }
      if (!synced && performance.now() - lastSync > STALL_MS) { lastSync = performance.now(); resync(client); }
      if (pending && performance.now() - pending.lastSent > STALL_MS) {
        pending.lastSent = performance.now();
        pending.sentAt = -1; // the next synced state with the card still in hand resends it
        resync(client);
      }
    }, 250);
    client.start();
  });
}

async function pair(index) {
  while (now() < cfg.deadline) {
    try {
      const { matchID } = await post('/games/duel/create', { numPlayers: 2, setupData: { tricks: 5 } });
      const seats = await joinBoth(matchID, `p${index}`);
      const gate = makeGate();
      await Promise.all(['0', '1'].map((playerID, i) => playSeat(matchID, playerID, seats[i].playerCredentials, gate)));
    } catch (error) {
      fail(String(error.message || error).slice(0, 60));
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// Mode "memory" (cfg.memory = M): M matches created and joined, one trick played in each
// (both seats lay a card), the clients then disconnected; the matches stay live on the server.
function playOneTrick(matchID, playerID, credentials) {
  return new Promise((resolve) => {
    const client = Client({ game: Duel, multiplayer: SocketIO({ server: base }), matchID, playerID, credentials, debug: false });
    let done = false;
    let sentAt = -1;
    let card = null;
    let unsubscribe = () => {};
    unsubscribe = client.subscribe((state) => {
      if (done || !state || !state.G || !state.G.hand) return;
      synced = true;
      if (card && !state.G.hand.includes(card)) {
        done = true; unsubscribe(); setImmediate(() => { client.stop(); resolve(); }); return;
      }
      if (card === null) card = state.G.hand[0];
      if (state._stateID > sentAt) { sentAt = state._stateID; lastSent = performance.now(); client.moves.play(card); }
    });
    let lastSent = 0;
    let lastSync = performance.now();
    let synced = false;
    const retry = setInterval(() => {   // no state, or a send unanswered, for STALL_MS: reconnect
      if (done) { clearInterval(retry); return; }
      if (!synced && performance.now() - lastSync > STALL_MS) { lastSync = performance.now(); resync(client); }
      if (card && performance.now() - lastSent > STALL_MS) { lastSent = performance.now(); sentAt = -1; resync(client); }
    }, 250);
    client.start();
  });
}

// At most cfg.budgetS seconds (default 120) in all: a server that stalls ends the step early,
// and the report names the matches actually created (the caller divides by those).
async function memoryMode(count) {
  const until = now() + (cfg.budgetS || 120);
  let created = 0;
  let live = 0;   // matches whose first trick was played within 20 s (the others stay created)
  for (let i = 0; i < count && now() < until; i += 1) {
    const { matchID } = await post('/games/duel/create', { numPlayers: 2, setupData: { tricks: 5 } });
    created += 1;
    const seats = await joinBoth(matchID, `m${i}`);
    const trick = Promise.all(['0', '1'].map((playerID, k) => playOneTrick(matchID, playerID, seats[k].playerCredentials)));
    const wait = Math.max(0, Math.min(20, until - now())) * 1000;
    const played = await Promise.race([trick.then(() => true), new Promise((r) => setTimeout(() => r(false), wait))]);
    if (played) live += 1;
  }
  printAndExit({ matches: created, trick_played: live });
}

(async () => {
  if (cfg.memory) { await memoryMode(cfg.memory); return; }
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: cfg.pairs }, (_, i) => pair(i)));
  const cpu = process.cpuUsage(cpu0);
  out.cpu_s = (cpu.user + cpu.system) / 1e6;
  printAndExit(out);
})();
