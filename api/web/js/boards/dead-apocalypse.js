// Dead Apocalypse: the Zombie Row over the Resource Row in aligned columns, hands, deck
// and discard counts, Locations with their occupants, Call for Help prompts.
import { h } from "../dom.js";
import { lookup } from "../cards.js";
import { phrasesOf } from "../words.js";
import { row, section, seatTitle, stat } from "./common.js";

const FACTION_LETTER = { Survivor: "S", Civilian: "C", Military: "M", Armory: "A", Medical: "D",
  Walker: "W", Runner: "R", Brute: "B", Toxic: "T", Infection: "I", CDC: "X" };

/** "Survivor (survivor#s0.4)" -> shown as its title; the id stays in data-card. */
export function label(cards, id) {
  const card = lookup(cards, id);
  return card ? card.title : String(id);
}

/**
 * Where card `id` is in the view of seat `viewer`, in words ("in your hand", "in Zombie Row
 * column 2"), or null: the action list tells apart moves whose words are the same
 * (`alike.js`). Identical cards in one place are the same move (rulebook: Occupying Locations
 * takes "a Human from his/her hand"; a Zombie is told by its column). A `defeat`'s `spend`
 * plan (`[[damage entry, amount], ...]`) is said as the damage it spends.
 * @param {Record<string, any>} view
 * @param {number|null} viewer
 * @param {any} id a card id (or the value of `field`)
 * @param {string} [field] the command's field
 * @returns {string|null}
 */
export function where(view, viewer, id, field = "card") {
  if (field === "spend") return spendWords(view, id);
  if (typeof id !== "string") return null;
  const column = (rowOf) => (view[rowOf] || []).findIndex((c) => c && c.card === id);
  const z = column("zombie_row");
  if (z >= 0) return `in Zombie Row column ${z}`;
  const r = column("resource_row");
  if (r >= 0) return `in Resource Row column ${r}`;
  for (const s of view.seats || []) {
    const whose = s.seat === viewer ? "your" : `Seat ${s.seat}'s`;
    if ((s.hand || []).includes(id)) return `in ${whose} hand`;
    if ((s.played || []).includes(id)) return `among ${whose} cards played this turn`;
    for (const [i, loc] of (s.locations || []).entries()) {
      if (loc.card === id) return `among ${whose} Locations`;
      if ((loc.occupants || []).some((o) => (o.card || o.id || o) === id)) return `occupying ${whose} Location ${i + 1}`;
    }
    if ((s.discard || []).includes(id)) return `in ${whose} discard pile`;
  }
  if ((view.events_aside || []).includes(id)) return "among the Events set aside";
  return null;
}

/**
 * "spending 2 of Sniper, 1 of Survivor #2" (a title twice in the pool: which of them, counted
 * among that title's entries); the bare command (no plan) spends "the default way" (ruling
 * R-SPEND: the same as one of the plans, which the engine lists first).
 */
function spendWords(view, plan) {
  const pool = view.damage || [];
  if (plan === undefined || plan === null) return "spending the default way";
  if (!Array.isArray(plan) || !plan.length) return null;
  const named = poolNames(pool);
  const parts = plan.map(([index, amount]) => (pool[index] ? `${amount} of ${named[index]}` : null));
  return parts.every(Boolean) ? `spending ${parts.join(", ")}` : null;
}

/**
 * What a legal command adds to its button (as the terminal's `note`): taking the Resource
 * Row card after an assisted Combat names it (" — Shotgun, Resource Row column 2";
 * rulebook, After Combat: "take the adjacent card").
 * @param {Record<string, any>} action
 * @param {Record<string, any>} view
 * @returns {string}
 */
export function note(action, view) {
  if (action.type !== "claim" || action.choice !== "resource") return "";
  const prompt = view.prompt || {};
  const row = view.resource_row || [];
  if (prompt.kind !== "reward" || !Number.isInteger(prompt.column) || prompt.column >= row.length) return "";
  const entry = row[prompt.column] || {};
  return entry.title ? ` — ${entry.title}, Resource Row column ${prompt.column}` : "";
}

/**
 * Each damage pool entry's name: its title, and "#k" when the title is there twice (k counted
 * among that title's entries), as the terminal's `pool_names`.
 * @param {Array<Record<string, any>>} pool
 * @returns {string[]}
 */
