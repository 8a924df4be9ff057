// AI: 100% Human: 3 x 5 tableaux with corner connectors, AI card, hand, reserve,
// objectives and scores; the 2-player neutral grid; the solo draft grid, standee, timer
// stack and rating ladder.
import { h } from "../dom.js";
import { COLOUR_LETTER, lookup } from "../cards.js";
import { field, row, section, seatTitle, stat } from "./common.js";

const CORNERS = ["tl", "tr", "bl", "br"];
/** The rulebook's names of the modes ("2-Player Mode", "Solo Mode"). */
const MODE_NAMES = { solo: "Solo Mode", duo: "2-Player Mode", standard: "3-6 players" };
/** The steps of a turn in the rulebook's words ("2 Phases Overview" A-F). */
const STEP_NAMES = { setup: "setup", draft: "draft", discard: "discard (2-Player Mode)", place: "place a card",
  resolve: "black cards", extra: "AI card effects", finished: "finished" };
const CORNER_WORDS = { tl: "top left", tr: "top right", bl: "bottom left", br: "bottom right" };

/** "071 R3" / "AI-5 G2" / "Omega-3". */
export function label(cards, id) {
  const card = lookup(cards, id);
  if (!card || card.kind === "objective") return String(id);
  return `${id} ${COLOUR_LETTER[card.color] || "?"}${card.number}`;
}

/** One card tile: colour and number as letters too, four corner connectors, text on hover. */
export function tile(ctx, id, key = `card:${id}`) {
  const card = lookup(ctx.cards, id);
  if (!card) return ctx.mark(h("div", { class: "card a1-card unknown", "data-card": id, text: String(id) }), key);
  const letter = COLOUR_LETTER[card.color] || "?";
  const corners = CORNERS.map((k) => {
    const c = (card.corners || {})[k];
    return c ? h("span", { class: `corner ${k} col-${c.color}`, title: `${CORNER_WORDS[k]}: ${c.color} ${c.number}`,
      text: `${COLOUR_LETTER[c.color] || "?"}${c.number}` }) : null;
  });
  const el = h("div", { class: `card a1-card col-${card.color}${card.kind === "ai" ? " ai" : ""}`, "data-card": id,
    title: `${id}: ${card.color} ${card.number}. ${card.text || ""}`,
    "aria-label": `Card ${id}, ${card.color} ${card.number}` },
  ...corners,
  h("span", { class: "face", text: `${letter}${card.number}` }),
  h("span", { class: "cid", text: card.kind === "ai" ? id : `#${id}` }));
  return ctx.mark(el, key);
}

/**
 * Where card `id` is for the action list (`alike.js`): "in your hand" or null (a card's
 * label names its id, so no two cards' moves share words).
 * @param {Record<string, any>} view
 * @param {number|null} _viewer
 * @param {any} id a card id (or the value of another field: null)
 * @returns {string|null}
 */
export function where(view, _viewer, id) {
  const you = field(view, "you");
  return you && typeof id === "string" && (you.hand || []).includes(id) ? "in your hand" : null;
}

/** A card with its effect text beside (hand, dealt, AI choice). */
function withText(ctx, id, cls = "") {
  const card = lookup(ctx.cards, id);
  return h("div", { class: `card-with-text ${cls}` }, tile(ctx, id), h("p", { class: "card-text", text: card ? card.text : "" }));
}

/**
 * A grid of `{cell:[r,c], card}` entries: at least rows x cols, grown to every cell a card
 * lies on or an action names (AI-2's extra card goes outside the frame, ruling R-AI2).
 * Cells are marked clickable when `own`.
 */
function grid(ctx, entries, rows, cols, own, cls = "tableau") {
  const at = new Map((entries || []).map((e) => [String(e.cell), e.card]));
  const cellsUsed = (entries || []).map((e) => e.cell);
  if (own) cellsUsed.push(...ctx.targetCells());
  const r0 = Math.min(0, ...cellsUsed.map((c) => c[0]));
  const c0 = Math.min(0, ...cellsUsed.map((c) => c[1]));
  const r1 = Math.max(rows - 1, ...cellsUsed.map((c) => c[0]));
  const c1 = Math.max(cols - 1, ...cellsUsed.map((c) => c[1]));
  const cells = [];
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const id = at.get(`${r},${c}`);
      const key = `cell:${r},${c}`;
      const inFrame = r >= 0 && r < rows && c >= 0 && c < cols;
      const here = own && !id ? previewsAt(ctx, r, c) : [];
      const cell = h("div", { class: `cell${inFrame ? "" : " outside"}`, "data-cell": `${r},${c}`,
        "aria-label": `row ${r}, column ${c}${inFrame ? "" : " (outside the frame)"}${here.length ? `: ${here.map(previewWords(ctx)).join(", ")}` : ""}` },
      id ? tile(ctx, id) : h("span", { class: "cell-name", text: `${r},${c}` }),
      here.length ? h("span", { class: "preview", text: here.map(previewWords(ctx)).join("\n") }) : null);
      cells.push(own ? ctx.mark(cell, key) : cell);
    }
  }
  return h("div", { class: cls, style: `--cols:${c1 - c0 + 1}` }, cells);
}

