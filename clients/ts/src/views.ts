// Reads each game's view fields through the types openapi-typescript generates from
// openapi.yaml (openapi.d.ts, made by `npm run generate`); `tsc --strict` must accept it
// (tests/e2e/test_generated_ts_client.py). A field the contract types as never, or a union
// the generator cannot narrow by `game`, fails the compile.
import type { components } from "../openapi";

type Schemas = components["schemas"];
export type MatchView = Schemas["MatchView"];

/** One line about the match, narrowed by `game` to that game's own view type. */
export function summary(match: MatchView): string {
  switch (match.game) {
    case "ai-100-human": {
      const view = match.view;
      const scores = view.seats.map((seat) => `${seat.seat}:${seat.score}`).join(" ");
      return `AI: 100% Human ${view.mode} phase ${view.phase} step ${view.step} deck ${view.deck_count} [${scores}]`;
    }
    case "aipokalypse": {
      const view = match.view;
      const slots = view.seats.map((seat) => seat.slots.length).join(",");
      return `A.I.Pokalypse ${view.mode} ${view.phase} round ${view.round} draw ${view.draw_pile} slots ${slots}`;
    }
    case "dead-apocalypse": {
      const view = match.view;
      const zombies = view.zombie_row.filter((zombie) => zombie !== null).length;
      return `Dead Apocalypse turn ${view.turn} seats ${view.seats.length} zombies ${zombies} stack ${view.zombie_stack_count}`;
    }
    default:
      // a game without a summary of its own (an example game, a game added later)
      return `${match.game} (${match.status})`;
  }
}

/** The winners of a finished match (empty while it runs). */
export function winners(match: MatchView): number[] {
  return match.result === null ? [] : match.result.winners;
}

/** The type of every event of a page (each envelope's `type` is a string literal union). */
export function eventTypes(page: Schemas["EventPage"]): string[] {
  return page.events.map((envelope) => envelope.type);
}
