// The lobby: the games with their modes, options and bot levels; create a match choosing
// each seat; the open, running and finished matches (GET /v1/matches where the server has
// it, else the matches this browser holds seats of, and open-by-id); join an open seat;
// copyable seat links; seat tokens kept per match.
import { ApiError, get, keepSeat, once, post, seats as heldSeats } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { playerKey, playerLink, playerPanel } from "./players.js";

const MODES = {
  "ai-100-human": "1 seat: Solo Mode (draft grid, timer stack and rating) · 2 seats: 2-Player Mode (with the neutral grid) · 3-6 seats: the standard game",
  aipokalypse: "2-8 seats: the competitive game (5-8: the 5-8 Player Variant) · Solo / Cooperative Mode against the A.I.Toma: 1 seat (solo) or 2 (coop)",
  "dead-apocalypse": "1-4 seats, co-operative against the Zombie Stack (or the competitive ending: most Humans wins)",
};

/** A form control for one option of a JSON Schema object (enum, boolean, integer, oneOf). */
function optionControl(name, schema) {
  const id = `opt-${name}`;
  const desc = schema.description || "";
  let control;
  const enums = schema.enum || (schema.oneOf || []).flatMap((s) => s.enum || []);
  if (enums.length) {
    control = h("select", { id, name }, h("option", { value: "", text: `default${schema.default !== undefined ? ` (${schema.default})` : ""}` }),
      enums.map((v) => h("option", { value: String(v), text: String(v) })));
  } else if (schema.type === "boolean") {
    control = h("input", { id, name, type: "checkbox", checked: schema.default === true });
  } else if (schema.type === "integer" || schema.type === "number") {
    control = h("input", { id, name, type: "number", min: schema.minimum, max: schema.maximum, placeholder: schema.default !== undefined ? String(schema.default) : "" });
  } else {
    control = h("input", { id, name, type: "text" });
  }
  return h("div", { class: "field" }, h("label", { for: id, text: name.replace(/_/g, " ") }), control,
    desc ? h("small", { class: "muted", text: desc }) : null);
}

function readOptions(form, schema) {
  const out = {};
  for (const [name, prop] of Object.entries((schema && schema.properties) || {})) {
    const el = form.querySelector(`[name="${name}"]`);
    if (!el) continue;
    if (prop.type === "boolean") { if (el.checked !== (prop.default === true)) out[name] = el.checked; continue; }
    if (el.value === "") continue;
    out[name] = prop.type === "integer" || prop.type === "number" ? Number(el.value) : el.value;
  }
  return out;
}

/** The absolute link of a page of this client. */
export function pageLink(hash) {
  return `${location.origin}${location.pathname}${hash}`;
}

function copyable(text, labelText) {
  const input = h("input", { type: "text", readonly: true, value: text, "aria-label": labelText, class: "copy" });
  const button = h("button", { type: "button", text: "Copy" });
  button.addEventListener("click", async () => {
    input.select();
    try { await navigator.clipboard.writeText(text); toast("Copied."); } catch { document.execCommand && document.execCommand("copy"); }
  });
  return h("span", { class: "copy-row" }, input, button);
}

