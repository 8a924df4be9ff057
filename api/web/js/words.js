// Commands and events in words, with card names from the game's card data.
import { capital, words } from "./dom.js";

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
 * A command as a button label: "Place 071 R3 at row 1, column 3".
 * @param {Record<string, any>} action @param {(id: string) => string} label
 */
export function actionWords(action, label) {
  const parts = Object.entries(action).filter(([k]) => k !== "type" && k !== "expected_version")
    .map(([k, v]) => (k === "card" || k === "cell" ? value(k, v, label) : `${words(k)} ${value(k, v, label)}`));
  const at = action.cell ? parts.join(" at ") : parts.join(", ");
  return `${capital(words(action.type))}${at ? `: ${at}` : ""}`;
}

/**
 * An event envelope in words: "v12 · Seat 0 · card drafted: card 071 R3".
 * @param {any} env @param {(id: string) => string} label @param {(seat: number) => string} seatName
 */
export function eventWords(env, label, seatName) {
  const who = env.seat === null || env.seat === undefined ? "Table" : seatName(env.seat);
  const data = env.data || {};
  const details = Object.entries(data).filter(([k]) => k !== "seat" || data.seat !== env.seat)
    .map(([k, v]) => `${words(k)} ${value(k, v, label)}`).join("; ");
  const cause = env.cause && env.cause !== "player" ? ` (${env.cause})` : "";
  return `v${env.version} · ${who} · ${words(env.type)}${cause}${details ? `: ${details}` : ""}`;
}
