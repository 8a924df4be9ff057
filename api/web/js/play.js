// Play and spectate one match: the board from the viewer's view, the legal actions as
// buttons and clickable board things, live updates over SSE, the event log in words, the
// turn-timer countdown and the result screen (scores, winners, revealed seed, Verify: the
// export checked in this browser by verify.js, whatever the server says about it).
//
// One request per move: a move is one POST with `Prefer: return=representation`, whose
// answer holds the seat's next view and legal actions; other seats' moves arrive over the
// SSE stream with `views=true`, whose batch ends carry the same (`seat_state`). The match
// is read again (GET) only on opening, when a seat joins, when a move was refused, and once
// at the end for the revealed seed.
import { ApiError, get, getText, idempotencyKey, once, post, seatOf, verifyText } from "./api.js";
import { loadCards, lookup } from "./cards.js";
import { h, replace, toast } from "./dom.js";
import { tellApart } from "./alike.js";
import { boardFor } from "./boards/index.js";
import { follow } from "./stream.js";
import { Selection } from "./targets.js";
import { verifyExport } from "./verify.js";
import { actionWords, eventWords } from "./words.js";

/**
 * What an event points at on the board, for the last-move highlight: its cards, cells,
 * slots and columns (`{card, cell, slot, column}` fields of its data, as the boards mark
 * them with data-card / data-cell / data-slot / data-column).
 * @param {any} env @returns {string[]}
 */
export function moveMarks(env) {
  const data = env.data || {};
  const out = [];
  for (const key of ["card", "source", "location", "faction", "special", "under", "unit"]) {
    if (typeof data[key] === "string") out.push(`[data-card="${CSS.escape(data[key])}"]`);
  }
  if (Array.isArray(data.cell)) out.push(`[data-cell="${data.cell.join(",")}"]`);
  if (Number.isInteger(data.slot)) out.push(`[data-slot="${data.slot}"]`);
  if (Number.isInteger(data.column)) out.push(`[data-column="${data.column}"]`);
  return out;
}

/**
 * The card ids an event's data names (what its sentence may say by name): kept on its log
 * line as `data-cards`, so the page's hidden-card checks read what was said.
 * @param {any} data @param {Map<string, any>} cards @returns {string[]}
 */
