// The public HTTP API of this server (same origin), and the seat tokens kept per match.
import { retryDelayMs, retryable, waitOut, waitReason } from "./retry.js";

/** An answer that is not 2xx: the problem's fields (RFC 9457). */
export class ApiError extends Error {
  /** @param {number} status @param {any} problem */
  constructor(status, problem) {
    const detail = (problem && (problem.detail || problem.title)) || `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.code = (problem && problem.code) || "http_error";
    this.problem = problem;
  }
}

/** How many times one request is sent again after 429/503 answers before giving up. */
const MAX_RETRIES = 8;

/**
 * `fetch` that waits out 429 and 503 answers as their `Retry-After` asks (showing the
 * note of retry.js) and sends the request again, up to MAX_RETRIES times. A 429 is always
 * sent again (the server did not process it); a 503 only when `safe` (a GET, or a POST
 * with an Idempotency-Key: the server answers a repeat with the first answer).
 * @param {string} path @param {RequestInit} init @param {boolean} safe
 * @returns {Promise<Response>} the last answer (maybe still a 429/503 after MAX_RETRIES)
 */
export async function send(path, init, safe) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(path, { cache: "no-store", ...init });
    if (!retryable(response.status, safe) || attempt >= MAX_RETRIES) return response;
    await response.arrayBuffer().catch(() => null);      // let the connection go
    await waitOut(retryDelayMs(response, attempt), waitReason(response.status));
  }
}

/**
 * Call the API. Returns the parsed JSON body; throws ApiError with the problem's detail.
 * 429 and (for GETs and POSTs with an Idempotency-Key) 503 answers are waited out and the
 * request sent again (`send`).
 * @param {string} method @param {string} path
 * @param {{token?: string|null, body?: any, headers?: Record<string,string>}} [opts]
 */
export async function call(method, path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...(opts.headers || {}) };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let body;
  if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  const safe = method === "GET" || "Idempotency-Key" in headers;
  const response = await send(path, { method, headers, body }, safe);
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path, token) => call("GET", path, { token });

/**
 * Verify an exported log given as its JSON *text* (POST /v1/replays). The text is sent as
 * it is: a log may hold integers beyond 2^53 (e.g. a held decision's seed) that a
 * JSON.parse / JSON.stringify round trip would change, and the hash chain with them.
 * @param {string} text
 * @returns {Promise<import("./types.js").VerifyReport>}
 */
export async function verifyText(text) {
  // verifying changes nothing on the server: sending it again after a 503 is safe
  const response = await send("/v1/replays", { method: "POST", body: text,
    headers: { "Content-Type": "application/json", Accept: "application/json" } }, true);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** GET a text answer (e.g. an export kept byte for byte). */
export async function getText(path) {
  const response = await send(path, {}, true);
  const text = await response.text();
  if (!response.ok) { let p = null; try { p = JSON.parse(text); } catch { p = null; } throw new ApiError(response.status, p); }
  return text;
}
export const post = (path, body, token, headers) => call("POST", path, { body, token, headers });

const cache = new Map();
/** GET once per page load (games catalogue, card data: immutable while the server runs). */
export function once(path) {
  if (!cache.has(path)) cache.set(path, get(path).catch((e) => { cache.delete(path); throw e; }));
  return cache.get(path);
}

// ------------------------------------------------------------------ seat tokens
const KEY = "arena.seats";

/** @returns {Record<string, {seat:number, token:string, game?:string, at?:string}>} */
export function seats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

/** The seat and token this browser holds for `matchId`, or null. */
export function seatOf(matchId) {
  return seats()[matchId] || null;
}

/** Remember the seat token of `matchId` (one seat per match and browser). */
export function keepSeat(matchId, seat, token, game) {
  const all = seats();
  all[matchId] = { seat, token, game, at: new Date().toISOString() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** Forget the token of `matchId`. */
export function forgetSeat(matchId) {
  const all = seats();
  delete all[matchId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** A random Idempotency-Key for one user action. */
export function idempotencyKey() {
  return (crypto.randomUUID && crypto.randomUUID()) || `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}
