// Server-sent events over fetch (EventSource cannot send a bearer token): one match's
// events, resumed with Last-Event-ID after every disconnect or server-side end. With
// `views=true` the last event of each batch carries `seat_state` (the viewer's view,
// pending, status, result and legal actions right after it): the page needs no GET per
// event. A 429 or 503 answer is waited out as its Retry-After asks.
import { retryDelayMs, retryable, waitOut, waitReason } from "./retry.js";

/** How long one stream may last (seconds; the API's maximum): one request per 5 minutes. */
const MAX_S = 300;

/**
 * Follow a match's event stream until `stop()`.
 * @param {string} matchId
 * @param {{token?: string|null, after: number, onEvent: (env: any) => void,
 *          onState?: (state: "live"|"reconnecting"|"ended") => void,
 *          isFinished?: () => boolean}} opts
 * @returns {{stop: () => void}}
 */
export function follow(matchId, opts) {
  let last = opts.after;
  let stopped = false;
  let controller = null;
  let delay = 1000;
  let refused = 0;
  const stopping = new AbortController();

  /** @returns {Promise<{ms: number, status: number}|null>} the wait a 429/503 asked for, else null */
  async function once() {
    controller = new AbortController();
    const headers = { Accept: "text/event-stream", "Last-Event-ID": String(last) };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    const response = await fetch(`/v1/matches/${encodeURIComponent(matchId)}/events/stream?max_s=${MAX_S}&views=true`,
      { headers, signal: controller.signal, cache: "no-store" });
    if (retryable(response.status, true)) {
      await response.arrayBuffer().catch(() => null);
      return { ms: retryDelayMs(response, refused++), status: response.status };
    }
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    opts.onState && opts.onState("live");
    delay = 1000;
    refused = 0;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const message = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        handle(message);
      }
    }
    return null;
  }

  function handle(message) {
    let id = null;
    const data = [];
    for (const line of message.split("\n")) {
      if (line.startsWith("id:")) id = line.slice(3).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (!data.length) return;
    const envelope = JSON.parse(data.join("\n"));
    if (id !== null) last = Math.max(last, Number(id));
    opts.onEvent(envelope);
  }

  (async () => {
    while (!stopped) {
      let asked = null;
      try { asked = await once(); } catch (error) { if (stopped) break; }
      if (stopped) break;
      if (opts.isFinished && opts.isFinished()) { opts.onState && opts.onState("ended"); break; }
      opts.onState && opts.onState("reconnecting");
      if (asked !== null) {
        await waitOut(asked.ms, waitReason(asked.status), stopping.signal);
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10000);
    }
  })();

  return { stop() { stopped = true; stopping.abort(); if (controller) controller.abort(); } };
}
