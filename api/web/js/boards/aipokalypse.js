// A.I.Pokalypse: slots with the strength scale position, Red Slots, ammo, health stack and
// pool, faction, hand, battle cards and the reaction window; the A.I.Toma's board.
import { h } from "../dom.js";
import { COLOUR_LETTER, lookup } from "../cards.js";
import { field, row, section, seatTitle, stat } from "./common.js";

/** The printed strength scale: slot "pos" indexes it (rulebook: 1 up to 15, 10-12-15 at the top). */
export const SCALE = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15];
/** The rulebook's names of the modes and phases. */
const MODE_NAMES = { competitive: "competitive", solo: "Solo Mode", coop: "Cooperative Mode" };
const PHASE_NAMES = { recruitment: "Phase 1: Recruitment", battle: "Phase 2: Battle", draft: "Expert Variant draft",
  faction: "Game Setup: factions", ended: "ended" };
/** "A.I.Toma difficulty — starting cards" as the rulebook names them. */
const DIFFICULTY = { handy_man: "Handy-Man", boss: "Boss", endboss: "Endboss", untamed: "Untamed A.I.", untamed_ai: "Untamed A.I." };
const KIND_LETTER = { human: "H", mech: "M", mutant: "U", rogue: "R", ailien: "A" };

/** "Berserker (blue 1)" / "Big Benji": a card by its printed name (ids are not printed). */
export function label(cards, id) {
  const card = lookup(cards, id);
  if (!card) return String(id);
  return card.category === "basic" && card.color ? `${card.name} (${card.color} ${card.value})` : card.name;
}

/**
 * Where card `id` is for the action list (`alike.js`): "in your hand", "in your pool", "in
 * slot 2" (its unit), "under slot 2" (its slot card), "attached in slot 2", or null. Basic
 * units of one name, colour and value are the same card (their label says all three).
 * @param {Record<string, any>} view
 * @param {number|null} viewer
 * @param {any} id a card id (or the value of another field: null)
 * @returns {string|null}
 */
export function where(view, viewer, id) {
  const own = (view.seats || []).find((s) => s.seat === viewer);
  if (!own || typeof id !== "string") return null;
  if ((own.hand || []).includes(id)) return "in your hand";
  if ((own.pool || []).includes(id)) return "in your pool";
  for (const [i, slot] of (own.slots || []).entries()) {
    if (!slot) continue;
    if (slot.unit === id) return `in slot ${i}`;
    if (slot.card === id) return `under slot ${i}`;
    if ((slot.attached || []).includes(id)) return `attached in slot ${i}`;
  }
  return null;
}

/**
 * What a legal command adds to its button (as the terminal's `note`): a discard of a card
 * that is not in the hand says where the card is (" — in slot 1"): "Discard Patient Zero"
 * reads as a hand card (rulebook: "You can also discard cards from your hand or slots").
 * @param {Record<string, any>} action
 * @param {Record<string, any>} view
 * @param {number|null} viewer
 * @returns {string}
 */
export function note(action, view, viewer) {
  if (action.type !== "discard") return "";
  const place = where(view, viewer, action.card);
  return place && place !== "in your hand" ? ` — ${place}` : "";
}

