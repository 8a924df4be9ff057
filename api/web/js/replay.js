// Replay a finished match (or an uploaded export file): a slider and the arrow keys over
// versions, any seat's view or the spectator's, the events of each step, verification, and
// the computer analysis (analysis.js).
import { analysisPanel } from "./analysis.js";
import { ApiError, get, getText } from "./api.js";
import { loadCards } from "./cards.js";
import { h, replace } from "./dom.js";
import { boardFor } from "./boards/index.js";
import { boardContext, resultPanel, seatNamer, verifyLogText, verifyReport } from "./play.js";
import { actionWords, eventWords } from "./words.js";

/**
 * The replay viewer. `source` is {matchId} (a match on this server) or {log} (an uploaded
 * export; its views come from this server when it holds the match, else only its events).
 */
export async function showReplay(root, source, initialVersion = null) {
  let log = source.log || null;
  let logText = source.text || null;    // verified as sent (verify.js parses it itself)
  let matchId = source.matchId || (log && log.match_id);
  /** @type {import("./types.js").MatchView | null} */
  let match = null;
  try { match = await get(`/v1/matches/${encodeURIComponent(matchId)}`); } catch (error) { match = null; }
  if (match && match.status !== "finished") {
    replace(root, h("h1", { text: "Replay" }), h("p", { text: "This match is still running: replays open once it is finished." }),
      h("a", { href: `#/watch/${matchId}`, text: "Spectate it" }));
    return () => {};
  }
  if (!log && match) {
    logText = await getText(`/v1/matches/${encodeURIComponent(matchId)}/export`);
    log = JSON.parse(logText);
  }
  if (!log) {
    replace(root, h("h1", { text: "Replay" }), h("p", { class: "problem", text: `There is no finished match ${matchId} here.` }));
    return () => {};
  }
  const game = log.game;
  const cards = await loadCards(game);
  const board = boardFor(game);
  const seats = (match && match.seats) || log.seats || [];
  const seatName = seatNamer(seats);
  const events = log.events || [];
  const last = events.length ? events[events.length - 1].version : 1;
  const labelOf = (id) => board.label(cards, id);

  const slider = h("input", { type: "range", id: "version-slider", min: 1, max: last, value: initialVersion || last, "aria-label": "Version" });
  const viewSelect = h("select", { id: "view-as", "aria-label": "View as" }, h("option", { value: "", text: "Spectator view" }),
    seats.map((s) => h("option", { value: String(s.seat), text: `${seatName(s.seat)}'s view` })));
  const label = h("span", { id: "replay-version" });
  const boardBox = h("div", { id: "board", "data-version": "0", "data-busy": "true" });
  const stepEvents = h("ol", { class: "log", id: "step-events" });
  const verifyBox = h("div", { id: "verify-result", text: "Verifying…" });
  const problem = h("p", { class: "problem", role: "alert" });
  const prev = h("button", { type: "button", text: "◀ previous", "aria-label": "Previous version" });
  const next = h("button", { type: "button", text: "next ▶", "aria-label": "Next version" });
  const goTo = (/** @type {number} */ v) => { slider.value = String(v); show(); };
  // a move of the analysis in words, as the play page's buttons say it (the phrasebook)
  const describe = (/** @type {any} */ command, /** @type {number} */ seat) => actionWords(command, labelOf, { cards, seats, viewer: seat });
  const analysis = analysisPanel({ matchId: match ? matchId : null, log, last, seatName, goTo, describe });
  replace(root, h("div", { class: "match replay" },
    h("h1", { text: `Replay of ${matchId}` }),
    h("p", { class: "muted small" }, `${game} · ${events.length} events · seed `, h("code", { class: "seed", text: log.seed })),
    h("div", { class: "replay-controls zone" }, prev, slider, next, label, viewSelect),
    problem, verifyBox,
    h("div", { class: "match-grid" }, h("div", { class: "board-col" }, boardBox),
      h("aside", { class: "side-col" }, h("section", { class: "zone" }, h("h3", { text: "Events of this step" }), stepEvents))),
    analysis));

  let request = 0;
  async function show() {
    const version = Number(slider.value);
    const seat = viewSelect.value === "" ? null : Number(viewSelect.value);
    label.textContent = `version ${version} of ${last}`;
    replace(stepEvents, events.filter((e) => e.version === version).map((e) => h("li", { text: `v${e.version} · ${eventWords(e, labelOf, seatName, { cards, seats, viewer: seat })}` })));
    if (!match) {
      replace(boardBox, h("p", { class: "muted", text: "This server does not hold the match: only its events and verification are shown." }));
      boardBox.setAttribute("data-version", String(version));
      boardBox.setAttribute("data-busy", "false");
      return;
    }
    const mine = ++request;
    boardBox.setAttribute("data-busy", "true");
    try {
      /** @type {import("./types.js").StateView} */
      const state = await get(`/v1/matches/${encodeURIComponent(matchId)}/state?version=${version}${seat === null ? "" : `&seat=${seat}`}`);
      if (mine !== request) return;
      const ctx = boardContext(cards, seat, seats, null, null);
      const finished = version === last && match.result;
      replace(boardBox, board.render(state.view || {}, ctx), finished ? resultPanel(match.result, seatName, null) : null);
      boardBox.setAttribute("data-version", String(version));
      boardBox.setAttribute("data-view", seat === null ? "spectator" : String(seat));
      problem.textContent = "";
    } catch (error) {
      problem.textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
    } finally {
      if (mine === request) boardBox.setAttribute("data-busy", "false");
    }
  }
  const step = (d) => { slider.value = String(Math.min(last, Math.max(1, Number(slider.value) + d))); show(); };
  slider.addEventListener("input", show);
  viewSelect.addEventListener("change", show);
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  const keys = (event) => {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement && event.target !== slider) return;
    if (event.key === "ArrowLeft" && event.target !== slider) { event.preventDefault(); step(-1); }
    if (event.key === "ArrowRight" && event.target !== slider) { event.preventDefault(); step(1); }
  };
  document.addEventListener("keydown", keys);
  show();
  verifyLogText(logText || JSON.stringify(log)).then((report) => replace(verifyBox, verifyReport(report)))
    .catch((error) => replace(verifyBox, h("p", { class: "problem", text: `Verification failed to run: ${error.message}` })));
  return () => document.removeEventListener("keydown", keys);
}

/** The upload form for an exported log file. */
export function showReplayUpload(root) {
  const input = h("input", { type: "file", id: "log-file", accept: "application/json,.json", "aria-label": "Exported match log" });
  const problem = h("p", { class: "problem", role: "alert" });
  const box = h("div", {});
  let cleanup = () => {};
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      const text = await file.text();
      const log = JSON.parse(text);
      cleanup();
      cleanup = await showReplay(box, { log, text });
    } catch (error) {
      problem.textContent = `This file is not an exported match log: ${error.message}`;
    }
  });
  replace(root, h("section", { class: "zone" }, h("h1", { text: "Replay an exported log" }),
    h("p", { text: "Choose a file saved from a finished match's “Download the log” (GET /v1/matches/{id}/export)." }), input, problem), box);
  return () => cleanup();
}
