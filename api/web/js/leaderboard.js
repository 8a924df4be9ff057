// Leaderboards per game and mode family (issue 22): #/leaderboard/<game>[/<mode>], top 50
// by the conservative ordinal (mu - 3 sigma), players linked to their profiles, bots and
// the game's difficulties marked.
import { get, once } from "./api.js";
import { h, replace } from "./dom.js";
import { playerLink } from "./players.js";

/** The mode families a game's leaderboard may name (service/ratings/families.py). */
const FAMILIES = {
  "ai-100-human": ["2p", "3-6p", "solo"],
  aipokalypse: ["competitive", "toma"],
  "dead-apocalypse": ["coop", "competitive"],
};

/**
 * @param {{id: string, min_seats: number, max_seats: number}} game
 * @returns {string[]}
 */
export function modesOf(game) {
  const known = /** @type {Record<string, string[]>} */ (FAMILIES)[game.id];
  if (known) return known;
  const out = [];
  for (let n = Math.max(1, game.min_seats); n <= game.max_seats; n++) out.push(`${n}p`);
  return out;
}

/**
 * The leaderboard page.
 * @param {HTMLElement} root
 * @param {string | undefined} gameId
 * @param {string | undefined} mode
 */
export async function showLeaderboard(root, gameId, mode) {
  /** @type {import("./types.js").GameList} */
  const { games } = await once("/v1/games");
  const game = games.find((g) => g.id === gameId) || games[0];
  const modes = modesOf(game);
  const chosen = mode && modes.includes(mode) ? mode : modes[0];
  /** @type {import("./types.js").Leaderboard} */
  const board = await get(`/v1/games/${encodeURIComponent(game.id)}/leaderboard?mode=${encodeURIComponent(chosen)}&limit=50`);
  const pick = h("nav", { class: "leaderboard-nav" },
    games.map((g) => [h("a", { href: `#/leaderboard/${encodeURIComponent(g.id)}`, class: g.id === game.id ? "current" : "", text: g.title }), " "]),
    h("br", {}), modes.map((m) => [h("a", { href: `#/leaderboard/${encodeURIComponent(game.id)}/${encodeURIComponent(m)}`, class: m === chosen ? "current" : "", text: m }), " "]));
  const rows = board.items.map((e) => h("tr", { "data-participant": e.participant, class: e.kind },
    h("td", { text: String(e.rank) }),
    h("td", {}, e.kind === "player" && e.player_id ? playerLink(e.player_id, e.name || e.player_id)
      : h("span", {}, h("span", { class: "badge", text: e.kind === "bot" ? "bot" : "game" }), ` ${e.kind === "bot" ? e.bot : e.participant.split(":").slice(2).join(":")}`)),
    h("td", { text: e.ordinal.toFixed(1) }), h("td", { text: `${e.mu.toFixed(1)} ± ${e.sigma.toFixed(1)}` }),
    h("td", { text: String(e.matches) }), h("td", { text: e.provisional ? "provisional" : "" })));
  replace(root, h("h1", { text: `Leaderboard · ${game.title} · ${chosen}` }), pick,
    board.items.length ? h("table", { id: "leaderboard" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "mu ± sigma", "Rated matches", ""].map((t) => h("th", { text: t })))),
      h("tbody", {}, rows)) : h("p", { class: "muted", id: "leaderboard-empty", text: "No rated match in this mode yet." }),
    h("p", { class: "muted small", text: `${board.total} rated players. Ratings are OpenSkill (Plackett-Luce), ordered by mu - 3 sigma; anyone can recompute them from the logs.` }),
    h("p", {}, h("a", { href: "#/", text: "Back to the lobby" })));
}
