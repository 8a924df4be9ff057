/**
 * The thin hand-written layer over the types openapi-typescript generates from
 * `openapi.yaml` (`../openapi.d.ts`) and the typed fetch of openapi-fetch: bearer auth
 * (a seat token), retries of 429/503 (`./retry.ts`), `Idempotency-Key`s for every POST
 * that creates or acts, long-polls and the event stream (`./stream.ts`).
 */
import createClient, { type Client } from "openapi-fetch";
import type { Readable } from "openapi-typescript-helpers";
import type { components, paths } from "../openapi.js";
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from "./retry.js";

/**
 * Named aliases of the generated schema types. Every payload that depends on the game is
 * a union discriminated by `game` (one member per game); `G` selects members, e.g.
 * `MatchView<"aipokalypse">`. The methods below are annotated with these names, so the
 * declarations tsc emits refer to them by name instead of spelling out the unions (an
 * inferred return type spelled out exceeds what tsc serialises: TS7056).
 */
export type Schemas = components["schemas"];
/** An answer as openapi-fetch types it: `Readable` of the schema (it drops a property
 * whose only value is `null`, such as a spectator view's `you`). */
export type Answer<T> = Readable<T>;
/** The id of a game of the contract (`GET /v1/games` lists the ones a server has). */
export type GameId = Schemas["Game"]["id"];
/** The member of a union discriminated by `game` that belongs to game `G`. */
export type OfGame<T extends { readonly game: string }, G extends GameId> =
  [GameId] extends [G] ? T : Extract<T, { game: G }>;
export type Game = Schemas["Game"];
export type CreateMatchRequest<G extends GameId = GameId> = OfGame<Schemas["CreateMatchRequest"], G>;
export type CreatedMatch = Answer<Schemas["CreatedMatch"]>;
export type MatchView<G extends GameId = GameId> = OfGame<Answer<Schemas["MatchView"]>, G>;
export type LegalActions<G extends GameId = GameId> = OfGame<Answer<Schemas["LegalActions"]>, G>;
export type EventPage<G extends GameId = GameId> = OfGame<Answer<Schemas["EventPage"]>, G>;
export type ActionResult<G extends GameId = GameId> = OfGame<Answer<Schemas["ActionResult"]>, G>;
/** A command of game `G` (what its legal actions list and `act` sends). */
export type Command<G extends GameId = GameId> = LegalActions<G>["actions"][number];
/** An event envelope of game `G`, `data` typed per event `type`. */
export type Envelope<G extends GameId = GameId> = EventPage<G>["events"][number];
export type SeatToken = Answer<Schemas["SeatToken"]>;
export type Rematch = Answer<Schemas["Rematch"]>;
export type Problem = Schemas["Problem"];

/** Whether `value` (any payload discriminated by `game`) belongs to game `game`: narrows
 * it to that game's member, e.g. `if (isGame(view, "aipokalypse")) view.view.phase`. */
export function isGame<T extends { readonly game: string }, G extends GameId>(
  value: T, game: G): value is OfGame<T, G> {
  return value.game === game;
}

/** A problem answer (RFC 9457 `application/problem+json`) raised as an error. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly problem: Partial<Problem>) {
    super(`${status} ${problem.code ?? "error"}: ${problem.detail ?? problem.title ?? ""}`);
    this.name = "ApiError";
  }

  /** The problem's stable code (`ProblemCode`), e.g. `decision_moved`. */
  get code(): string | undefined {
    return this.problem.code;
  }
}

/** Options of {@link Arena}. */
export interface ArenaOptions {
  /** A seat token (`Authorization: Bearer <token>`); without one: anonymous/spectator. */
  readonly token?: string;
  readonly retry?: RetryOptions;
  /** The transport (defaults to the global `fetch`), wrapped by the retries. */
  readonly fetch?: (input: Request) => Promise<Response>;
}

/** A fresh `Idempotency-Key`: a random UUID (36 characters, the server asks for 16-128). */
export const newIdempotencyKey = (): string => crypto.randomUUID();

function unwrap<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined) return answer.data;
  const error = answer.error;
  const problem: Partial<Problem> = typeof error === "object" && error !== null ? error : {};
  throw new ApiError(answer.response.status, problem);
}