/** The two objectives, one line each, the current one marked (always in view). */
/**
 * The VP previews (view.you.previews: each legal placement's VP now) of an empty cell: only
 * the selected card's when a card is selected.
 */
function previewsAt(ctx, r, c) {
  const all = (ctx.previews || []).filter((p) => p.cell[0] === r && p.cell[1] === c);
  const chosen = (ctx.selected || []).filter((k) => k.startsWith("card:")).map((k) => k.slice(5));
  return chosen.length ? all.filter((p) => chosen.includes(p.card)) : all;
}

/** "G4 +3 VP" ("K2 VP later" for a black card, scored after the others). */
function previewWords(ctx) {
  return (p) => `${label(ctx.cards, p.card).split(" ")[1] || p.card} ${p.vp === null || p.vp === undefined ? "VP later" : `+${p.vp} VP`}`;
}

/** What a legal command adds to its button: a placement's VP preview (" → +3 VP"). */
export function note(action, view) {
  if (action.type !== "place") return "";
  const p = ((view.you || {}).previews || []).find((x) => x.card === action.card && x.cell[0] === action.cell[0] && x.cell[1] === action.cell[1]);
  if (!p) return "";
  return p.vp === null || p.vp === undefined ? " → VP after the black cards" : ` → +${p.vp} VP`;
}

function objectives(ctx, view) {
  const obj = field(view, "objectives", {}) || {};
  return h("ul", { class: "objectives", "aria-label": "Objectives" }, Object.entries(obj).map(([phase, id]) => {
    const card = lookup(ctx.cards, id);
    const now = id === view.current_objective;
    return h("li", { class: now ? "current" : "" },
      h("b", { text: `${now ? "▶ " : ""}${phase.replace("phase", "Phase ")} objective ${id}${now ? " (now)" : ""}: ` }),
      card ? card.text : "");
  }));
}

/** The solo dividers as chips ("row 0: green (G)"), the standee's marked with a star. */
function dividers(s) {
  const d = s.dividers || {};
  const st = s.standee && typeof s.standee === "object" ? s.standee : null;
  const chips = [];
  for (const line of ["rows", "columns"]) {
    (d[line] || []).forEach((colour, i) => {
      const here = st && st.line === line.slice(0, -1) && st.index === i;
      chips.push(h("span", { class: `divider col-${colour}${here ? " standee" : ""}`,
        text: `${line.slice(0, -1)} ${i}: ${colour} (${COLOUR_LETTER[colour] || "?"})${here ? " ★ standee" : ""}` }));
    });
  }
  return h("div", { class: "dividers" }, chips);
}

function solo(ctx, s) {
  const draft = grid(ctx, s.draft_grid, 3, 3, true, "tableau draft");
  const st = s.standee && typeof s.standee === "object" ? s.standee : null;
  const standee = st ? `on the ${st.color} divider of ${st.line} ${st.index}` : s.standee ? String(s.standee) : "not placed yet";
  return section("Solo",
    h("div", { class: "solo" },
      h("div", {}, h("h4", { text: "Draft grid" }), draft, dividers(s)),
      h("div", {},
        h("p", {}, stat("Standee", standee), " ", stat("Timer stack", s.timer_count), " ", stat("Rating", s.rating || "—")),
        (s.offer || []).length ? h("p", { class: "small", text: `Offer (the standee's line, outlined in the grid): ${s.offer.map((id) => label(ctx.cards, id).split(" ")[1] || id).join(", ")}` }) : null,
        (s.tilted || []).length ? h("div", {}, h("h4", { text: "Tilted" }), row(s.tilted, (id) => h("span", { text: Array.isArray(id) ? `row ${id[0]}, column ${id[1]}` : String(id) }))) : null,
        h("h4", { text: "Rating ladder" }),
        h("ol", { class: "ladder compact" }, (s.ladder || []).map((step) => h("li", { class: step.rating === s.rating ? "current" : "" },
          `${step.rating}${step.from === null || step.from === undefined ? "" : ` ≥ ${step.from} VP`}${step.rating === s.rating ? " ◀ yours" : ""}`))))));
}

/**
 * Draw the board.
 * @param {any} view the engine view (MatchView.view) of the viewer
 * @param {any} ctx board context (cards, viewer, seatName, mark)
 */
