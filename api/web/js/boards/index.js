// The board of each game; an unknown game gets a readable dump of its view.
import { h } from "../dom.js";
import * as ai100 from "./ai-100-human.js";
import * as pk from "./aipokalypse.js";
import * as da from "./dead-apocalypse.js";

const generic = {
  label: (_cards, id) => String(id),
  render: (view) => h("pre", { class: "board generic", text: JSON.stringify(view, null, 2) }),
};

/** The board module (`render(view, ctx)`, `label(cards, id)`) of `game`. */
export function boardFor(game) {
  return { "ai-100-human": ai100, aipokalypse: pk, "dead-apocalypse": da }[game] || generic;
}
