/**
 * Plays one match of every game on a server against one of its bots: seat 0 is ours
 * (a random legal action each turn, seeded), seat 1 the game's `random` bot (the cheapest
 * level: any name of `game.bots` works, e.g. `expert`, which thinks for up to a second a
 * move). Prints one line per game; exits 1 when a match did not finish.
 *
 *   node build/examples/play_every_game.js http://127.0.0.1:8000
 */
import { Arena, playSeat, streamEvents, type Chooser } from "../sdk/index.js";

function seededChooser(seed: number): Chooser {
  let state = seed >>> 0;
  return (turn) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return turn.actions[state % turn.actions.length] ?? turn.actions[0];
  };
}

async function main(baseUrl: string): Promise<number> {
  const anonymous = new Arena(baseUrl);
  const { games } = unwrapGames(await anonymous.api.GET("/v1/games"));
  let failures = 0;
  for (const [index, game] of games.entries()) {
    const bot = game.bots.includes("random") ? "random" : game.bots[0];
    if (bot === undefined) throw new Error(`${game.id} has no bot`);
    const created = await anonymous.createMatch({
      game: game.id, seats: [{ kind: "human" }, { kind: "bot", bot }],
      unlisted: true, spectators: true });
    const token = created.seats[0]?.token;
    if (token === undefined) throw new Error("seat 0 has no token");
    const final = await playSeat(anonymous.withToken(token), created.match_id, seededChooser(index + 1));
    let streamed = 0;
    for await (const _event of streamEvents(anonymous, created.match_id, { maxS: 5 })) streamed += 1;
    console.log(JSON.stringify({ game: game.id, match_id: created.match_id, status: final.status,
                                 version: final.version, streamed, result: final.result }));
    if (final.status === "running") failures += 1;
  }
  return failures === 0 ? 0 : 1;
}

function unwrapGames<T>(answer: { data?: T; response: Response }): T {
  if (answer.data === undefined) throw new Error(`GET /v1/games: ${answer.response.status}`);
  return answer.data;
}

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8000";
main(baseUrl).then((code) => { process.exitCode = code; },
                   (error: unknown) => { console.error(error); process.exitCode = 2; });