export function poolNames(pool) {
  const titles = pool.map((d) => String(d.title ?? "?"));
  return titles.map((t, i) => (titles.filter((x) => x === t).length > 1
    ? `${t} #${titles.slice(0, i + 1).filter((x) => x === t).length}` : t));
}

/** One card tile: title, kind, faction letter, damage / HP / occupancy, text. */
export function tile(ctx, id, info = null, key = `card:${id}`) {
  const card = info || lookup(ctx.cards, id);
  if (!card) return ctx.mark(h("div", { class: "card da-card unknown", "data-card": id, text: String(id) }), key);
  const numbers = [card.kind === "zombie" ? `HP ${card.hp}` : null,
    card.damage ? `+${card.damage} damage` : null, card.occupancy ? `occupancy ${card.occupancy}` : null].filter(Boolean).join(" · ");
  const el = h("div", { class: `card da-card da-${card.kind}`, "data-card": id, title: `${card.title}: ${card.text}` },
    h("div", { class: "pk-top" }, h("b", { text: card.title }), h("span", { class: "letter", text: `${FACTION_LETTER[card.faction] || "?"}` })),
    h("div", { class: "pk-tags", text: `${card.kind} · ${card.faction}${numbers ? ` · ${numbers}` : ""}` }),
    h("p", { class: "card-text", text: card.text }));
  return ctx.mark(el, key);
}

function rows(ctx, view) {
  const zombies = view.zombie_row || [];
  const resources = view.resource_row || [];
  const columns = Math.max(zombies.length, resources.length, 5);
  const cells = [];
  for (let c = 0; c < columns; c++) {
    const z = zombies[c];
    const zcell = h("div", { class: `row-cell zombie${z && z.attacking ? " attacking" : ""}`, "data-column": c },
      h("div", { class: "col-label", text: `Column ${c} · Zombie` }),
      z ? tile(ctx, z.card, z) : h("span", { class: "muted", text: "empty" }),
      z && z.attacking ? h("div", { class: "tag", text: "ATTACKING" }) : null,
      z && z.immune && Object.keys(z.immune).length ? h("div", { class: "muted immune", text: `Immune: ${Object.values(z.immune).flat().join(", ")}` }) : null);
    cells.push(ctx.mark(zcell, `column:${c}`));
  }
  for (let c = 0; c < columns; c++) {
    const r = resources[c];
    cells.push(h("div", { class: "row-cell resource", "data-column": c },
      h("div", { class: "col-label", text: `Column ${c} · Resource` }),
      r ? tile(ctx, r.card, r) : h("span", { class: "muted", text: "empty" })));
  }
  return h("div", { class: "rows", style: `--cols:${columns}` }, cells);
}

// Why a conditional damage entry is worth what it is now (ruling R-CONDITION: counted when the
// damage is spent): the condition in the phrasebook's words (its `condition` part, which the
// log's DamageGained sentence says too), as cli/render/dead_apocalypse.py condition_words.
export function conditionWords(d, phrases) {
  const cond = d.cond;
  // a plain entry is never gained at 0 (effects.gain_damage): 0 left is all spent
  if (!cond || typeof cond !== "object") return d.amount === 0 ? " (spent)" : "";
  let words = phrases ? phrases.part("condition", cond) : "";
  if (d.spent) words = words ? `${words}, ${d.spent} spent` : `${d.spent} spent`;
  return words ? ` (${words})` : "";
}

function helpPrompt(ctx, view) {
  const help = view.help || {};
  const out = [];
  if (help.called) {
    const queue = (help.queue || []).map((s) => ctx.seatName(s)).join(", ");
    out.push(h("div", { class: "callout", role: "alert" },
      h("b", { text: `${ctx.seatName(view.active)} calls for help. ` }),
      queue ? `Waiting for: ${queue}. ` : "",
      help.assisting !== null && help.assisting !== undefined ? `${ctx.seatName(help.assisting)} is assisting. ` : "",
      (help.assisted || []).length ? `Assisted by ${(help.assisted || []).map((s) => ctx.seatName(s)).join(", ")}.` : "",
      (help.queue || []).includes(ctx.viewer) ? h("div", { text: "You may assist or decline." }) : null));
  }
  if (view.prompt) {
    out.push(h("div", { class: "callout" }, h("b", { text: "Prompt: " }), promptWords(ctx, view)));
  }
  return out;
}

