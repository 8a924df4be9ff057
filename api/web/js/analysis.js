// The computer analysis of a finished match on the replay page (issue 23): request it
// (POST /v1/matches/{id}/analysis, or POST /v1/analyses with an uploaded export), follow its
// progress, then draw the value curve over the versions with a mark on each decision and
// list every inaccuracy, mistake and blunder with the better move. Each move is said in the
// game's words (the replay page's `describe`: the phrasebook, as the play page's buttons),
// its command beside it. In a fork, the decisions copied from the match it was forked from
// (`from_parent`) are that match's seats', not this one's: said so, never by this match's
// seat names. Labels and values: docs/analysis.md.
import { ApiError, call, get } from "./api.js";
import { h, replace } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 160;
const PAD = 24;
const DEFAULT_BUDGET = 64;
/** label -> [mark shown beside the move, CSS class of its dot] */
const MARKS = { inaccuracy: ["?!", "mark-inaccuracy"], mistake: ["?", "mark-mistake"], blunder: ["??", "mark-blunder"] };

/**
 * An SVG element (the `h` of dom.js makes HTML elements only).
 * @param {string} tag @param {Record<string, string|number>} attrs @param {Node[]} [children]
 * @returns {SVGElement}
 */
function svg(tag, attrs, children = []) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) el.appendChild(child);
  return el;
}

/** A command in words: its type and fields (`play card=D07`). @param {any} command */
export function commandWords(command) {
  if (!command) return "—";
  const rest = Object.keys(command).filter((k) => k !== "type").sort()
    .map((k) => `${k}=${typeof command[k] === "string" ? command[k] : JSON.stringify(command[k])}`);
  return [command.type, ...rest].join(" ");
}

/**
 * A move in words with its command beside it: "Draft Y3 — 8 VP per … [draft card=071]".
 * @param {(command: any, seat: number) => string} describe @param {any} command @param {number} seat
 * @returns {HTMLElement}
 */
function moveWords(describe, command, seat) {
  if (!command) return h("span", { text: "—" });
  const words = describe(command, seat);
  const raw = commandWords(command);
  return h("span", { class: "move" }, words, words === raw ? null : h("code", { class: "raw", text: ` [${raw}]` }));
}

/**
 * Who made a decision: this match's seat, or — copied into a fork — that seat of the match
 * it was forked from. @param {import("./types.js").AnalysisResult} result @param {any} d
 * @param {(seat: number) => string} seatName
 */
export function deciderName(result, d, seatName) {
  if (!d.from_parent) return seatName(d.seat);
  const parent = result.forked_from ? ` of match ${result.forked_from.match_id}` : " of the original match";
  return `seat ${d.seat}${parent} (before the fork)`;
}

/** A value of the analysis's metric for people. @param {string} metric @param {number|null} value */
function valueWords(metric, value) {
  if (value === null || value === undefined) return "—";
  return metric === "win_probability" ? `${Math.round(value * 100)}%` : `${value.toFixed(1)} VP`;
}

/**
 * The value curve: one line per seat over the versions (the value of each move played, from
 * the deciding seat's knowledge), a dot per decision, coloured by its label; clicking a dot
 * shows that version.
 * @param {import("./types.js").AnalysisResult} result @param {number} last
 * @param {(seat: number) => string} seatName @param {(version: number) => void} goTo
 * @param {(command: any, seat: number) => string} [describe] a command in words
 */
