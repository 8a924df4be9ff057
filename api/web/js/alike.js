// Legal actions a person can tell apart: the action list shows one button per different move.
//
// A game's legal actions name card instances ("survivor#s0.3"), so three Survivors in hand are
// three actions whose words are the same ("Play Survivor — +1 damage."), and two Plague
// Carriers in the Zombie Row two "Use the Repeat ability of Plague Carrier". The first are
// the same move (identical cards in the same place); the second are not (other columns).

/**
 * The buttons of `actions`: actions with the same words whose differences are only cards
 * in the same place (by `where`) become one button ("… (3 alike in your hand)", sending the
 * first); actions with the same words whose cards lie in different places each say where
 * ("… — Zombie Row column 2"). Order: as `actions` (a group where its first action was).
 *
 * @param {Array<Record<string, any>>} actions the legal actions shown (commands)
 * @param {(action: Record<string, any>) => string} words an action's words
 * @param {(value: any, field: string) => (string|null)} where a card's place in the viewer's
 *   view (`value` a card id), or what another field's value means there (Dead Apocalypse's
 *   `spend` plan), or null
 * @returns {Array<{action: Record<string, any>, text: string, count: number}>}
 */
export function tellApart(actions, words, where) {
  /** @type {Map<string, Array<Record<string, any>>>} */
  const byWords = new Map();
  for (const action of actions) {
    const text = words(action);
    if (!byWords.has(text)) byWords.set(text, []);
    byWords.get(text).push(action);
  }
  const out = [];
  for (const [text, group] of byWords) {
    if (group.length === 1) {
      out.push({ action: group[0], text, count: 1 });
      continue;
    }
    const fields = differing(group);
    /** @type {Map<string, Array<Record<string, any>>>} */
    const byPlace = new Map();
    for (const action of group) {
      // every differing field placed, or none told apart ("")
      const places = fields.map((f) => placeOf(f, action[f], where));
      const place = places.length && places.every(Boolean) ? places.join(", ") : "";
      if (!byPlace.has(place)) byPlace.set(place, []);
      byPlace.get(place).push(action);
    }
    for (const [place, same] of byPlace) {
      if (same.length > 1 && !place) {
        // nothing tells them apart: keep every one (the board's clicks choose among them)
        same.forEach((action) => out.push({ action, text, count: 1 }));
        continue;
      }
      const apart = byPlace.size > 1 && place ? ` — ${place}` : "";
      const alike = same.length > 1 ? ` (${same.length} alike${byPlace.size > 1 ? "" : ` ${place}`})` : "";
      out.push({ action: same[0], text: `${text}${apart}${alike}`, count: same.length });
    }
  }
  return out;
}

/** The fields whose values are not the same in every action of `group`. */
function differing(group) {
  const fields = new Set(group.flatMap((a) => Object.keys(a)));
  return [...fields].filter((f) => new Set(group.map((a) => JSON.stringify(a[f]))).size > 1).sort();
}

/** Where a differing field's value is: a card's place, "column 2" for a number, else what
 * the board says of it (or null). */
function placeOf(field, value, where) {
  if (typeof value === "string") return where(value, field);
  if (Array.isArray(value) && value.length && value.every((v) => typeof v === "string")) {
    const places = [...new Set(value.map((v) => where(v, field)))];
    return places.every(Boolean) ? places.join(", ") : null;
  }
  if (Number.isInteger(value)) return `${field.replace(/_/g, " ")} ${value}`;
  return where(value, field);
}