/** A client of one server, anonymous or with one seat's token. */
export class Arena {
  /** The generated, typed openapi-fetch client (every operation of `openapi.yaml`). */
  readonly api: Client<paths>;

  constructor(readonly baseUrl: string, readonly options: ArenaOptions = {}) {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers["Authorization"] = `Bearer ${options.token}`;
    this.api = createClient<paths>({
      baseUrl,
      headers,
      fetch: retryingFetch(options.retry ?? DEFAULT_RETRY, options.fetch),
    });
  }

  /** The same server with a seat's token. */
  withToken(token: string): Arena {
    return new Arena(this.baseUrl, { ...this.options, token });
  }

  /** `POST /v1/matches` with a fresh Idempotency-Key (a retried create makes one match). */
  async createMatch(body: CreateMatchRequest,
                    idempotencyKey: string = newIdempotencyKey()): Promise<CreatedMatch> {
    return unwrap(await this.api.POST("/v1/matches", {
      params: { header: { "Idempotency-Key": idempotencyKey } }, body }));
  }

  /** `POST /v1/matches/{id}/seats/{seat}/join`: the open seat's token. */
  async join(matchId: string, seat: number, name?: string,
             idempotencyKey: string = newIdempotencyKey()): Promise<SeatToken> {
    return unwrap(await this.api.POST("/v1/matches/{match_id}/seats/{seat}/join", {
      params: { path: { match_id: matchId, seat }, header: { "Idempotency-Key": idempotencyKey } },
      body: name === undefined ? {} : { name } }));
  }

  /** `POST /v1/matches/{id}/rematch` (seat token): the rematch and this seat's new token. */
  async rematch(matchId: string, idempotencyKey: string = newIdempotencyKey()): Promise<Rematch> {
    return unwrap(await this.api.POST("/v1/matches/{match_id}/rematch", {
      params: { path: { match_id: matchId }, header: { "Idempotency-Key": idempotencyKey } } }));
  }

  /** `POST /v1/matches/{id}/fork`: a new match starting with `version` events of this one. */
  async fork(matchId: string, body: Schemas["ForkRequest"],
             idempotencyKey: string = newIdempotencyKey()): Promise<CreatedMatch> {
    return unwrap(await this.api.POST("/v1/matches/{match_id}/fork", {
      params: { path: { match_id: matchId }, header: { "Idempotency-Key": idempotencyKey } },
      body }));
  }

  /** `GET /v1/matches/{id}`: the match as this client's seat (or a spectator) sees it. */
  async match(matchId: string): Promise<MatchView> {
    return unwrap(await this.api.GET("/v1/matches/{match_id}", {
      params: { path: { match_id: matchId } } }));
  }

  /** `GET …/legal-actions?wait=S`: long-polls (0-30 s) until this seat has a decision. */
  async legalActions(matchId: string, waitS = 0): Promise<LegalActions> {
    return unwrap(await this.api.GET("/v1/matches/{match_id}/legal-actions", {
      params: { path: { match_id: matchId }, query: { wait: waitS } } }));
  }

  /** `GET …/events?after=N&wait=S`: events after version `after` (long-poll 0-30 s). */
  async events(matchId: string, after = 0, waitS = 0): Promise<EventPage> {
    return unwrap(await this.api.GET("/v1/matches/{match_id}/events", {
      params: { path: { match_id: matchId }, query: { after, wait: waitS } } }));
  }

  /**
   * `POST …/actions` with `Prefer: return=representation` and a fresh Idempotency-Key
   * (so a 429/503 retry never acts twice): the events, and the seat's view, status,
   * result and next legal actions right after the command.
   */
  async act(matchId: string, command: Command, decisionId?: string | null,
            idempotencyKey: string = newIdempotencyKey()): Promise<ActionResult> {
    const body: Command = decisionId ? { ...command, decision_id: decisionId } : command;
    return unwrap(await this.api.POST("/v1/matches/{match_id}/actions", {
      params: { path: { match_id: matchId },
                header: { "Idempotency-Key": idempotencyKey, Prefer: "return=representation" } },
      body }));
  }
}
