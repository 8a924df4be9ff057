// Waiting out a 429 or 503 answer as the server asks (Retry-After, RFC 9110 §10.2.3), with
// a note on the page saying what it waits for and when it tries again.

/** Seconds to wait when a 429/503 gives no usable Retry-After (doubling per attempt). */
const FALLBACK_S = 2;
/** The longest wait the page accepts from one answer (seconds). */
const MAX_WAIT_S = 300;

/**
 * The delay a 429 or 503 answer asks for, in milliseconds: `Retry-After` as delay-seconds
 * or as an HTTP-date (RFC 9110 §10.2.3); without a usable one, FALLBACK_S doubled per
 * earlier attempt. Always between 1 s and MAX_WAIT_S.
 * @param {Response} response @param {number} attempt 0 for the first retry
 * @returns {number}
 */
export function retryDelayMs(response, attempt = 0) {
  const header = (response.headers.get("Retry-After") || "").trim();
  let seconds = NaN;
  if (/^\d+$/.test(header)) seconds = Number(header);
  else if (header) seconds = (Date.parse(header) - Date.now()) / 1000;
  if (!Number.isFinite(seconds)) seconds = FALLBACK_S * 2 ** Math.min(attempt, 6);
  return Math.round(Math.min(MAX_WAIT_S, Math.max(1, seconds)) * 1000);
}

/** Whether an answer is one to wait out and send again (429 always: the request was not
 * processed; 503 only when sending it again is safe). */
export function retryable(status, safe) {
  return status === 429 || (status === 503 && safe);
}

/** @type {Map<number, {until: number, what: string}>} */
const waits = new Map();
let nextId = 1;
let ticker = 0;

/** The note element (made once, at the top of the page; hidden when nothing waits). */
function note() {
  let el = document.getElementById("retry-note");
  if (!el) {
    el = document.createElement("div");
    el.id = "retry-note";
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "polite");
    el.hidden = true;
    const main = document.getElementById("app");
    if (main && main.parentNode) main.parentNode.insertBefore(el, main);
    else document.body.prepend(el);
  }
  return el;
}

function draw() {
  const el = note();
  if (!waits.size) {
    el.hidden = true;
    el.replaceChildren();
    clearInterval(ticker);
    ticker = 0;
    return;
  }
  // the wait that ends last says when everything is sent again
  const last = [...waits.values()].reduce((a, b) => (b.until > a.until ? b : a));
  const left = Math.max(1, Math.ceil((last.until - Date.now()) / 1000));
  el.hidden = false;
  let title = /** @type {HTMLElement|null} */ (el.querySelector(".title"));
  let reason = /** @type {HTMLElement|null} */ (el.querySelector(".reason"));
  let count = /** @type {HTMLElement|null} */ (el.querySelector(".count"));
  if (!title || !reason || !count) {
    title = document.createElement("b");
    title.className = "title";
    reason = document.createElement("span");
    reason.className = "reason";
    count = document.createElement("span");
    count.className = "count";
    count.setAttribute("aria-hidden", "true");    // read once, not every second
    el.replaceChildren(title, " ", reason, " ", count);
  }
  const [head, ...rest] = last.what.split(". ");
  if (title.textContent !== `${head}.`) title.textContent = `${head}.`;
  if (reason.textContent !== rest.join(". ")) reason.textContent = rest.join(". ");
  count.textContent = `Trying again in ${left} s.`;
}

/**
 * Wait `ms` milliseconds while the note says why (`what`: a short first sentence, its
 * title, then the rest) and counts down.
 * An aborted `signal` ends the wait at once (and its part of the note).
 * @param {number} ms @param {string} what @param {AbortSignal} [signal]
 * @returns {Promise<void>}
 */
export function waitOut(ms, what, signal) {
  const id = nextId++;
  waits.set(id, { until: Date.now() + ms, what });
  draw();
  if (!ticker) ticker = window.setInterval(draw, 500);
  return new Promise((resolve) => {
    const end = () => { clearTimeout(timer); waits.delete(id); draw(); resolve(); };
    const timer = setTimeout(end, ms);
    if (signal) {
      if (signal.aborted) end();
      else signal.addEventListener("abort", end, { once: true });
    }
  });
}

/** What the note says for a 429 or 503 answer: a short first sentence (shown bold), then
 * the rest. */
export function waitReason(status) {
  return status === 429 ? "Too many requests from this page. Nothing is lost: the page waits as the server asks, then tries again by itself."
    : "The server is busy. Nothing is lost: the page waits as the server asks, then tries again by itself.";
}
