// Players (issue 22): the player of this browser (its key kept in localStorage), the
// lobby's player panel, profile pages (#/player/<id>) with the match history and a rating
// curve per rated mode, and links to players wherever a name is shown.
import { ApiError, get, post } from "./api.js";
import { h, replace, toast } from "./dom.js";

const STORE = "arena.player";

/**
 * The player of this browser, or null.
 * @returns {{player_id: string, name: string, key: string} | null}
 */
export function currentPlayer() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "null");
    return kept && typeof kept.key === "string" && typeof kept.player_id === "string" ? kept : null;
  } catch { return null; }
}

/** The player key of this browser (sent as the bearer token on create and join), or null. */
export function playerKey() {
  const player = currentPlayer();
  return player ? player.key : null;
}

/**
 * A link to a player's profile showing `name`.
 * @param {string} playerId
 * @param {string} name
 */
export function playerLink(playerId, name) {
  return h("a", { href: `#/player/${encodeURIComponent(playerId)}`, class: "player-link", text: name || playerId });
}

/** The lobby's panel: create a player (name) or show the one this browser holds. */
export function playerPanel() {
  const box = h("section", { class: "zone", id: "player-panel" });
  const draw = () => {
    const player = currentPlayer();
    if (player) {
      const forget = h("button", { type: "button", id: "forget-player", text: "Forget this player" });
      forget.addEventListener("click", () => { localStorage.removeItem(STORE); draw(); });
      replace(box, h("h2", { text: "Your player" }),
        h("p", {}, "You play as ", playerLink(player.player_id, player.name),
          ". Matches you create or join are bound to this player; check \u201cRated\u201d for a rated match."),
        forget);
      return;
    }
    const name = h("input", { id: "player-name", type: "text", maxlength: 32, placeholder: "a name (1-32 characters)", "aria-label": "Player name" });
    const problem = h("p", { class: "problem", role: "alert" });
    const form = h("form", { id: "create-player" }, name,
      h("button", { type: "submit", class: "primary", id: "create-player-button", text: "Create a player" }), problem);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      problem.textContent = "";
      try {
        /** @type {import("./types.js").CreatedPlayer} */
        const created = await post("/v1/players", { name: name.value });
        localStorage.setItem(STORE, JSON.stringify({ player_id: created.player_id, name: created.name, key: created.key }));
        toast(`Welcome, ${created.name}. Your key is kept in this browser.`);
        draw();
      } catch (error) {
        problem.textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
      }
    });
    replace(box, h("h2", { text: "Your player" }),
      h("p", { class: "muted small", text: "A player has a name, a rating per game and mode, and a match history. Its key stays in this browser." }),
      form);
  };
  draw();
  return box;
}

/**
 * An SVG line of a rating's ordinal after each rated match (oldest left).
 * @param {import("./types.js").Rating} rating
 */
function curve(rating) {
  const points = rating.history.map((p) => p.ordinal);
  const width = 320, height = 80, pad = 6;
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-curve");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Rating curve of ${rating.game} ${rating.mode}: ${points.map((v) => v.toFixed(1)).join(", ")}`);
  if (!points.length) return svg;
  const low = Math.min(...points), high = Math.max(...points);
  const span = high - low;
  const step = points.length > 1 ? (width - 2 * pad) / (points.length - 1) : 0;
  // a flat curve (one match, or equal ratings) runs through the middle, not along the bottom
  const x = (/** @type {number} */ i) => (points.length > 1 ? pad + i * step : width / 2).toFixed(1);
  const y = (/** @type {number} */ v) => (span ? height - pad - ((v - low) / span) * (height - 2 * pad) : height / 2).toFixed(1);
  const line = document.createElementNS(svgNs, "polyline");
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  line.setAttribute("points", points.map((v, i) =>
    `${x(i)},${y(v)}`).join(" "));
  svg.append(line);
  points.forEach((v, i) => {           // a dot per rated match (one match: a dot, no line)
    const dot = document.createElementNS(svgNs, "circle");
    dot.setAttribute("cx", x(i));
    dot.setAttribute("cy", y(v));
    dot.setAttribute("r", "3");
    dot.setAttribute("fill", "currentColor");
    svg.append(dot);
  });
  return svg;
}

/**
 * A player's profile page (`#/player/<id>`): totals per game and mode, ratings with their
 * curves, the match history (paged) with the other players linked.
 * @param {HTMLElement} root
 * @param {string} playerId
 */
export async function showProfile(root, playerId) {
  const id = encodeURIComponent(playerId);
  /** @type {import("./types.js").PlayerProfile} */
  const profile = await get(`/v1/players/${id}`);
  const history = h("ul", { class: "matches", id: "player-history" });
  const more = h("button", { type: "button", id: "more-history", text: "More" });
  let cursor = /** @type {string | null} */ (null);
  async function page() {
    // the player's own key lists its unlisted matches too (to anyone else they are not there)
    const mine = currentPlayer();
    /** @type {import("./types.js").PlayerMatchPage} */
    const got = await get(`/v1/players/${id}/matches${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
      mine && mine.player_id === playerId ? mine.key : undefined);
    for (const m of got.items) {
      const others = m.seats.filter((s) => s.seat !== m.seat).map((s) =>
        s.player ? playerLink(s.player, s.name || s.player) : (s.kind === "bot" ? `bot ${s.bot}` : s.name || s.kind));
      history.append(h("li", { "data-match": m.match_id },
        h("b", { text: `${m.game} ${m.mode}` }), ` · ${m.aborted ? "aborted" : m.rated ? "rated" : "casual"} · ${m.status}`,
        m.won === null ? "" : m.won ? " · won" : " · lost", " · vs ",
        ...others.flatMap((o, i) => (i ? [", ", o] : [o])), " · ",
        h("a", { href: m.status === "running" ? `#/watch/${m.match_id}` : `#/replay/${m.match_id}`, text: m.status === "running" ? "watch" : "replay" })));
    }
    cursor = got.next_cursor;
    more.hidden = !cursor;
  }
  more.addEventListener("click", () => page());
  await page();
  const ratings = profile.ratings.length ? profile.ratings.map((r) =>
    h("div", { class: "rating", "data-board": r.board },
      h("h3", {}, `${r.game} · ${r.mode}: `, h("span", { class: "ordinal", text: r.ordinal.toFixed(1) }),
        r.provisional ? h("small", { class: "muted", text: " (provisional)" }) : null),
      h("p", { class: "muted small", text: `mu ${r.mu.toFixed(2)} · sigma ${r.sigma.toFixed(2)} · ${r.matches} rated match${r.matches === 1 ? "" : "es"} · ` },
        h("a", { href: `#/leaderboard/${encodeURIComponent(r.game)}/${encodeURIComponent(r.mode)}`, text: "leaderboard" })),
      curve(r))) : [h("p", { class: "muted", text: "No rated match yet." })];
  replace(root, h("h1", { text: profile.name }),
    h("section", { class: "zone", id: "player-totals" },
      h("p", { text: `${profile.played} match${profile.played === 1 ? "" : "es"} played, ${profile.won} won.` }),
      h("ul", {}, profile.modes.map((m) => h("li", { text: `${m.game} ${m.mode}: ${m.played} played, ${m.won} won` })))),
    h("section", { class: "zone", id: "player-ratings" }, h("h2", { text: "Ratings" }), ...ratings),
    h("section", { class: "zone" }, h("h2", { text: "Matches" }), history, more),
    h("p", {}, h("a", { href: "#/", text: "Back to the lobby" })));
}