function createForm(games, onCreated) {
  const form = h("form", { id: "create", class: "zone" });
  const gameSelect = h("select", { id: "game", name: "game" }, games.map((g) => h("option", { value: g.id, text: g.title })));
  const count = h("input", { id: "seat-count", type: "number", min: 1, max: 8, value: 2 });
  const seatsBox = h("div", { class: "seats", id: "seat-list" });
  const optionsBox = h("div", { class: "options" });
  const modes = h("p", { class: "muted small" });
  const problem = h("p", { class: "problem", role: "alert" });
  const timeout = h("input", { id: "turn-timeout", type: "number", min: 1, max: 86400, placeholder: "none" });
  const rated = h("input", { id: "rated", type: "checkbox" });

  const game = () => games.find((g) => g.id === gameSelect.value);
  function drawSeats() {
    const g = game();
    count.min = String(g.min_seats); count.max = String(g.max_seats);
    let n = Math.min(Math.max(Number(count.value) || g.min_seats, g.min_seats), g.max_seats);
    count.value = String(n);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const levels = g.bots.filter((b) => b !== "idle");
    const strong = ["greedy", "tactician", "cooperative"].find((b) => levels.includes(b)) || levels.find((b) => b !== "random") || levels[0];
    replace(seatsBox, Array.from({ length: n }, (_, i) => {
      const choice = h("select", { id: `seat-${i}`, name: `seat-${i}`, "aria-label": `Seat ${i}` },
        h("option", { value: "you", text: "You" }), h("option", { value: "human", text: "Human (hot seat link)" }),
        h("option", { value: "open", text: "Open seat" }),
        g.bots.map((b) => h("option", { value: `bot:${b}`, text: `Bot: ${b}` })));
      choice.value = previous[i] && [...choice.options].some((o) => o.value === previous[i]) ? previous[i] : i === 0 ? "you" : `bot:${strong}`;
      return h("div", { class: "field" }, h("label", { for: `seat-${i}`, text: `Seat ${i}` }), choice);
    }));
  }
  function drawOptions() {
    const g = game();
    modes.textContent = `${MODES[g.id] ? MODES[g.id] : `${g.min_seats}-${g.max_seats} seats`}. Bot levels: ${g.bots.join(", ")}.`;
    replace(optionsBox, Object.entries((g.options_schema && g.options_schema.properties) || {}).map(([k, s]) => optionControl(k, s)));
  }
  gameSelect.addEventListener("change", () => { drawSeats(); drawOptions(); });
  count.addEventListener("change", drawSeats);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const g = game();
    const seatSpecs = [...seatsBox.querySelectorAll("select")].map((s) => {
      if (s.value === "you" || s.value === "human") return { kind: "human" };
      if (s.value === "open") return { kind: "open" };
      return { kind: "bot", bot: s.value.slice(4) };
    });
    const yours = [...seatsBox.querySelectorAll("select")].map((s) => s.value).indexOf("you");
    const body = { game: g.id, seats: seatSpecs, options: readOptions(form, g.options_schema) };
    if (timeout.value) body.turn_timeout_s = Number(timeout.value);
    if (rated.checked) body.rated = true;
    try {
      // with a player in this browser its key binds "You" (the first human seat): issue 22
      /** @type {import("./types.js").CreatedMatch} */
      const created = await post("/v1/matches", body, playerKey() || undefined);
      onCreated(created, yours);
    } catch (error) {
      problem.textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
    }
  });
  drawSeats(); drawOptions();
  append(form, h("h2", { text: "New match" }),
    h("div", { class: "field" }, h("label", { for: "game", text: "Game" }), gameSelect), modes,
    h("div", { class: "field" }, h("label", { for: "seat-count", text: "Seats" }), count),
    seatsBox, h("h3", { text: "Options" }), optionsBox,
    h("div", { class: "field" }, h("label", { for: "turn-timeout", text: "Turn timeout (seconds)" }), timeout),
    h("div", { class: "field" }, h("label", { for: "rated", text: "Rated (needs a player; other humans join open seats as players)" }), rated),
    problem, h("button", { type: "submit", id: "create-match", class: "primary", text: "Create match" }));
  return form;
}

function append(el, ...children) { children.forEach((c) => c && el.append(c)); }

/** After creation: keep your token, show the seat links, then open the board. */
function createdPanel(created, yours) {
  const box = h("section", { class: "zone", id: "created" }, h("h2", { text: `Match ${created.match_id} created` }));
  const you = yours >= 0 ? created.seats.find((s) => s.seat === yours) : null;
  if (you && you.token) keepSeat(created.match_id, you.seat, you.token, created.game);
  for (const seat of created.seats) {
    if (seat.kind === "human" && seat.token && seat.seat !== yours) {
      box.append(h("p", {}, `Seat ${seat.seat} (private seat link — whoever opens it plays that seat): `,
        copyable(pageLink(`#/seat/${created.match_id}/${seat.seat}/${seat.token}`), `Seat ${seat.seat} link`)));
    } else if (seat.kind === "open") {
      box.append(h("p", {}, `Seat ${seat.seat} is open — join link: `, copyable(pageLink(`#/join/${created.match_id}/${seat.seat}`), `Seat ${seat.seat} join link`)));
    }
  }
  if (you) box.append(h("p", {}, "Your own seat link (to move to another device): ",
    copyable(pageLink(`#/seat/${created.match_id}/${you.seat}/${you.token}`), "Your seat link")));
  box.append(h("p", {}, h("a", { class: "button primary", id: "open-match", href: you ? `#/m/${created.match_id}` : `#/watch/${created.match_id}`, text: you ? "Play" : "Watch" })));
  return box;
}

function matchRow(m, games) {
  const g = games.find((x) => x.id === m.game);
  const held = heldSeats()[m.match_id];
  const open = (m.seats || []).filter((s) => s.kind === "open");
  return h("li", { "data-match": m.match_id },
    h("b", { text: g ? g.title : m.game }), ` · ${m.status} · v${m.version ?? "?"} · `,
    (m.seats || []).map((s, i) => [i ? ", " : "", `${s.seat}: `, s.player ? playerLink(s.player, s.name || s.player)
      : s.name || (s.kind === "bot" ? `bot ${s.bot}` : s.kind)]), " · ",
    held && m.status !== "finished" ? h("a", { href: `#/m/${m.match_id}`, text: "play" }) : null, held ? " " : null,
    m.status === "finished" ? h("a", { href: `#/replay/${m.match_id}`, text: "replay" }) : h("a", { href: `#/watch/${m.match_id}`, text: "spectate" }),
    open.map((s) => [" ", h("a", { href: `#/join/${m.match_id}/${s.seat}`, text: `join seat ${s.seat}` })]));
}

