/**
 * The thin hand-written layer over the types openapi-typescript generates from
 * `openapi.yaml` (`../openapi.d.ts`) and the typed fetch of openapi-fetch: bearer auth
 * (a seat token), retries of 429/503 (`./retry.ts`), `Idempotency-Key`s for every POST
 * that creates or acts, long-polls and the event stream (`./stream.ts`).
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "../openapi.js";
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from "./retry.js";

export type Schemas = components["schemas"];
export type Command = Schemas["Command"];
export type CreateMatchRequest = Schemas["CreateMatchRequest"];
export type Problem = Schemas["Problem"];

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
  async createMatch(body: CreateMatchRequest, idempotencyKey: string = newIdempotencyKey()) {
    return unwrap(await this.api.POST("/v1/matches", {
      params: { header: { "Idempotency-Key": idempotencyKey } }, body }));
  }

  /** `POST /v1/matches/{id}/seats/{seat}/join`: the open seat's token. */
  async join(matchId: string, seat: number, name?: string,
             idempotencyKey: string = newIdempotencyKey()) {
    return unwrap(await this.api.POST("/v1/matches/{match_id}/seats/{seat}/join", {
      params: { path: { match_id: matchId, seat }, header: { "Idempotency-Key": idempotencyKey } },
      body: name === undefined ? {} : { name } }));
  }

  /** `POST /v1/matches/{id}/rematch` (seat token): the rematch and this seat's new token. */
  async rematch(matchId: string, idempotencyKey: string = newIdempotencyKey()) {
    return unwrap(await this.api.POST("/v1/matches/{match_id}/rematch", {
      params: { path: { match_id: matchId }, header: { "Idempotency-Key": idempotencyKey } } }));
  }

  /** `POST /v1/matches/{id}/fork`: a new match starting with `version` events of this one. */
  async fork(matchId: string, body: Schemas["ForkRequest"],
             idempotencyKey: string = newIdempotencyKey()) {
    return unwrap(await this.api.POST("/v1/matches/{match_id}/fork", {
      params: { path: { match_id: matchId }, header: { "Idempotency-Key": idempotencyKey } },
      body }));
  }

  /** `GET /v1/matches/{id}`: the match as this client's seat (or a spectator) sees it. */
  async match(matchId: string) {
    return unwrap(await this.api.GET("/v1/matches/{match_id}", {
      params: { path: { match_id: matchId } } }));
  }

  /** `GET …/legal-actions?wait=S`: long-polls (0-30 s) until this seat has a decision. */
  async legalActions(matchId: string, waitS = 0) {
    return unwrap(await this.api.GET("/v1/matches/{match_id}/legal-actions", {
      params: { path: { match_id: matchId }, query: { wait: waitS } } }));
  }

  /** `GET …/events?after=N&wait=S`: events after version `after` (long-poll 0-30 s). */
  async events(matchId: string, after = 0, waitS = 0) {
    return unwrap(await this.api.GET("/v1/matches/{match_id}/events", {
      params: { path: { match_id: matchId }, query: { after, wait: waitS } } }));
  }

  /**
   * `POST …/actions` with `Prefer: return=representation` and a fresh Idempotency-Key
   * (so a 429/503 retry never acts twice): the events, and the seat's view, status,
   * result and next legal actions right after the command.
   */
  async act(matchId: string, command: Command, decisionId?: string | null,
            idempotencyKey: string = newIdempotencyKey()) {
    const body: Command = decisionId ? { ...command, decision_id: decisionId } : command;
    return unwrap(await this.api.POST("/v1/matches/{match_id}/actions", {
      params: { path: { match_id: matchId },
                header: { "Idempotency-Key": idempotencyKey, Prefer: "return=representation" } },
      body }));
  }
}

/** Answers as the generated client types them (`openapi.yaml`'s 2xx schemas). */
export type CreatedMatch = Awaited<ReturnType<Arena["createMatch"]>>;
export type MatchView = Awaited<ReturnType<Arena["match"]>>;
export type LegalActions = Awaited<ReturnType<Arena["legalActions"]>>;
export type EventPage = Awaited<ReturnType<Arena["events"]>>;
export type ActionResult = Awaited<ReturnType<Arena["act"]>>;
