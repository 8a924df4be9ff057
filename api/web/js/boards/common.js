// Pieces every board uses: sections, counters, seat headings, a card list.
import { h } from "../dom.js";

/** A titled board section. */
export function section(title, ...children) {
  return h("section", { class: "zone" }, h("h3", { text: title }), ...children);
}

/** "label: value" as a small stat. */
export function stat(label, value) {
  return h("span", { class: "stat" }, h("span", { class: "stat-label", text: `${label}: ` }),
    h("b", { text: value === null || value === undefined ? "–" : String(value) }));
}

/** A row of cards (or "none" when empty). */
export function row(cards, draw, empty = "none") {
  const list = (cards || []).filter((c) => c !== null && c !== undefined);
  return h("div", { class: "card-row" }, list.length ? list.map(draw) : h("span", { class: "muted", text: empty }));
}

/** The seat's name as the match lists it ("Seat 1 · ann (you)"). */
export function seatTitle(ctx, seat) {
  return ctx.seatName(seat) + (seat === ctx.viewer ? " (you)" : "");
}

/** The view field if present, else the fallback: views may gain or lose fields. */
export function field(obj, key, fallback = null) {
  return obj && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : fallback;
}