/**
 * An open prompt in a sentence, as the terminal's prompt panel says it: Ditch cards (how many,
 * from where, whose card asks), place a Human beneath a Location, or an assisting seat's reward
 * (the Resource Row card of the defeated column, named, or an Adept Survivor).
 * @param {any} ctx
 * @param {Record<string, any>} view
 * @returns {string}
 */
export function promptWords(ctx, view) {
  const p = view.prompt || {};
  const whose = p.seat === ctx.viewer ? "you" : ctx.seatName(p.seat);
  if (p.kind === "ditch") return `${whose}: Ditch ${p.remaining} card(s) from ${p.from || "hand"} (${label(ctx.cards, p.source)})`;
  if (p.kind === "occupy") return `${whose}: place a Human beneath a Location (${label(ctx.cards, p.source)})`;
  if (p.kind === "reward") {
    const resource = (view.resource_row || []).find((r) => r && r.column === p.column);
    const offered = resource && !p.taken ? `the Resource Row card of column ${p.column} (${label(ctx.cards, resource.card)}) or ` : "";
    return `${whose}: the reward for assisting - ${offered}an Adept Survivor`;
  }
  return `${whose}: ${String(p.kind).replace(/_/g, " ")}`;
}

function seatBoard(ctx, view, s) {
  const own = s.seat === ctx.viewer;
  return h("section", { class: `zone seat${own ? " own" : ""}${s.seat === view.active ? " active" : ""}`, "data-seat": s.seat },
    h("h3", { text: `${seatTitle(ctx, s.seat)}${s.seat === view.active ? " — active player" : ""}` }),
    h("p", {}, stat("Deck", s.deck_count), " ", stat("Hand", s.hand_count), " ", stat("Discard", (s.discard || []).length)),
    own ? h("div", {}, h("h4", { text: "Your hand" }), row(s.hand, (c) => tile(ctx, c))) : null,
    h("h4", { text: "Played this turn" }), row(s.played, (c) => tile(ctx, c)),
    h("h4", { text: "Locations" }),
    h("div", { class: "card-row" }, (s.locations || []).length ? s.locations.map((loc) => h("div", { class: "location" },
      tile(ctx, loc.card),
      h("div", { class: "occupants" }, "Occupants: ", (loc.occupants || []).length
        ? (loc.occupants || []).map((o) => tile(ctx, o.card || o.id || o)) : h("span", { class: "muted", text: "none" }))))
      : h("span", { class: "muted", text: "none" })),
    (s.discard || []).length ? h("details", {}, h("summary", { text: `Discard pile (${s.discard.length})` }), row(s.discard, (c) => tile(ctx, c))) : null);
}

/** Draw the board from the viewer's view. */
export function render(view, ctx) {
  const opts = view.options || {};
  const damage = (view.damage || []).reduce((n, d) => n + (d.amount || 0), 0);
  const seats = [...(view.seats || [])].sort((a, b) => (a.seat === ctx.viewer ? -1 : b.seat === ctx.viewer ? 1 : a.seat - b.seat));
  return h("div", { class: "board da" },
    h("div", { class: "board-head" }, stat("Turn", view.turn), stat("Active", ctx.seatName(view.active)),
      stat("Difficulty", opts.difficulty), stat("Zombie Stack", view.zombie_stack_count),
      stat("Resource Stack", view.resource_stack_count), stat("Infections", view.infection_stack_count),
      stat("Adept Survivors", view.adept_stack_count), stat("Ditch", (view.ditch || []).length),
      stat("Defeated this turn", view.defeated_this_turn),
      view.cdc_holder !== null && view.cdc_holder !== undefined ? stat("CDC", ctx.seatName(view.cdc_holder)) : null),
    helpPrompt(ctx, view),
    section("Zombie Row over Resource Row", rows(ctx, view)),
    section(`Damage left this turn: ${damage}`, h("ul", { class: "damage" }, (view.damage || []).map((d, i, pool) =>
      h("li", { text: `${poolNames(pool)[i]} (${ctx.seatName(d.seat)}${d.ally ? ", ally" : ""}): +${d.amount}${conditionWords(d, phrasesOf(ctx.cards))}` })))),
    (view.events_aside || []).length ? section("Events set aside", row(view.events_aside, (c) => tile(ctx, c))) : null,
    ...seats.map((s) => seatBoard(ctx, view, s)));
}
