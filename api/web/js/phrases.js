// A game's phrasebook (domain/games/<game>/phrasebook.json, served with its card data):
// every event and command in the rulebook's words. The same renderer as the terminal's
// cli/render/phrases.py (tests/unit/test_phrasebooks.py holds both to the same sentences);
// the format is described there and in docs/client-developers.md.

const PLACEHOLDER = /\{([A-Za-z_][\w.]*)(?::([^{}]*))?\}/g;
/** @type {Record<string, [string, string]>} */
const VERBS = { s: ["", "s"], es: ["", "es"], is: ["are", "is"], has: ["have", "has"], was: ["were", "was"], your: ["your", "their"] };
/** @type {Record<string, string>} */
const IRREGULAR = { ammo: "ammo", damage: "damage", strength: "strength", VP: "VP", Infection: "Infections",
  "health point": "health points", copy: "copies", battle: "battles", ally: "allies", enemy: "enemies" };

/** "3 cards" / "1 card"; the noun may name its plural after a "|". */
export function plural(noun, count) {
  const [one, given] = noun.split("|");
  let many = given;
  if (!many) {
    many = IRREGULAR[one] || (/[^aeiou]y$/.test(one) ? `${one.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(one) ? `${one}es` : `${one}s`);
  }
  return `${count} ${count === 1 ? one : many}`;
}

/** "A", "A and B", "A, B and C"; `empty` for none. */
export function join(items, empty = "nothing") {
  const list = items.filter((x) => x);
  if (!list.length) return empty;
  return list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/**
 * A seat in a sentence: "you" for the reader, "Seat 1 (greedy bot)", "ann (seat 2)", "Seat 2".
 * @param {any} seat @param {any[]} seats @param {number|null} you @param {boolean} [subject]
 */
export function seatName(seat, seats, you, subject = false) {
  if (seat === null || seat === undefined) return subject ? "The table" : "the table";
  if (seat === you) return subject ? "You" : "you";
  const info = (seats || []).find((s) => s.seat === seat) || {};
  if (info.kind === "table" && info.name) return subject ? info.name[0].toUpperCase() + info.name.slice(1) : info.name;
  if (info.kind === "bot" || info.bot) return `Seat ${seat} (${info.bot || "a"} bot)`;
  if (info.name) return `${info.name} (seat ${seat})`;
  return `Seat ${seat}`;
}

/** "end_turn"/"CardDrafted" -> "end turn"/"card drafted". */
export function wordsOf(key) {
  const spaced = String(key).replace(/([a-z0-9])(?=[A-Z])/g, "$1 ").replace(/_/g, " ");
  return /[A-Z]/.test(String(key).slice(1)) ? spaced.toLowerCase() : spaced;
}

function capital(t) { return t ? t[0].toUpperCase() + t.slice(1) : t; }

/** Spaces tidied (a player's name keeps its case). */
export function sentence(text) {
  return text.replace(/\s+/g, " ").trim().replace(/\s+([,.;:)])/g, "$1");
}

/** [1, 2] -> "row 1, column 2". */
export function cell(v) {
  return Array.isArray(v) && v.length === 2 ? `row ${v[0]}, column ${v[1]}` : String(v);
}

function ordinal(v) {
  const n = Number(v);
  if (!Number.isInteger(n)) return String(v);
  const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
  return `${n}${suffix}`;
}

/** data.a.b for "a.b" (list items by number); undefined when absent. */
export function lookupPath(data, path) {
  let v = data;
  for (const part of path.split(".")) {
    if (v && typeof v === "object") v = Array.isArray(v) ? (/^\d+$/.test(part) ? v[Number(part)] : undefined) : v[part];
    else return undefined;
  }
  return v;
}

function items(v) {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === "object") return Object.values(v);
  return [v];
}

function text(v) {
  if (typeof v === "boolean") return v ? "true" : "false";
  return v === null || v === undefined ? "" : String(v);
}

/** Every "&"-joined condition holds (see cli/render/phrases.py). */
export function holds(conditions, data, mine) {
  for (const raw of String(conditions || "").split("&")) {
    let cond = raw.trim();
    if (!cond) continue;
    const negate = cond.startsWith("!") && !cond.includes("=");
    if (negate) cond = cond.slice(1);
    let ok;
    if (cond === "you") ok = mine;
    else if (cond.includes("!=")) { const [p, w] = cond.split("!="); ok = text(lookupPath(data, p.trim())) !== w.trim(); }
    else if (cond.includes("=")) { const [p, w] = cond.split("="); ok = text(lookupPath(data, p.trim())) === w.trim(); }
    else {
      const v = lookupPath(data, cond);
      ok = !(v === undefined || v === null || v === false || v === 0 || v === ""
        || (Array.isArray(v) && !v.length) || (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length));
    }
    if (ok === negate) return false;
  }
  return true;
}

/**
 * One game's phrasebook for one reader.
 * @param {any} book the "phrasebook" member of GET /v1/games/{game}/cards ({} or null: type words)
 * @param {(id: any) => any} faces the card data of an id
 */
export function phrasebook(book, faces) {
  const pb = book || {};

  function card(id) {
    const face = faces(id);
    if (!face) return String(id);
    const rules = pb.card || {};
    const template = rules[face.category || ""] || rules[face.kind || ""] || rules["*"];
    if (!template) return String(face.name || face.title || id);
    return fill(template, { ...face, id }, null, [], null).trim();
  }

  function cardText(id) {
    const face = faces(id) || {};
    const t = String(face.text || "").trim();
    return t ? `${card(id)} — ${t}` : card(id);
  }

  function term(name, v) {
    const table = (pb.terms || {})[name] || {};
    const key = typeof v === "boolean" ? (v ? "true" : "false") : String(v);
    return Object.prototype.hasOwnProperty.call(table, key) ? String(table[key]) : wordsOf(String(v));
  }

  function value(v, fmt, seats, you) {
    const i = fmt.indexOf(":");
    const kind = i < 0 ? fmt : fmt.slice(0, i);
    const arg = i < 0 ? "" : fmt.slice(i + 1);
    switch (kind) {
      case "card": return v === null || v === undefined ? "a card" : card(v);
      case "card+text": return cardText(v);
      case "cards": return join(items(v).map((c) => card(c && typeof c === "object" ? c.card : c)), "no cards");
      case "by_seat": {
        const pairs = Array.isArray(v) ? v.map((x, k) => [String(k), x]) : v && typeof v === "object" ? Object.entries(v) : [];
        return join(pairs.map(([k, x]) => `${seatName(/^\d+$/.test(k) ? Number(k) : k, seats, you)} (${x})`), "nobody");
      }
      case "thing": return faces(v) ? card(v) : term("option", v);
      case "each": {
        const part = (pb.parts || {})[arg] || "";
        return join(items(v).filter((x) => x && typeof x === "object").map((x) => fill(part, x, null, seats, you)), "nothing");
      }
      case "part": return v && typeof v === "object" ? part(arg, v, seats, you) : "";
      case "command": return v && typeof v === "object" ? api.command(v, seats, you) : "";
      case "events": return items(v).filter((e) => e && typeof e === "object").map((e) => api.event(e, seats, you).replace(/\.$/, "")).join("; ") || "nothing to show";
      case "seat": return seatName(v, seats, you);
      case "Seat": return seatName(v, seats, you, true);
      case "seats": return join(items(v).map((s) => seatName(s, seats, you)), "nobody");
      case "cell": return cell(v);
      case "cells": return join(items(v).map(cell), "no cell");
      case "n": { const count = Array.isArray(v) ? v.length : v; return plural(arg || "item", count === null || count === undefined ? 0 : count); }
      case "term": return term(arg, v);
      case "words": return v === null || v === undefined ? "" : wordsOf(String(v));
      case "list": return join(items(v).map((x) => wordsOf(String(x))), "none");
      case "ordinal": return ordinal(v);
      default:
        if (typeof v === "boolean" || v === null || v === undefined) return "";
        if (typeof v === "object") return join(items(v).map(String));
        return String(v);
    }
  }

  function fill(template, data, seat, seats, you) {
    const mine = seat !== null && seat !== undefined && seat === you;
    return template.replace(PLACEHOLDER, (_m, name, fmt) => {
      if ((name === "who" || name === "Who") && fmt === undefined) return seatName(seat, seats, you, name === "Who");
      if (VERBS[name] && fmt === undefined) return VERBS[name][mine ? 0 : 1];
      return value(lookupPath(data, name), fmt || "", seats, you);
    });
  }

  function say(entry, data, seat, seats, you) {
    for (const alt of Array.isArray(entry) ? entry : [entry]) {
      if (typeof alt === "string") return fill(alt, data, seat, seats, you);
      if (alt && typeof alt === "object" && holds(alt.when || "", data, you !== null && you !== undefined && seat === you)) {
        return fill(String(alt.say || ""), data, seat, seats, you);
      }
    }
    return "";
  }

  /** parts[name] (a template or alternatives) over `data`; "" when the book has none. */
  function part(name, data, seats, you) {
    const entry = (pb.parts || {})[name];
    return entry === undefined ? "" : say(entry, data, null, seats || [], you);
  }

  const api = {
    card, cardText, term, part,
    /** An event envelope (redacted for the reader) as one sentence. */
    event(env, seats, you) {
      const kind = String(env.type || "");
      const entry = (pb.events || {})[kind];
      let t = entry !== undefined ? say(entry, env.data || {}, env.seat, seats || [], you) : capital(wordsOf(kind));
      if (env.cause && env.cause !== "player" && env.cause !== "bot" && entry !== undefined) t += ` (${term("cause", env.cause)})`;
      return sentence(t);
    },
    /** A legal command as the reader's choice. */
    command(action, seats, you) {
      const kind = String(action.type || "");
      const entry = (pb.commands || {})[kind];
      return sentence(entry === undefined ? capital(wordsOf(kind)) : say(entry, action, you, seats || [], you));
    },
  };
  return api;
}
