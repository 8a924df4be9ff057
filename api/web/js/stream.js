// Server-sent events over fetch (EventSource cannot send a bearer token): one match's
// events, resumed with Last-Event-ID after every disconnect or server-side end.

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

  async function once() {
    controller = new AbortController();
    const headers = { Accept: "text/event-stream", "Last-Event-ID": String(last) };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    const response = await fetch(`/v1/matches/${encodeURIComponent(matchId)}/events/stream?max_s=60`,
      { headers, signal: controller.signal, cache: "no-store" });
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    opts.onState && opts.onState("live");
    delay = 1000;
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
      try { await once(); } catch (error) { if (stopped) break; }
      if (stopped) break;
      if (opts.isFinished && opts.isFinished()) { opts.onState && opts.onState("ended"); break; }
      opts.onState && opts.onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10000);
    }
  })();

  return { stop() { stopped = true; if (controller) controller.abort(); } };
}
