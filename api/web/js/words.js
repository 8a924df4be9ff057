// Commands and events in words: the game's phrasebook (served with its card data,
// phrases.js) when it has one, else each field in words.
import { capital, words } from "./dom.js";
import { lookup } from "./cards.js";
import { phrasebook } from "./phrases.js";

/**
 * The table a sentence is said at: the game's cards (their phrasebook), the seats, the reader.
 * @typedef {{cards: Map<string, any>, seats: any[], viewer: number|null}} Table
 */

/** @type {WeakMap<Map<string, any>, any>} */
const BOOKS = new WeakMap();

/** The phrasebook renderer of a card map from loadCards (null: the game has none). */
export function phrasesOf(cards) {
  if (!cards) return null;
  const book = /** @type {any} */ (cards).phrasebook;
  if (!book) return null;
  if (!BOOKS.has(cards)) BOOKS.set(cards, phrasebook(book, (id) => lookup(cards, id)));
  return BOOKS.get(cards);
}

const ID_FIELDS = new Set(["card", "cards", "faction", "location", "special", "unit", "choice", "passive", "source"]);

function value(field, v, label) {
  if (v === null || v === undefined) return "none";
  if (field === "cell" && Array.isArray(v)) return `row ${v[0]}, column ${v[1]}`;
  if (field === "cells" && Array.isArray(v)) return v.map((c) => `row ${c[0]}, column ${c[1]}`).join(" and ");
  if (typeof v === "string") return ID_FIELDS.has(field) || /^[A-Z]{1,2}\d|^\d{3}$|#/.test(v) ? label(v) : v.replace(/_/g, " ");
  if (Array.isArray(v)) {
    if (v.length > 8) return `${v.length} items`;
    return v.map((x) => value(field, x, label)).join(", ");
  }
  if (typeof v === "object") {
    const entries = Object.entries(v);
    if (entries.length > 6) return `${entries.length} entries`;
    return entries.map(([k, x]) => `${words(k)} ${value(k, x, label)}`).join("; ");
  }
  return String(v);
}

/**
 * A command as a button label: "Draft Y3 — 8 VP per …" (with the phrasebook of `table`),
 * else "Place 071 R3 at row 1, column 3".
 * @param {Record<string, any>} action @param {(id: string) => string} label @param {Table} [table]
 */
export function actionWords(action, label, table) {
  const phrases = table ? phrasesOf(table.cards) : null;
  if (phrases) return phrases.command(action, table.seats, table.viewer);
  const parts = Object.entries(action).filter(([k]) => k !== "type" && k !== "expected_version")
    .map(([k, v]) => (k === "card" || k === "cell" ? value(k, v, label) : `${words(k)} ${value(k, v, label)}`));
  const at = action.cell ? parts.join(" at ") : parts.join(", ");
  return `${capital(words(action.type))}${at ? `: ${at}` : ""}`;
}

/**
 * An event envelope in words: "You draft R3 into your reserve" (the phrasebook of `table`),
 * else "v12 · Seat 0 · card drafted: card 071 R3".
 * @param {any} env @param {(id: string) => string} label @param {(seat: number) => string} seatName
 * @param {Table} [table]
 */
export function eventWords(env, label, seatName, table) {
  const phrases = table ? phrasesOf(table.cards) : null;
  if (phrases) return phrases.event(env, table.seats, table.viewer);
  const who = env.seat === null || env.seat === undefined ? "Table" : seatName(env.seat);
  const data = env.data || {};
  const details = Object.entries(data).filter(([k]) => k !== "seat" || data.seat !== env.seat)
    .map(([k, v]) => `${words(k)} ${value(k, v, label)}`).join("; ");
  const cause = env.cause && env.cause !== "player" ? ` (${env.cause})` : "";
  return `v${env.version} · ${who} · ${words(env.type)}${cause}${details ? `: ${details}` : ""}`;
}
