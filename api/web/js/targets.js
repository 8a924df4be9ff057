// Legal actions as clicks: which board things (cards, cells, slots, columns) an action names.

/**
 * The board keys a command names: "card:<id>" for every card-like id (card, cards, faction,
 * location, special, unit), "cell:<r>,<c>" for cell/cells, "slot:<n>", "column:<n>".
 * @param {Record<string, any>} action
 * @returns {string[]}
 */
export function actionTargets(action) {
  const keys = [];
  for (const [field, value] of Object.entries(action)) {
    if (field === "type") continue;
    if (field === "cell" && Array.isArray(value)) keys.push(`cell:${value.join(",")}`);
    else if (field === "cells" && Array.isArray(value)) value.forEach((c) => Array.isArray(c) && keys.push(`cell:${c.join(",")}`));
    else if ((field === "slot" || field === "column") && Number.isInteger(value)) keys.push(`${field}:${value}`);
    else if (typeof value === "string" && field !== "option" && field !== "source") keys.push(`card:${value}`);
    else if (Array.isArray(value) && value.every((v) => typeof v === "string")) value.forEach((v) => keys.push(`card:${v}`));
  }
  return keys;
}

/**
 * A selection over the legal actions: clicking board things narrows the candidates to the
 * actions naming all of them; one candidate left is the move.
 */
export class Selection {
  /** @param {Array<Record<string, any>>} actions */
  constructor(actions) {
    this.actions = actions;
    this.keys = /** @type {string[]} */ ([]);
    this.index = new Map();
    for (const action of actions) {
      for (const key of actionTargets(action)) {
        if (!this.index.has(key)) this.index.set(key, []);
        this.index.get(key).push(action);
      }
    }
  }

  /** True when some legal action names `key`. */
  has(key) { return this.index.has(key); }

  /** The actions naming every selected key (all actions when nothing is selected). */
  candidates() {
    return this.actions.filter((a) => {
      const names = actionTargets(a);
      return this.keys.every((k) => names.includes(k));
    });
  }

  /**
   * Select `key`. Returns the single action it completes, or null (the candidates narrow).
   * A key that fits no candidate starts a new selection.
   */
  pick(key) {
    if (this.keys.includes(key)) { this.keys = this.keys.filter((k) => k !== key); return null; }
    this.keys.push(key);
    if (!this.candidates().length) this.keys = [key];
    const left = this.candidates();
    if (left.length === 1) return left[0];
    // several left, but one names exactly the selected things (e.g. both cards of a pair)
    const same = (a) => {
      const names = new Set(actionTargets(a));
      return names.size === this.keys.length && this.keys.every((k) => names.has(k));
    };
    const exact = this.keys.length > 1 ? left.filter(same) : [];
    return exact.length === 1 ? exact[0] : null;
  }

  clear() { this.keys = []; }
}