async function matchLists(box, games) {
  const lists = h("div", {});
  replace(box, h("h2", { text: "Matches" }), lists);
  let listed = false;
  // GET /v1/matches is newer than some servers: ask which methods it has first (a plain
  // GET of a server without it would be a 405, an error in the browser's console)
  let lists_supported = false;
  try {
    const probe = await fetch("/v1/matches", { method: "OPTIONS" });
    lists_supported = probe.ok && /\bGET\b/.test(probe.headers.get("Allow") || "");
  } catch { lists_supported = false; }
  for (const status of lists_supported ? ["open", "running", "finished"] : []) {
    /** @type {import("./types.js").LobbyPage} */
    let page;
    try { page = await get(`/v1/matches?status=${status}`); } catch (error) { break; }
    if (!page || !Array.isArray(page.items)) break;
    listed = true;
    lists.append(h("h3", { text: `${status[0].toUpperCase()}${status.slice(1)}` }),
      page.items.length ? h("ul", { class: "matches", "data-status": status }, page.items.map((m) => matchRow(m, games)))
        : h("p", { class: "muted", text: "none" }));
  }
  if (!listed) lists.append(h("p", { class: "muted", text: "This server does not list matches; below are the matches this browser holds seats of." }));
  const mine = Object.entries(heldSeats()).sort((a, b) => String(b[1].at).localeCompare(String(a[1].at))).slice(0, 20);
  lists.append(h("h3", { text: "Your seats" }), mine.length ? h("ul", { class: "matches", id: "my-matches" }, mine.map(([id, s]) =>
    h("li", {}, `${s.game || "match"} ${id} (seat ${s.seat}) · `, h("a", { href: `#/m/${id}`, text: "play" }), " · ",
      h("a", { href: `#/replay/${id}`, text: "replay" })))) : h("p", { class: "muted", text: "none yet" }));
}

function openById() {
  const input = h("input", { id: "match-id", type: "text", placeholder: "match id", "aria-label": "Match id" });
  const go = (where) => (event) => { event.preventDefault(); if (input.value.trim()) location.hash = `#/${where}/${input.value.trim()}`; };
  return h("form", { class: "zone inline", onsubmit: go("m") }, h("h2", { text: "Open a match" }), input,
    h("button", { type: "submit", text: "Open" }), h("button", { type: "button", onclick: go("watch"), text: "Spectate" }),
    h("button", { type: "button", onclick: go("replay"), text: "Replay" }));
}

/** Draw the lobby into `root`. */
export async function showLobby(root) {
  /** @type {import("./types.js").GameList} */
  const { games } = await once("/v1/games");
  const listBox = h("section", { class: "zone", id: "match-lists" });
  const createdBox = h("div", {});
  const form = createForm(games, (created, yours) => {
    replace(createdBox, createdPanel(created, yours));
    createdBox.scrollIntoView({ block: "nearest" });
    matchLists(listBox, games);
  });
  replace(root, h("h1", { text: "Lobby" }),
    h("div", { class: "lobby" }, h("div", {}, createdBox, form),
      h("div", {}, playerPanel(),
        h("p", { class: "zone" }, h("a", { href: "#/leaderboard", id: "leaderboards", text: "Leaderboards" })),
        openById(), listBox,
        h("section", { class: "zone" }, h("h2", { text: "Games" }), h("ul", {}, games.map((g) =>
          h("li", {}, h("b", { text: g.title }), ` (${g.id}): ${MODES[g.id] || `${g.min_seats}-${g.max_seats} seats`}. Bot levels: ${g.bots.join(", ")}.`)))))));
  matchLists(listBox, games);
}

/** Join an open seat (`#/join/<match>/<seat>`), keep its token, open the board. */
export async function joinSeat(root, matchId, seat) {
  const name = h("input", { id: "join-name", type: "text", maxlength: 64, placeholder: "your name (optional)", "aria-label": "Your name" });
  const problem = h("p", { class: "problem", role: "alert" });
  const form = h("form", { class: "zone" }, h("h1", { text: `Join seat ${seat} of match ${matchId}` }), name,
    h("button", { type: "submit", class: "primary", id: "join", text: "Join" }), problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      /** @type {import("./types.js").SeatToken} */
      const answer = await post(`/v1/matches/${encodeURIComponent(matchId)}/seats/${seat}/join`, name.value.trim() ? { name: name.value.trim() } : {},
        playerKey() || undefined);
      keepSeat(matchId, answer.seat, answer.token);
      location.hash = `#/m/${matchId}`;
    } catch (error) {
      problem.textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
    }
  });
  replace(root, form);
}
