// Public card data of a game (GET /v1/games/{game}/cards), looked up by id.
import { once } from "./api.js";

export const COLOUR_LETTER = { red: "R", blue: "B", yellow: "Y", black: "K", green: "G", purple: "P" };

/**
 * The game's cards as a Map id -> card (objectives included for AI: 100% Human); the
 * game's phrasebook, when it has one, rides along as the map's `phrasebook`.
 * @param {string} game
 * @returns {Promise<Map<string, any>>}
 */
export async function loadCards(game) {
  /** @type {import("./types.js").GameCards} */
  const data = await once(`/v1/games/${encodeURIComponent(game)}/cards`);
  const map = new Map();
  for (const card of data.cards || []) map.set(card.id, card);
  for (const objective of data.objectives || []) map.set(objective.id, { ...objective, kind: "objective" });
  /** @type {any} */ (map).phrasebook = data.phrasebook || null;
  return map;
}

/** The catalogue entry of a card id as it appears in a view (instance "x#3", second copy "B017-2"). */
export function lookup(cards, id) {
  if (typeof id !== "string") return null;
  return cards.get(id) || cards.get(id.split("#")[0]) || cards.get(id.replace(/-2$/, "")) || null;
}