/** A view value in words: a card id by its name, an object as "key value" pairs. */
function describe(cards, value) {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return label(cards, value);
  if (Array.isArray(value)) return value.map((v) => describe(cards, v)).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k.replace(/_/g, " ")} ${describe(cards, v)}`).join(", ");
  return String(value);
}

/** One card: name, colour/kind letters, value, difficulty, text. A null id is face down. */
export function tile(ctx, id, extra = "") {
  if (id === null || id === undefined) return h("div", { class: "card pk-card face-down", text: "face down" });
  const card = lookup(ctx.cards, id);
  if (!card) return ctx.mark(h("div", { class: "card pk-card unknown", "data-card": id, text: String(id) }), `card:${id}`);
  const colour = card.color || "none";
  const tags = [card.category, card.kind && `${card.kind} (${KIND_LETTER[card.kind] || "?"})`,
    card.color && `${card.color} (${COLOUR_LETTER[card.color] || "?"})`, card.difficulty].filter(Boolean).join(" · ");
  const el = h("div", { class: `card pk-card pk-${colour} ${extra}`, "data-card": id, title: `${card.name}: ${card.text}` },
    h("div", { class: "pk-top" }, h("b", { text: card.name }),
      card.value !== null && card.value !== undefined ? h("span", { class: "pk-value", text: `value ${card.value}` }) : null),
    h("div", { class: "pk-tags", text: tags }),
    h("p", { class: "card-text", text: card.text }));
  return ctx.mark(el, `card:${id}`);
}

/** The strength scale of a slot: each step, the unit's position marked (and a Red Slot's bonuses). */
function scale(pos, redCard, ctx) {
  const bonuses = (redCard && (lookup(ctx.cards, redCard) || {}).red_slot) || {};
  return h("ol", { class: "scale", "aria-label": `strength ${SCALE[pos] ?? "?"}` }, SCALE.map((value, i) =>
    h("li", { class: i === pos ? "here" : "", title: bonuses[value] ? `bonus: ${bonuses[value]}` : "" },
      String(value), bonuses[value] ? h("small", { text: bonuses[value][0].toUpperCase() }) : null)));
}

function slot(ctx, s, index, own, strengthNow) {
  const key = `slot:${index}`;
  const strength = s.strength !== undefined ? s.strength : (s.unit ? SCALE[s.pos] : 0);
  const el = h("div", { class: `slot${s.red ? " red-slot" : ""}${s.exhausted ? " exhausted" : ""}`, "data-slot": index },
    h("div", { class: "slot-head" }, h("b", { text: `Slot ${index}${s.red ? " — RED SLOT" : ""}` }),
      h("span", { text: `strength ${strength}${s.temp ? ` +${s.temp} temp` : ""}${s.ammo_temp ? ` +${s.ammo_temp} ammo temp` : ""}` }),
      strengthNow !== undefined ? h("span", { class: "now", text: ` in battle: ${strengthNow}` }) : null,
      s.exhausted ? h("span", { class: "tag", text: "EXHAUSTED" }) : null),
    s.unit ? tile(ctx, s.unit) : h("div", { class: "muted", text: "empty slot" }),
    s.unit && s.pos !== undefined ? scale(s.pos, s.red ? s.card : null, ctx) : null,
    s.red && s.card ? h("div", { class: "muted", text: `Red Slot card: ${label(ctx.cards, s.card)}` }) : null,
    !s.red && own && s.card ? h("div", { class: "muted", text: `Slot card: ${label(ctx.cards, s.card)}` }) : null,
    (s.pile || []).length > 1 ? h("div", { class: "muted", text: `Pile: ${s.pile.map((c) => label(ctx.cards, c)).join(", ")}` }) : null,
    (s.attached || []).length ? h("div", {}, "Attached: ", row(s.attached, (c) => tile(ctx, c))) : null,
    s.ammo_on ? stat("Ammo on it", s.ammo_on) : null,
    (s.battle || []).length ? h("div", { class: "battle-cards" }, h("b", { text: "Battle cards: " }),
      row(s.battle.map((b) => (Array.isArray(b) ? b[0] : b)), (c) => tile(ctx, c))) : null);
  return own ? ctx.mark(el, key) : el;
}

function seatBoard(ctx, view, s) {
  const own = s.seat === ctx.viewer;
  const faction = s.faction ? lookup(ctx.cards, s.faction) : null;
  return h("section", { class: `zone seat${own ? " own" : ""}${s.eliminated ? " eliminated" : ""}`, "data-seat": s.seat },
    h("h3", { text: `${seatTitle(ctx, s.seat)}${s.eliminated ? " — ELIMINATED" : ""}${s.ready ? " — ready" : ""}` }),
    h("p", {}, stat("Faction", faction ? faction.name : (s.faction || "hidden")), " ",
      stat("Total strength", field(s, "total_strength")), " ", stat("Points this battle", s.score), " ",
      stat("Health stack", s.health_count), " ", stat("Ammo", s.ammo), " ", stat("Hand", s.hand_count), " ",
      stat("Battle stack", s.battle_stack)),
    faction ? h("p", { class: "card-text", text: faction.text }) : null,
    (s.extra_factions || []).length ? h("p", {}, "Extra factions: ", s.extra_factions.map((f) => label(ctx.cards, f)).join(", ")) : null,
    h("h4", { text: `Pool (${(s.pool || []).length})` }), row(s.pool, (c) => tile(ctx, c)),
    h("h4", { text: "Slots" }),
    h("div", { class: "slots" }, (s.slots || []).length ? s.slots.map((sl, i) => slot(ctx, sl, i, own, fighting(s, i) ? (view.strengths || {})[String(s.seat)] : undefined)) :
      h("span", { class: "muted", text: "no slots yet" })),
    (s.beside || []).length ? h("div", {}, h("h4", { text: "Beside the board" }), row(s.beside.map((b) => b[0]), (c) => tile(ctx, c))) : null,
    s.current ? h("p", {}, stat("Current battle card", describe(ctx.cards, s.current))) : null,
    own ? privateCards(ctx, s) : null);
}

function privateCards(ctx, s) {
  const parts = [h("h4", { text: `Your hand (${(s.hand || []).length})` }), row(s.hand, (c) => tile(ctx, c))];
  for (const [key, title] of [["offered", "Factions offered"], ["offer", "Special Units offered"], ["stash", "Stash"],
    ["packet", "Draft packet"], ["drafted", "Drafted"], ["megaton", "Megaton"]]) {
    if ((s[key] || []).length) parts.push(h("h4", { text: title }), row(s[key], (c) => tile(ctx, c)));
  }
  for (const [name, cards] of Object.entries(s.tucked || {})) {
    if (cards.length) parts.push(h("h4", { text: `Tucked under ${name}` }), row(cards, (c) => tile(ctx, c)));
  }
  return h("div", { class: "private" }, parts);
}

function toma(ctx, t) {
  return section(`A.I.Toma (${DIFFICULTY[t.difficulty] || t.difficulty || "?"})${t.eliminated ? " — ELIMINATED" : ""}`,
    h("p", {}, stat("Total strength", field(t, "total_strength")), " ", stat("Points this battle", t.score), " ", stat("Health stack", t.health_count), " ", stat("Ammo", t.ammo), " ",
      stat("Ammo strength", t.ammo_strength), " ", stat("Battle stack", t.battle_stack)),
    t.passive ? h("p", { text: `Passive (last Special Unit of its pool): its ${t.passive.color || "Rogue"} units gain ${t.passive.bonus} temporary strength` }) : null,
    h("h4", { text: "Pool" }), row(t.pool, (c) => tile(ctx, c)),
    h("div", { class: "slots" }, (t.slots || []).map((sl, i) => slot(ctx, sl, i, false))),
    t.boards ? Object.entries(t.boards).map(([k, b]) => h("div", {}, h("h4", { text: `Board of ${ctx.seatName(Number(k))}` }),
      h("div", { class: "slots" }, (b.slots || []).map((sl, i) => slot(ctx, sl, i, false))))) : null);
}

/** A side's name: the A.I.Toma by its name, a seat as the match lists it. */
function sideName(ctx, view, seat) {
  const toma = field(view, "toma");
  return toma && toma.seat === seat ? "A.I.Toma" : ctx.seatName(seat);
}

/** The slot that fights for `s` this point (its current battle card's slot). */
function fighting(s, i) {
  return Boolean(s && s.current && s.current.fights && s.current.slot === i);
}

/**
 * The point being fought, as a battle: each side's battle card beside the others, the unit
 * that fights with it, its battle strength, who is winning the point, and the points so far.
 */
function battlePanel(ctx, view) {
  const battle = view.battle || {};
  const strengths = view.strengths || {};
  const sides = [...(view.seats || []).filter((s) => !s.eliminated)];
  const toma = field(view, "toma");
  if (toma && !toma.eliminated) sides.push({ ...toma, toma: true });
  if (!sides.some((s) => s.current)) return null;
  const values = sides.map((s) => Number(strengths[String(s.seat)] ?? 0));
  const best = Math.max(...values);
  const scores = battle.scores || {};
  return h("section", { class: "zone battle", "aria-label": "Battle" },
    h("h3", { text: `Battle — point ${Number(battle.point ?? 0) + 1} of ${battle.cards ?? "?"} battle cards` }),
    h("div", { class: "duel" }, sides.map((s, i) => {
      const current = s.current || {};
      const unitSlot = Number.isInteger(current.slot) ? (s.slots || [])[current.slot] : null;
      const unit = unitSlot && unitSlot.unit ? lookup(ctx.cards, unitSlot.unit) : null;
      const leading = values[i] === best && current.card;
      const name = s.toma ? "The A.I.Toma" : ctx.seatName(s.seat) + (s.seat === ctx.viewer ? " (you)" : "");
      return h("div", { class: `fighter${leading ? " leading" : ""}`, "data-seat": s.seat },
        h("h4", { text: name }),
        current.card ? tile(ctx, current.card, "battle-card") : h("div", { class: "card pk-card face-down", text: "no battle card yet" }),
        h("p", { text: unit ? `Fights with slot ${current.slot}: ${unit.name}` : "No unit of its colour: the card value alone" }),
        h("p", { class: "strength" }, "Battle strength ", h("b", { text: String(values[i]) }),
          current.ammo ? ` (ammo ${current.ammo})` : "", current.bonus ? ` (+${current.bonus} bonus)` : ""),
        h("p", { class: "verdict", text: leading ? "▲ winning this point" + (values.filter((v) => v === best).length > 1 ? " (tied)" : "") : "▽ losing this point" }),
        h("p", { class: "muted small", text: `Points this battle: ${scores[String(s.seat)] ?? s.score ?? 0}` }));
    })));
}

/** Draw the board from the viewer's view. */
export function render(view, ctx) {
  const battle = view.battle || {};
  const choice = view.choice;
  const reacting = ctx.pendingKind === "react";
  const seats = [...(view.seats || [])].sort((a, b) => (a.seat === ctx.viewer ? -1 : b.seat === ctx.viewer ? 1 : a.seat - b.seat));
  return h("div", { class: "board pk" },
    h("div", { class: "board-head" }, stat("Phase", PHASE_NAMES[view.phase] || view.phase), stat("Round", view.round), stat("Mode", MODE_NAMES[view.mode] || view.mode),
      view.sudden_death ? h("span", { class: "tag", text: "SUDDEN DEATH" }) : null,
      view.apocalypse ? h("span", { class: "tag", text: "A.I.POKALYPSE" }) : null,
      stat("Draw pile", view.draw_pile), stat("Discard pile", (view.discard_pile || []).length),
      stat("Special Units deck", view.specials_deck), stat("Ammo deck", view.ammo_deck),
      // in Recruitment every seat sees the shared piles as the phase began (RULINGS R-PRIVACY)
      view.phase === "recruitment" ? h("span", { class: "muted small", text: "(piles as Recruitment began)" }) : null,
      // the point being fought, counted from 1 as the battle panel counts it; only in battle
      view.phase === "battle" ? stat("Battle", `point ${Math.min(Number(battle.point ?? 0) + 1, Number(battle.cards) || 1)} of ${battle.cards ?? "?"}`) : null,
      battle.scores ? stat("Points won", Object.entries(battle.scores).map(([s, n]) => `${sideName(ctx, view, Number(s))} ${n}`).join(", ")) : null),
    reacting ? h("div", { class: "callout", role: "alert", text: "Reaction window: react with a card or ammo, or pass." }) : null,
    view.phase === "battle" ? battlePanel(ctx, view) : null,
    choice ? h("div", { class: "callout" }, h("b", { text: `${ctx.seatName(choice.seat)} decides` }),
      choice.prompt ? `: ${choice.prompt}` : (choice.kind ? ` (${choice.kind.replace(/_/g, " ")})` : ""),
      choice.options ? h("ul", {}, choice.options.map((o) => h("li", { text: describe(ctx.cards, o) }))) : null) : null,
    (view.table_factions || []).length ? section("Factions on the table", row(view.table_factions, (c) => tile(ctx, c))) : null,
    field(view, "toma") ? toma(ctx, view.toma) : null,
    ...seats.map((s) => seatBoard(ctx, view, s)));
}