export function render(view, ctx) {
  const you = field(view, "you");
  ctx.previews = (you && you.previews) || [];
  const seats = [...(view.seats || [])].sort((a, b) => (a.seat === ctx.viewer ? -1 : b.seat === ctx.viewer ? 1 : a.seat - b.seat));
  const header = h("div", { class: "board-head" },
    stat("Mode", MODE_NAMES[view.mode] || view.mode), stat("Phase", view.phase), stat("Turn", view.turn),
    stat("Step", STEP_NAMES[view.step] || view.step), stat("Deck", view.deck_count),
    view.pass_direction ? stat("Passing", view.pass_direction) : null, objectives(ctx, view));
  const ownSeat = (view.seats || []).find((s) => s.seat === ctx.viewer);
  const mine = you ? section("Your cards",
    ownSeat && ownSeat.ai_card ? h("div", {}, h("h4", { text: "Your AI card" }), withText(ctx, ownSeat.ai_card, "wide")) : null,
    (you.dealt || []).length ? h("div", {}, h("h4", { text: "Dealt (keep two as your reserve)" }), row(you.dealt, (id) => withText(ctx, id))) : null,
    h("h4", { text: `Reserve (${(you.reserve || []).length})` }), row(you.reserve, (id) => withText(ctx, id)),
    h("h4", { text: `Hand (${(you.hand || []).length})`, title: "Each card's effect text is on its button and its tooltip" }),
    row(you.hand, (id) => tile(ctx, id)),
    you.choice ? h("p", {}, stat("Your choice", label(ctx.cards, you.choice))) : null,
    you.locked ? h("p", {}, stat("Locked in (back in your reserve this turn)", label(ctx.cards, you.locked))) : null) : null;
  const tables = seats.map((s) => {
    const own = s.seat === ctx.viewer;
    const compact = !own && ctx.viewer !== null;
    const choosing = !s.ai_card && (s.ai_cards_dealt || []).length && own;
    const aiCard = s.ai_card ? lookup(ctx.cards, s.ai_card) : null;
    return h("section", { class: `zone seat${own ? " own" : ""}${compact ? " compact" : ""}`, "data-seat": s.seat },
      h("h3", { text: seatTitle(ctx, s.seat) }),
      h("p", { class: "seat-stats" }, stat("Score", `${s.score} VP`), " ", stat("This turn", `${s.turn_vp} VP`),
        compact ? null : [" ", stat("Hand", s.hand_count), " ", stat("Reserve", s.reserve_count)],
        " ", stat(compact ? "Doing" : "Waiting for", s.pending ? s.pending.replace(/_/g, " ") : "nothing")),
      s.ai_card ? h("p", { class: "ai-line", title: aiCard ? aiCard.text : "" },
        h("b", { text: `AI card ${label(ctx.cards, s.ai_card)}` }), compact || own ? (own ? " (its text beside, under Your cards)" : null) : `: ${aiCard ? aiCard.text : ""}`) : null,
      choosing ? h("div", {}, h("h4", { text: "Choose your AI card side" }), row(s.ai_cards_dealt, (id) => withText(ctx, id))) : null,
      grid(ctx, s.tableau, 3, 5, own, compact ? "tableau mini" : "tableau"));
  });
  const neutral = field(view, "neutral_grid") ? section("Neutral grid (2-Player Mode)", grid(ctx, view.neutral_grid, 3, 4, false, "tableau neutral mini")) : null;
  const [first, ...others] = tables;
  const ownFirst = ctx.viewer !== null && seats.length && seats[0].seat === ctx.viewer;
  const drafting = view.solo && view.step === "draft";   // the solo draft is from the grid
  // the solo draft: the draft grid beside your tableau, your cards below
  // a player's table: the opponents (compact) first, then your tableau beside your cards,
  // so objectives, AI cards and every tableau are in view at 1280 x 800
  return h("div", { class: "board a1" }, header,
    ownFirst && (others.length || neutral) ? h("div", { class: "others" }, ...others, neutral) : null,
    drafting && ownFirst ? h("div", { class: "split" }, first, solo(ctx, view.solo)) : drafting ? solo(ctx, view.solo) : null,
    drafting && ownFirst ? mine : ownFirst ? h("div", { class: "split" }, first, mine) : null,
    ownFirst ? null : h("div", { class: "others spectating" }, ...tables, neutral),
    view.solo && !drafting ? solo(ctx, view.solo) : null,
    (view.last_reveal || []).length ? section("Last reveal", h("ul", {}, view.last_reveal.map((r) =>
      h("li", { text: `${ctx.seatName(r.seat)}: ${label(ctx.cards, r.card)}${r.cell ? ` at row ${r.cell[0]}, column ${r.cell[1]}` : ""}` })))) : null);
}