export function valueCurve(result, last, seatName, goTo, describe = commandWords) {
  const valued = result.decisions.filter((d) => d.played_value !== null);
  const values = valued.map((d) => /** @type {number} */ (d.played_value));
  const [low, high] = result.metric === "win_probability" ? [0, 1]
    : [Math.min(0, ...values), Math.max(1, ...values)];
  const x = (/** @type {number} */ v) => PAD + (WIDTH - 2 * PAD) * (last > 1 ? (v - 1) / (last - 1) : 0.5);
  const y = (/** @type {number} */ v) => HEIGHT - PAD - (HEIGHT - 2 * PAD) * ((v - low) / ((high - low) || 1));
  /** @type {Element[]} */
  const parts = [svg("line", { x1: PAD, y1: HEIGHT - PAD, x2: WIDTH - PAD, y2: HEIGHT - PAD, class: "axis" }),
    svg("line", { x1: PAD, y1: PAD, x2: PAD, y2: HEIGHT - PAD, class: "axis" })];
  for (const seat of result.seats) {
    const mine = valued.filter((d) => d.seat === seat.seat);
    if (!mine.length) continue;
    const points = mine.map((d) => `${x(d.version).toFixed(1)},${y(/** @type {number} */ (d.played_value)).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", { points, class: `curve seat-${seat.seat % 8}` }));
    for (const d of mine) {
      const mark = d.label ? MARKS[d.label] : null;
      const dot = svg("circle", { cx: x(d.version).toFixed(1), cy: y(/** @type {number} */ (d.played_value)).toFixed(1),
        r: mark ? 5 : 3, class: `dot seat-${seat.seat % 8} ${mark ? mark[1] : ""}${d.from_parent ? " from-parent" : ""}`,
        "data-version": d.version, tabindex: 0 },
      [svg("title", {}, [document.createTextNode(`v${d.version} · ${deciderName(result, d, seatName)}: ` +
        `${describe(d.played, d.seat)} (${valueWords(result.metric, d.played_value)})${d.label ? ` — ${d.label}` : ""}`)])]);
      dot.addEventListener("click", () => goTo(d.version));
      parts.push(dot);
    }
  }
  return svg("svg", { id: "analysis-curve", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    "aria-label": `Value of each move played (${result.metric.replace("_", " ")}) over the versions` }, parts);
}

/**
 * The analysis result: accuracy per seat, the value curve, and each labelled decision with
 * the better move (a button showing that version).
 * @param {import("./types.js").AnalysisResult} result @param {number} last
 * @param {(seat: number) => string} seatName @param {(version: number) => void} goTo
 * @param {(command: any, seat: number) => string} [describe] a command in words
 */
export function analysisResult(result, last, seatName, goTo, describe = commandWords) {
  const seats = h("table", { class: "analysis-seats" },
    h("tr", {}, ["Seat", "Accuracy", "Inaccuracies", "Mistakes", "Blunders"].map((t) => h("th", { text: t }))),
    result.seats.map((s) => h("tr", {}, h("td", { text: seatName(s.seat) }),
      h("td", { text: s.accuracy === null ? "—" : `${s.accuracy.toFixed(1)}` }),
      h("td", { text: String(s.inaccuracies) }), h("td", { text: String(s.mistakes) }), h("td", { text: String(s.blunders) }))));
  const marked = result.decisions.filter((d) => d.label);
  const list = h("ol", { class: "analysis-mistakes", id: "analysis-mistakes" }, marked.map((d) => {
    const mark = MARKS[/** @type {string} */ (d.label)];
    return h("li", { class: `${mark[1]}${d.from_parent ? " from-parent" : ""}`, "data-version": String(d.version) },
      h("button", { type: "button", class: "link", text: `v${d.version}`, onclick: () => goTo(d.version) }),
      ` ${deciderName(result, d, seatName)} played `, moveWords(describe, d.played, d.seat),
      ` ${mark[0]} (${d.label}, ${valueWords(result.metric, d.played_value)})`,
      h("span", { class: "better" }, " · better: ", moveWords(describe, d.best, d.seat),
        ` (${valueWords(result.metric, d.best_value)})`));
  }));
  const fork = result.forked_from;
  const forkNote = fork ? h("p", { class: "muted small", id: "analysis-fork",
    text: `This match is a fork of ${fork.match_id} at version ${fork.version}: the decisions before it were made there, ` +
      "by that match's seats, and are left out of the seats' accuracy and counts above." }) : null;
  return h("div", { class: "analysis-result" }, seats, forkNote, valueCurve(result, last, seatName, goTo, describe),
    marked.length ? list : h("p", { class: "muted", text: "No inaccuracy, mistake or blunder." }));
}

/**
 * The analysis section of the replay page. `source`: {matchId} (a finished match on this
 * server) or {log} (an uploaded export: analysed once it verifies on the server);
 * `describe`: a command in the game's words (default: its type and fields).
 * @param {{matchId: string|null, log: any, last: number, seatName: (seat: number) => string,
 *   goTo: (version: number) => void, describe?: (command: any, seat: number) => string}} source
 * @returns {HTMLElement}
 */
export function analysisPanel(source) {
  const budget = h("input", { type: "number", id: "analysis-budget", min: 1, max: 4096, value: DEFAULT_BUDGET, "aria-label": "Rollouts per decision" });
  const button = h("button", { type: "button", id: "analyse", text: "Analyse" });
  const status = h("div", { id: "analysis-status", "aria-live": "polite" });
  const box = h("section", { class: "zone analysis", id: "analysis" }, h("h3", { text: "Computer analysis" }),
    h("p", { class: "muted small", text: "Every decision valued from the deciding seat's own knowledge at that moment." }),
    h("div", { class: "analysis-controls" }, h("label", { text: "Budget " }, budget), button), status);

  /** @param {import("./types.js").Analysis} answer */
  function render(answer) {
    box.setAttribute("data-status", answer.status);
    if (answer.status === "done" && answer.result) {
      replace(status, analysisResult(answer.result, source.last, source.seatName, source.goTo, source.describe));
    } else if (answer.status === "failed") {
      replace(status, h("p", { class: "problem", text: `The analysis failed: ${answer.error || "unknown reason"}` }));
    } else {
      replace(status, h("progress", { max: 100, value: answer.progress, "aria-label": "Analysis progress" }),
        h("span", { text: ` ${answer.status} · ${answer.progress}%` }));
    }
  }

  /** @param {string} id */
  async function follow(id) {
    for (;;) {
      if (!box.isConnected) return;          // the replay page was left
      /** @type {import("./types.js").Analysis} */
      const answer = await get(`/v1/analyses/${encodeURIComponent(id)}`);
      render(answer);
      if (answer.status === "done" || answer.status === "failed") return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  async function request() {
    button.setAttribute("disabled", "");
    try {
      const query = `?budget=${encodeURIComponent(budget.value || String(DEFAULT_BUDGET))}`;
      /** @type {import("./types.js").Analysis} */
      const answer = source.matchId
        ? await call("POST", `/v1/matches/${encodeURIComponent(source.matchId)}/analysis${query}`)
        : await call("POST", `/v1/analyses${query}`, { body: source.log });
      render(answer);
      await follow(answer.analysis_id);
    } catch (error) {
      replace(status, h("p", { class: "problem", text: error instanceof ApiError ? `${error.message} (${error.code})` : String(error) }));
    } finally {
      button.removeAttribute("disabled");
    }
  }
  // no look-up on load (a 404 for a match never analysed would be a console error on
  // every replay): "Analyse" answers an analysis already made with that budget at once
  button.addEventListener("click", request);
  return box;
}
