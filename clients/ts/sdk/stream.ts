/**
 * The event stream (`GET /v1/matches/{id}/events/stream`, WHATWG "Server-sent events"),
 * parsed by eventsource-parser: one envelope per message. With `views: true` the last
 * envelope of each command's batch also carries `seat_state` (`SeatState`).
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { Arena, Envelope } from "./client.js";
import { ApiError } from "./client.js";

/** What {@link streamEvents} reads: from which version, with views, for how long. */
export interface StreamOptions {
  /** Events with a version above this one (0: from the start). */
  readonly after?: number;
  /** Batch ends carry `seat_state` (the viewer's view, status, result, legal actions). */
  readonly views?: boolean;
  /** Longest duration of the stream in seconds (0-300; the server ends it then). */
  readonly maxS?: number;
}

/** True for a parsed message that has an envelope's `type` and `version`. */
export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === "object" && value !== null && "type" in value &&
    typeof value.type === "string" && "version" in value && typeof value.version === "number";
}

/**
 * The envelopes of one stream, in order, until the server ends it (after `maxS` seconds
 * or once a finished match sent its last event). Errors: {@link ApiError} for a problem
 * answer; `SyntaxError` for a message whose data is not JSON.
 */
export async function* streamEvents(arena: Arena, matchId: string,
                                    options: StreamOptions = {}): AsyncGenerator<Envelope> {
  const answer = await arena.api.GET("/v1/matches/{match_id}/events/stream", {
    params: { path: { match_id: matchId },
              query: { after: options.after ?? 0, views: options.views ? "true" : "false",
                       max_s: options.maxS ?? 60 } },
    parseAs: "stream" });
  const body = answer.data;
  if (!answer.response.ok || body === undefined || body === null) {
    const error = answer.error;
    throw new ApiError(answer.response.status,
                       typeof error === "object" && error !== null ? error : {});
  }
  const messages = body.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  for await (const message of messages) {
    if (!message.data) continue;
    const parsed: unknown = JSON.parse(message.data);
    if (isEnvelope(parsed)) yield parsed;
  }
}