export function cardIdsIn(data, cards) {
  const out = new Set();
  const walk = (v) => {
    if (typeof v === "string") { if (lookup(cards, v)) out.add(v); } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(data);
  return [...out];
}

/** Mark the last move of every seat on a drawn board (class "last-move" and its words). */
export function highlightMoves(board, lastMoves) {
  for (const [seat, move] of lastMoves) {
    const scope = board.querySelector(`[data-seat="${seat}"]`);
    for (const selector of move.marks) {
      const inSeat = scope ? [...scope.querySelectorAll(selector)] : [];
      const els = inSeat.length ? inSeat : selector.startsWith("[data-card") ? [...board.querySelectorAll(selector)] : [];
      for (const el of els) {
        // one mark per move: a card inside a marked cell (or a cell holding a marked card) is not marked again
        if (el.parentElement?.closest(".last-move") || el.querySelector(".last-move")) continue;
        el.classList.add("last-move");
        el.setAttribute("data-last-move", move.words);
        if (!el.getAttribute("title")?.includes("Last move")) el.setAttribute("title", `${el.getAttribute("title") || ""}${el.getAttribute("title") ? "\n" : ""}Last move: ${move.words}`);
      }
    }
  }
}

/** "Seat 0 · ann" / "Seat 1 · greedy bot" / "Seat 2 · open seat" (the phrasebook's
 * sentences say "Seat 1 (greedy bot)": the seat and the bot's level). */
export function seatNamer(seats) {
  return (seat) => {
    const s = (seats || []).find((x) => x.seat === seat);
    if (seat === null || seat === undefined) return "Table";
    if (!s) return `Seat ${seat}`;
    const who = s.name || (s.kind === "bot" ? `${s.bot} bot` : s.kind === "open" ? "open seat" : "human");
    return `Seat ${seat} · ${who}`;
  };
}

/** The context a board draws with: card data, viewer, seat names, clickable things. */
export function boardContext(cards, viewer, seats, selection, pendingKind) {
  return {
    cards, viewer, pendingKind, seatName: seatNamer(seats),
    /** the selection's keys ("card:071", "cell:1,2"): a board may show what the chosen card would do */
    selected: selection ? [...selection.keys] : [],
    /** every [row, column] a legal action names (boards grow their grids to reach them) */
    targetCells() {
      if (!selection) return [];
      return [...selection.index.keys()].filter((k) => k.startsWith("cell:"))
        .map((k) => k.slice(5).split(",").map(Number));
    },
    mark(el, key) {
      el.setAttribute("data-target", key);
      if (selection && selection.has(key)) {
        el.classList.add("actionable");
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        if (selection.keys.includes(key)) el.classList.add("selected");
      }
      return el;
    },
  };
}

/** What each game's result.scores count (the rulebooks' words). */
const SCORE_LABELS = { aipokalypse: "Total strength", "ai-100-human": "VP" };

/** The words of a score breakdown's sources (AI: 100% Human's result.breakdown). */
const SOURCE_WORDS = { cards: "Development cards", objective_1: "Phase 1 objective", objective_2: "Phase 2 objective", ai_card: "AI card" };

/** The result: scores (by source when the game breaks them down), winners, ranking and
 * whatever else the game decides a match by. */
export function resultPanel(result, seatName, extra, ending = "", scoreLabel = "Score") {
  const scores = result.scores || [];
  /** @type {Record<string, number>[]} each seat's score by source (AI: 100% Human), adding up to its score */
  const breakdown = Array.isArray(result.breakdown) ? result.breakdown : [];
  const sources = breakdown.length ? Object.keys(breakdown[0]) : [];
  const winners = new Set(result.winners || []);
  // a co-operative ending (won or lost together, "outcome"): the ending in words, no ranking
  const together = Boolean(result.outcome) && scores.every((x) => x === scores[0]) && !breakdown.length;
  return h("section", { class: "result zone", "aria-label": "Result" },
    (together || result.outcome) && ending ? h("h2", { text: ending })
      : h("h2", { text: winners.size ? `Winner${winners.size > 1 ? "s" : ""}: ${[...winners].map(seatName).join(", ")}` : "No winner" }),
    (together || result.outcome) && ending ? null : ending ? h("p", { class: "ending", text: ending })
      : result.outcome ? h("p", { text: `Outcome: ${result.outcome}${result.reason ? ` (${String(result.reason).replace(/_/g, " ")})` : ""}` })
        : result.reason ? h("p", { text: `Reason: ${String(result.reason).replace(/_/g, " ")}` }) : null,
    together ? null :
    h("table", { class: "scores" }, h("thead", {}, h("tr", {}, h("th", { text: "Seat" }),
      sources.map((k) => h("th", { text: SOURCE_WORDS[k] || k.replace(/_/g, " ") })),
      h("th", { text: sources.length ? "Total" : scoreLabel }), h("th", { text: "Won" }))),
      h("tbody", {}, scores.map((score, seat) => h("tr", {}, h("td", { text: seatName(seat) }),
        sources.map((k) => h("td", { class: "num", text: String(((breakdown[seat] || {})[k]) ?? "–") })),
        h("td", { class: "num", text: String(score) }),
        h("td", { text: winners.has(seat) ? "yes ★" : "no" }))))),
    extra);
}

/**
 * @typedef {{local: import("./verify.js").LocalReport,
 *   server: Promise<import("./types.js").VerifyReport | null>}} Verification
 */

/** Verify a finished match: its export, fetched and checked here (see verifyLogText). */
export async function verifyMatch(matchId) {
  return verifyLogText(await getText(`/v1/matches/${encodeURIComponent(matchId)}/export`));
}

/**
 * Verify an exported log's text in this browser (verify.js: numbers, hash chain, roster,
 * seed commitment); the verdict is this check's alone and does not wait for the server.
 * The server's full replay (POST /v1/replays: every decision re-made from the seed) is
 * asked too, to be shown apart as the server's claim (null when it cannot be had).
 * @param {string} text
 * @returns {Promise<Verification>}
 */
export async function verifyLogText(text) {
  let log = null;
  try { log = JSON.parse(text); } catch (error) { log = null; }
  const server = verifyText(text).catch(() => null);
  return { local: await verifyExport(log), server };
}

/**
 * The verification: this browser's verdict (class "verify ok|bad|old") and its errors,
 * then the server's replay, labelled as the server's.
 * @param {Verification} verification
 */
export function verifyReport({ local, server }) {
  const verdict = local.valid ? "✔ Verified in your browser: the hash chain, the roster and the seed commitment check out."
    : local.supported ? "✘ Not verified (checked in your browser)."
      : "This log has the old format: your browser cannot re-hash it; see the server's replay below.";
  const serverBox = h("div", { class: "verify-server pending", "data-checked-by": "server" });
  server.then((report) => {
    if (!report) { replace(serverBox, h("span", { class: "small muted", text: "The server's replay could not be had." })); return; }
    serverBox.className = `verify-server ${report.valid ? "ok" : "bad"}`;
    replace(serverBox, h("span", { class: "small", text: report.valid ? "The server's replay (every decision re-made from the seed) says: verified."
      : "The server's replay (every decision re-made from the seed) says: not verified." }),
    (report.errors || []).length ? h("ul", {}, report.errors.map((e) => h("li", { text: e }))) : null);
  });
  return h("div", {},
    h("div", { class: `verify ${local.valid ? "ok" : local.supported ? "bad" : "old"}`, role: "status", "data-checked-by": "browser" },
      h("b", { text: verdict }),
      local.errors.length ? h("ul", {}, local.errors.map((e) => h("li", { text: e }))) : null),
    serverBox);
}

/**
 * Show a match. With a seat token kept for it (and not `spectate`) you play that seat;
 * otherwise you watch the spectator view.
 */
export async function showMatch(root, matchId, { spectate = false } = {}) {
  const held = spectate ? null : seatOf(matchId);
  const token = held ? held.token : null;
  const viewer = held ? held.seat : null;
  const path = `/v1/matches/${encodeURIComponent(matchId)}`;
  /** @type {import("./types.js").MatchView} */
  let match;
  try { match = await get(path, token); } catch (error) {
    const code = error instanceof ApiError ? error.code : null;
    const closed = code === "spectators_disabled";
    // the heading says what went wrong: a refused seat token is no missing match (probe)
    const heading = closed ? "No spectators in this match"
      : code === "match_not_found" ? "Match not found"
      : error instanceof ApiError && error.status === 401 ? "This seat link does not open the match"
      : "The match could not be opened";
    replace(root, h("h1", { text: heading }),
      h("p", { class: "problem", text: closed ? "This match was created with spectators disabled: it can be watched once it has finished, or played with a seat link." : error.message }),
      h("a", { href: "#/", text: "Back to the lobby" }));
    return () => {};
  }
  const game = match.game;
  /** @type {[import("./types.js").GameList, Map<string, any>]} */
  const [catalogue, cards] = await Promise.all([once("/v1/games"), loadCards(game)]);
  const info = catalogue.games.find((g) => g.id === game) || { title: game };
  const board = boardFor(game);

  const boardBox = h("div", { id: "board", "data-version": "0", "data-status": match.status, "data-busy": "true", "aria-live": "off" });
  const actionsBox = h("section", { class: "actions zone", "aria-label": "Your actions" });
  const logList = h("ol", { class: "log", "aria-label": "Event log" });
  const problemBox = h("div", { class: "problem", role: "alert", id: "problem" });
  const status = h("span", { class: "conn", text: "connecting" });
  const timer = h("span", { class: "timer", id: "timer" });
  const head = h("div", { class: "match-head" });
  const resultBox = h("div", { id: "result" });
  const justBox = h("p", { class: "just-happened", role: "status", "aria-live": "polite" });
  replace(root,
    h("div", { class: "match" },
      head, problemBox, justBox, resultBox,
      h("div", { class: "match-grid" },
        h("div", { class: "board-col" }, boardBox),
        h("aside", { class: "side-col" }, actionsBox,
          h("section", { class: "zone" }, h("h3", { text: "Events" }), logList)))));

  let selection = new Selection([]);
  /** @type {{version: number, actions: any[], decision_id?: string|null}} */
  let legal = { version: 0, actions: [] };
  let refreshing = false;
  let dirty = false;
  let stopped = false;
  let acting = false;
  let sending = "";          // the words of the move being sent
  /** seat (string) -> its turn deadline (ms since the epoch) */
  let deadlines = exactDeadlines(match);
  let verified = null;
  const seatName = () => seatNamer(match.seats);
  const labelOf = (id) => board.label(cards, id);
  /** what a board adds to an action's words (AI: 100% Human: a placement's VP preview;
   * A.I.Pokalypse: where a discarded card lies when not in hand) */
  const noteOf = (action) => {
    const note = /** @type {any} */ (board).note;
    return typeof note === "function" ? note(action, match.view || {}, viewer) : "";
  };
  /** a card's place in the viewer's view, for telling apart moves of the same words */
  const whereOf = (value, field) => {
    const where = /** @type {any} */ (board).where;
    return typeof where === "function" ? where(match.view || {}, viewer, value, field) : null;
  };
  /** @returns {import("./words.js").Table} */
  const table = () => ({ cards, seats: tableSeats(), viewer });
  /** the roster and the seats a game adds (A.I.Pokalypse's A.I.Toma, named in sentences) */
  const tableSeats = () => {
    const toma = /** @type {any} */ (match.view || {}).toma;
    const extra = toma && Number.isInteger(toma.seat) ? [{ seat: toma.seat, kind: "table", name: "the A.I.Toma" }] : [];
    return [...(match.seats || []), ...extra];
  };
  /** seat -> its last move: the board things it touched and its words */
  const lastMoves = new Map();
  /** the latest batch of events in words ("what just happened") */
  let justNow = { command: undefined, lines: /** @type {string[]} */ ([]) };

  /** The deadlines a match view gives (`deadlines`, else its `deadline` for the viewer). */
  function exactDeadlines(view) {
    /** @type {Record<string, number>} */
    const out = {};
    for (const [seat, at] of Object.entries(view.deadlines || {})) out[seat] = Date.parse(String(at));
    if (!view.deadlines && view.deadline && viewer !== null) out[String(viewer)] = Date.parse(view.deadline);
    return out;
  }

  /**
   * Move the deadlines on after a batch the page did not read with GET, as the server does
   * (service/usecases/after_append.py `schedule`): a seat's deadline ends when it acted, has nothing
   * pending or its decision changed; a pending seat of a timed match without one (and not a
   * bot) gets one `turn_timeout_s` after the batch (`at`, its last event's time).
   */
  function moveDeadlines(before, beforeDecision, actor, at) {
    if (!match.turn_timeout_s || match.status !== "running") { deadlines = {}; return; }
    const pending = match.pending || {};
    const since = at ? Date.parse(at) : Date.now();
    for (const seat of Object.keys(deadlines)) {
      const moved = before[seat] !== pending[seat] || (Number(seat) === viewer && beforeDecision
        && legal.decision_id && beforeDecision !== legal.decision_id);
      if (Number(seat) === actor || !(seat in pending) || moved) delete deadlines[seat];
    }
    for (const seat of Object.keys(pending)) {
      const entry = (match.seats || []).find((x) => x.seat === Number(seat));
      if (entry && entry.kind === "bot") continue;
      if (!(seat in deadlines)) deadlines[seat] = since + match.turn_timeout_s * 1000;
    }
  }

  /** The deadline the timer shows: the viewer's own, else the soonest (as the API's `deadline`). */
  function shownDeadline() {
    const mine = viewer !== null ? deadlines[String(viewer)] : undefined;
    const all = Object.values(deadlines);
    return mine || (all.length ? Math.min(...all) : null);
  }

  /**
   * Take the seat's state at `version` from a move's answer or a batch end of the stream
   * (`{view, pending, status, result, legal_actions}`), unless the page already shows it
   * or a newer one. `batch`: the batch's acting seat and the time of its last event.
   * @param {any} state @param {number} version @param {{actor: number|null, at: string|null}} batch
   */
  function take(state, version, batch) {
    if (stopped || version < match.version || (version === match.version && legal.version === version)) return;
    const before = match.pending || {};
    const beforeDecision = legal.decision_id;
    match = { ...match, version, view: state.view, pending: state.pending, status: state.status, result: state.result };
    const next = state.legal_actions || { version, actions: [], decision_id: null };
    const same = JSON.stringify(next.actions) === JSON.stringify(legal.actions);
    legal = next;
    if (!same) selection = new Selection(legal.actions);
    moveDeadlines(before, beforeDecision, batch.actor, batch.at);
    drawBoard();
    if (match.status === "finished" && !match.seed) refresh();    // the revealed seed, once
  }

  function drawHead() {
    const you = viewer === null ? "spectating" : `you are ${seatName()(viewer)}`;
    replace(head,
      h("h1", { text: `${info.title}` }),
      h("p", { class: "muted" }, `Match ${matchId} · ${you} · version `, h("b", { id: "version", text: String(match.version) }),
        ` · ${match.status} · `, status, " ", timer,
        " · ", h("a", { href: `#/replay/${matchId}`, text: "replay" }),
        viewer !== null ? [" · ", h("a", { href: `#/watch/${matchId}`, text: "spectate" })] : null),
      h("p", { class: "muted small seed-line", title: `Seed commitment ${match.seed_commitment}`, text: `Seed commitment ${match.seed_commitment}` }));
  }

  function drawBoard() {
    const pendingKind = viewer !== null ? (match.pending || {})[String(viewer)] : null;
    const ctx = boardContext(cards, viewer, match.seats, selection, pendingKind);
    let drawn;
    try { drawn = board.render(match.view || {}, ctx); } catch (error) {
      console.warn("board fell back to the raw view", error);
      drawn = h("pre", { class: "board generic", text: JSON.stringify(match.view, null, 2) });
    }
    replace(boardBox, drawn);
    highlightMoves(boardBox, lastMoves);
    boardBox.setAttribute("data-version", String(match.version));
    boardBox.setAttribute("data-status", match.status);
    drawActions();
    drawResult();
    drawHead();
    drawTimer();
  }

  function drawActions() {
    const candidates = selection.candidates();
    const waiting = Object.keys(match.pending || {}).map((s) => (Number(s) === viewer ? "you" : seatName()(Number(s)))).join(", ");
    const title = viewer === null ? "Spectating" : legal.actions.length ? "Your move" : match.status === "finished" ? "Finished" : "Waiting";
    replace(actionsBox,
      h("h3", { text: title }),
      acting ? h("p", { class: "sending", text: `Sending your move: ${sending.replace(/\.$/, "")}…` })
        : match.status === "running" ? h("p", { class: "muted", text: waiting ? `Waiting for: ${waiting}` : "" }) : null,
      selection.keys.length ? h("p", {}, `Selected: ${selection.keys.map((k) => k.replace(/^card:/, "").replace(/^(cell|slot|column):/, "$1 ")).join(", ")} `,
        h("button", { type: "button", class: "link", onclick: () => { selection.clear(); drawBoard(); }, text: "clear" })) : null,
      legal.actions.length ? h("div", { class: "action-list" }, tellApart(candidates,
        (action) => actionWords(action, labelOf, table()) + noteOf(action), whereOf).map(({ action, text, count }) =>
        h("button", { type: "button", class: "action", "data-action": JSON.stringify(action), "data-alike": String(count),
          disabled: acting, onclick: () => act(action), text }))) : null,
      legal.actions.length ? h("p", { class: "muted small", text: "Or click a highlighted card or cell on the board." }) : null);
  }

  function drawResult() {
    if (!match.result) { replace(resultBox); return; }
    const verifyBtn = h("button", { type: "button", id: "verify", text: "Verify" });
    const out = h("div", { id: "verify-result" }, verified ? verifyReport(verified) : null);
    verifyBtn.addEventListener("click", async () => {
      verifyBtn.disabled = true;
      try { verified = await verifyMatch(matchId); drawResult(); } catch (error) { showProblem(error); verifyBtn.disabled = false; }
    });
    // the ending in the rulebook's words ("The players lost: the Resource Stack ran out")
    const ending = eventWords({ type: "MatchEnded", seat: null, version: match.version, data: match.result }, labelOf, seatName(), table());
    replace(resultBox, resultPanel(match.result, seatName(),
      h("div", {}, h("p", { class: "small" }, "Revealed seed: ", h("code", { class: "seed", text: match.seed || "—" })),
        h("p", {}, verifyBtn, " ", h("a", { href: `#/replay/${matchId}`, class: "button", text: "Replay" }), " ",
          h("a", { href: `/v1/matches/${matchId}/export`, download: `${matchId}.json`, text: "Download the log" })), out), ending,
      SCORE_LABELS[game] || "Score"));
  }

  function showProblem(error) {
    const text = error instanceof ApiError ? `${error.message} (${error.code})` : String(error.message || error);
    problemBox.textContent = text;
    toast(text, "error");
  }

  /** Read the match (and the seat's legal actions) with GETs: on opening, after a refused
   * move, when a seat joined, and at the end (the seed). Calls during a read read again. */
  async function refresh() {
    if (refreshing) { dirty = true; return; }
    refreshing = true;
    boardBox.setAttribute("data-busy", "true");
    try {
      do {
        dirty = false;
        /** @type {import("./types.js").MatchView} */
        const next = await get(path, token);
        /** @type {import("./types.js").LegalActions} */
        let actions = { game: next.game, version: next.version, status: next.status, actions: [], decision_id: null };
        if (viewer !== null && next.status === "running" && (next.pending || {})[String(viewer)] !== undefined) {
          actions = await get(`${path}/legal-actions`, token);
          if (actions.version !== next.version) { dirty = true; continue; }
        }
        if (stopped) return;
        if (next.version < match.version) continue;     // the stream brought a newer state meanwhile
        const changed = next.version !== match.version || JSON.stringify(actions.actions) !== JSON.stringify(legal.actions);
        match = next;
        legal = actions;
        deadlines = exactDeadlines(match);
        if (changed) selection = new Selection(legal.actions);
        drawBoard();
      } while (dirty && !stopped);
    } catch (error) {
      showProblem(error);
    } finally {
      refreshing = false;
      boardBox.setAttribute("data-busy", "false");
    }
  }

  /** Make a move: one POST whose answer is the seat's next state. A 429/503 is waited out
   * and the same request (same Idempotency-Key) sent again (api.js `send`). */
  async function act(action) {
    if (viewer === null || acting) return;
    acting = true;
    sending = actionWords(action, labelOf, table());
    problemBox.textContent = "";
    boardBox.setAttribute("data-busy", "true");
    drawActions();           // its buttons disabled, the move named
    let answer = null;
    let refused = null;
    try {
      answer = await post(`${path}/actions`, action, token,
        { "Idempotency-Key": idempotencyKey(), Prefer: "return=representation" });
    } catch (error) {
      refused = error;
      showProblem(error);
    }
    acting = false;
    selection = new Selection(legal.actions);
    if (answer && answer.legal_actions) {
      const events = answer.events || [];
      take(answer, answer.legal_actions.version, { actor: viewer, at: events.length ? events[events.length - 1].at : null });
    } else if (answer || !(refused instanceof ApiError) || refused.status === 409 || refused.status === 422) {
      await refresh();       // no representation, or the match moved under the move: read it
    }
    if (!refreshing) boardBox.setAttribute("data-busy", "false");
    drawActions();           // the buttons again, whatever happened
  }

  function clickTarget(el) {
    const key = el.getAttribute("data-target");
    if (!key || !el.classList.contains("actionable")) return;
    const action = selection.pick(key);
    if (action) act(action); else drawBoard();
  }
  boardBox.addEventListener("click", (event) => {
    const el = /** @type {HTMLElement} */ (event.target).closest("[data-target].actionable");
    if (el) clickTarget(el);
  });
  boardBox.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const el = /** @type {HTMLElement} */ (event.target).closest("[data-target].actionable");
    if (el) { event.preventDefault(); clickTarget(el); }
  });

  const logged = new Set();
  function logEvent(env) {
    if (logged.has(env.version)) return;
    logged.add(env.version);
    const said = eventWords(env, labelOf, seatName(), table());
    logList.prepend(h("li", { "data-version": env.version, class: env.seat === viewer && viewer !== null ? "mine" : "",
      "data-cards": cardIdsIn(env.data, cards).join(" ") },
      h("span", { class: "v muted small", text: `v${env.version} ` }), said));
    while (logList.children.length > 300) logList.lastChild.remove();
    if (env.command_id !== justNow.command || env.command_id === null || env.command_id === undefined) justNow = { command: env.command_id, lines: [] };
    justNow.lines.push(said);
    replace(justBox, h("b", { text: "Just now: " }), justNow.lines.slice(-4).join(" · "));
    if (env.seat !== null && env.seat !== undefined) {
      const marks = moveMarks(env);
      const prev = lastMoves.get(env.seat);
      if (marks.length) {
        const same = prev && prev.command === env.command_id && env.command_id;
        lastMoves.set(env.seat, { command: env.command_id, marks: same ? [...prev.marks, ...marks] : marks, words: said });
      }
    }
  }

  function drawTimer() {
    const deadline = shownDeadline();
    if (!deadline || match.status !== "running") { timer.textContent = ""; timer.removeAttribute("data-deadline"); return; }
    timer.setAttribute("data-deadline", String(deadline));      // ms since the epoch
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    timer.textContent = `⏱ ${left} s left to act`;
  }
  const tick = setInterval(drawTimer, 500);

  // the log so far (the last 200 events), then live
  try {
    /** @type {import("./types.js").EventPage} */
    const page = await get(`${path}/events?after=${Math.max(0, match.version - 200)}`, token);
    page.events.forEach(logEvent);
  } catch (error) { showProblem(error); }
  // the seat's legal actions at the version read (a newer version: read both again)
  try {
    if (viewer !== null && match.status === "running" && (match.pending || {})[String(viewer)] !== undefined) {
      /** @type {import("./types.js").LegalActions} */
      const actions = await get(`${path}/legal-actions`, token);
      if (actions.version === match.version) { legal = actions; selection = new Selection(legal.actions); }
      else dirty = true;
    } else legal = { version: match.version, actions: [], decision_id: null };
  } catch (error) { showProblem(error); }
  let batch = { command: undefined, actor: null };
  const stream = follow(matchId, {
    token, after: match.version,
    onEvent(env) {
      logEvent(env);
      if (env.command_id !== batch.command || env.command_id === null) batch = { command: env.command_id, actor: env.seat ?? null };
      if (env.type === "SeatJoined") refresh();        // the seat list changed: read it
      else if (env.seat_state) take(env.seat_state, env.version, { actor: batch.actor, at: env.at || null });
    },
    onState(state) { status.textContent = state === "live" ? "live" : state === "ended" ? "ended" : "reconnecting…"; },
    isFinished: () => match.status === "finished",
  });
  drawBoard();
  boardBox.setAttribute("data-busy", "false");
  if (dirty || (match.status === "finished" && !match.seed)) await refresh();
  return () => { stopped = true; stream.stop(); clearInterval(tick); };
}
