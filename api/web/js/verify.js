// The reference verifier of exported match logs in JavaScript: an ES module without
// dependencies (WebCrypto SHA-256), the same in a browser and in Node (>= 20).
//
// For a log of format "apocalypse-arena/log@3" or "apocalypse-arena/log@2" (docs/CONTRACTS.md,
// "Event envelope"; log@3 hashes as log@2 and its roster may record each seat's player id
// and `rated: true`, which log@2 may not) it
// checks, trusting nothing the server says:
// - numbers: every number in the log is I-JSON (RFC 7493): an integer beyond ±(2^53 - 1)
//   cannot be read exactly by JSON.parse (the server writes such values as strings);
// - the hash chain: versions 1, 2, 3, ...; each prev_hash links to the previous hash (the
//   first to SHA-256("apocalypse-arena:" + match_id)); each
//   hash = SHA-256(prev_hash + RFC 8785 canonical JSON of the envelope without "hash");
// - the roster in the chain (the first event's "roster"): its game and log format are the
//   export's, the seats rebuilt from it and the SeatJoined events are the export's seats,
//   its options and turn timeout the export's, and each command's cause fits its seat's kind;
// - the seed commitment: seed_commitment = SHA-256 of the 32 seed bytes.
// The Python verifier (POST /v1/replays, `arena replay`) is the full one: it also re-decides
// every command from the seed, folds the events and checks the result. A log of the old
// format "apocalypse-arena/log@1" (Python's json.dumps) is verified only there.

/** The format of new matches (issue 22: players in the roster). */
export const LOG_FORMAT = "apocalypse-arena/log@3";
/** The formats this verifier checks (RFC 8785 hashes); only log@3 records players. */
export const LOG_FORMATS_JCS = ["apocalypse-arena/log@2", LOG_FORMAT];
/** The old format: only the full (Python) verifier re-hashes it. */
export const LOG_FORMAT_V1 = "apocalypse-arena/log@1";
/** The seat kinds whose command batches may carry each cause (service/roster.py). */
const CAUSE_KINDS = { player: ["human", "joined"], timeout: ["human", "joined", "open"], bot: ["bot"] };

/**
 * @typedef {{valid: boolean, format: unknown, supported: boolean, events: number,
 *   checks: {numbers: boolean, chain: boolean, roster: boolean, seed: boolean},
 *   errors: string[]}} LocalReport
 */

/** @param {unknown} value @returns {value is Record<string, any>} */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a JSON value: object members sorted by
 * their names' UTF-16 code units, no whitespace, ECMAScript number and string forms.
 * Throws for values JSON excludes (non-finite numbers, lone surrogates); a number is a
 * double here, so an integer beyond 2^53 is refused by `verifyExport`'s number check.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalize(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not an I-JSON number`);
    return JSON.stringify(value);
  }
  if (typeof value === "string") {
    if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)) throw new RangeError("lone surrogate in a string");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${canonicalize(k)}:${canonicalize(value[k])}`).join(",")}}`;
  }
  throw new TypeError(`${typeof value} is not JSON`);
}

/**
 * SHA-256 of a string (UTF-8) or bytes, as 64 lowercase hex digits (WebCrypto).
 * @param {string | Uint8Array} data
 * @returns {Promise<string>}
 */
export async function sha256Hex(data) {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) throw new Error("WebCrypto is not available here (a browser offers it only on https or localhost)");
  const digest = new Uint8Array(await subtle.digest("SHA-256", new Uint8Array(bytes)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Every number of `value` outside I-JSON, named by its path (log.events[3].data.seed).
 * @param {unknown} value
 * @param {string} path
 * @param {string[]} out
 * @returns {string[]}
 */
function numberErrors(value, path, out) {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
      out.push(`${path}: the number ${value} is outside the I-JSON range (±2^53 - 1; larger values are strings)`);
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => numberErrors(item, `${path}[${i}]`, out));
  } else if (isObject(value)) {
    for (const [k, item] of Object.entries(value)) numberErrors(item, `${path}.${k}`, out);
  }
  return out;
}

/**
 * The hash an envelope must carry: SHA-256(prev_hash + JCS(envelope without "hash")).
 * @param {Record<string, any>} envelope
 * @returns {Promise<string>}
 */
export async function envelopeHash(envelope) {
  const body = Object.fromEntries(Object.entries(envelope).filter(([k]) => k !== "hash"));
  if (typeof envelope.prev_hash !== "string") throw new TypeError("prev_hash must be a string");
  return sha256Hex(envelope.prev_hash + canonicalize(body));
}

/**
 * Breaks of the hash chain of `events` (service/codec.py chain_errors).
 * @param {string} matchId
 * @param {any[]} events
 * @returns {Promise<string[]>}
 */
async function chainErrors(matchId, events) {
  const errors = [];
  let prev = await sha256Hex(`apocalypse-arena:${matchId}`);
  for (let i = 0; i < events.length; i++) {
    const index = i + 1;
    const env = events[i];
    if (!isObject(env)) { errors.push(`event ${index}: not an object`); prev = ""; continue; }
    if (env.version !== index) errors.push(`event ${index}: version ${JSON.stringify(env.version)}, expected ${index}`);
    if (env.prev_hash !== prev) errors.push(`event ${index}: prev_hash does not link to the previous event`);
    let digest = null;
    try { digest = await envelopeHash(env); } catch (error) { errors.push(`event ${index}: malformed envelope`); }
    if (digest !== null && env.hash !== digest) errors.push(`event ${index}: hash does not match its content`);
    prev = typeof env.hash === "string" ? env.hash : "";
  }
  return errors;
}

/** @param {any} env */
const isPlatform = (env) => isObject(env) && env.cause === "join";

/**
 * The log split into batches: set-up, then one per command (service/envelopes.py batches).
 * @param {any[]} events
 * @returns {any[][]}
 */
function batches(events) {
  /** @type {any[][]} */
  const groups = [];
  const keyOf = (/** @type {any} */ env) => (env.cause === "setup" ? "setup" : env.command_id);
  for (const env of events) {
    if (!isObject(env) || isPlatform(env)) { groups.push([env]); continue; }
    const last = groups.length ? groups[groups.length - 1] : null;
    const prev = last ? last[0] : null;
    const prevKey = !isObject(prev) || isPlatform(prev) ? null : keyOf(prev);
    if (last && prevKey !== null && prevKey !== undefined && keyOf(env) === prevKey && !("command" in env)) last.push(env);
    else groups.push([env]);
  }
  return groups;
}

/** @param {unknown} v */
const isEmpty = (v) => v === null || v === undefined || v === "" || (isObject(v) && Object.keys(v).length === 0);

/** JSON equality (canonical texts; false when either is not I-JSON). @param {unknown} a @param {unknown} b */
function same(a, b) {
  try { return canonicalize(a) === canonicalize(b); } catch (error) { return false; }
}

/**
 * Roster errors (service/roster.py RosterCheck): the roster in the first event against the
 * export's game, format, seats, options and turn timeout, the joins, the causes.
 * @param {Record<string, any>} log
 * @param {any[]} events
 * @returns {string[]}
 */
function rosterErrors(log, events) {
  const first = isObject(events[0]) ? events[0] : {};
  const roster = first.roster;
  if (!isObject(roster) || !Array.isArray(roster.seats)) return ["event 1: the roster is missing from the first event"];
  const errors = [];
  let forkVersion = 0;
  if ("forked_from" in roster) {
    const error = forkError(roster.forked_from, events.length);
    if (error) errors.push(`roster: ${error}`);
    else forkVersion = roster.forked_from.version;
  }
  /** @type {Map<unknown, unknown>} */
  const kinds = new Map(roster.seats.filter(isObject).map((s) => [s.seat, s.kind]));
  /** @type {Map<unknown, unknown>} */
  const joins = new Map();
  if (roster.game !== log.game) errors.push(`roster: game ${JSON.stringify(roster.game)} differs from the log's ${JSON.stringify(log.game)}`);
  const declared = roster.log_format === undefined ? LOG_FORMAT_V1 : roster.log_format;
  if (declared !== log.format) errors.push(`format ${JSON.stringify(log.format)} differs from the log format ${JSON.stringify(declared)} of the roster in the hash chain`);
  const players = declared === LOG_FORMAT;
  if (!players && ("rated" in roster || roster.seats.some((/** @type {any} */ s) => isObject(s) && "player" in s))) {
    errors.push(`roster: players and rated are not part of format ${JSON.stringify(declared)}`);
  }
  if (first.cause !== "setup") errors.push("event 1: the log does not start with set-up events");
  for (const batch of batches(events).slice(1)) {
    const env = batch[0];
    if (!isObject(env)) continue;
    const version = env.version;
    const old = Number.isInteger(version) && version <= forkVersion;    // the original's, in a fork
    if (isPlatform(env)) {
      const data = isObject(env.data) ? env.data : {};
      if (env.type !== "SeatJoined" || data.seat !== env.seat) { errors.push(`event ${version}: a join must be a SeatJoined of its seat`); continue; }
      if (old) continue;
      if (kinds.get(data.seat) !== "open" || joins.has(data.seat)) { errors.push(`event ${version}: seat ${data.seat} joined but was not an open seat`); continue; }
      if ("player" in data && !players) errors.push(`event ${version}: a join's player is not part of this format`);
      joins.set(data.seat, data);
      continue;
    }
    const { cause, actor } = env;
    if (!isObject(env.command) || !(Number.isInteger(actor) || (cause === "abandon" && actor === null))) {
      errors.push(`event ${version}: no stored command`);
      continue;
    }
    if (old) continue;
    if (cause === "abandon") {
      if (actor !== null) errors.push(`event ${version}: an abandonment has no seat`);
      continue;
    }
    let kind = kinds.get(actor);
    if (kind === "open" && joins.has(actor)) kind = "joined";
    const allowed = Object.prototype.hasOwnProperty.call(CAUSE_KINDS, cause) ? CAUSE_KINDS[/** @type {keyof typeof CAUSE_KINDS} */ (cause)] : null;
    if (!allowed || !allowed.includes(/** @type {string} */ (kind))) {
      errors.push(`event ${version}: cause ${JSON.stringify(cause)} does not fit seat ${actor} of kind ${JSON.stringify(kind === undefined ? null : kind)} in the roster`);
    }
  }
  const seats = roster.seats.map((/** @type {any} */ item) => {
    /** @type {Record<string, any>} */
    const entry = {};
    if (!isObject(item)) return entry;
    for (const k of ["seat", "kind", "bot", "bot_options", "name", "player"]) if (!isEmpty(item[k])) entry[k] = item[k];
    if (joins.has(item.seat)) {
      entry.kind = "human";
      const join = /** @type {Record<string, any>} */ (joins.get(item.seat));
      for (const k of ["name", "player"]) if (join[k]) entry[k] = join[k];
    }
    return entry;
  });
  if (!same(seats, log.seats)) errors.push("seats differ from the roster in the hash chain (kinds, names, players, bot levels or bot options were edited)");
  if (!same(roster.options, log.options)) errors.push("options differ from the roster in the hash chain");
  if (!same(roster.turn_timeout_s, log.turn_timeout_s)) errors.push("turn_timeout_s differs from the roster in the hash chain");
  if (!same(roster.forked_from ?? null, log.forked_from ?? null)) errors.push("forked_from differs from the roster in the hash chain");
  return errors;
}

/**
 * Why a roster's forked_from is not {"match_id": <match id>, "version": <1..events>}
 * (service/log/roster.py fork_error), or null.
 * @param {unknown} fork
 * @param {number} events how many events the log has
 * @returns {string | null}
 */
function forkError(fork, events) {
  if (
    !isObject(fork) ||
    Object.keys(fork).sort().join(",") !== "match_id,version" ||
    typeof fork.match_id !== "string" ||
    !/^[A-Za-z0-9_-]{1,64}$/.test(fork.match_id) ||
    !Number.isInteger(fork.version)
  ) {
    return 'forked_from must be {"match_id": <match id>, "version": <integer>}';
  }
  if (!(fork.version >= 1 && fork.version <= events)) return `forked_from version ${fork.version} is outside the log's 1..${events}`;
  return null;
}

/**
 * Seed commitment errors: the revealed seed (64 hex digits) must hash to seed_commitment.
 * @param {Record<string, any>} log
 * @returns {Promise<string[]>}
 */
async function seedErrors(log) {
  if (typeof log.seed !== "string" || !/^[0-9a-fA-F]{64}$/.test(log.seed)) return ["seed (64 hex digits) is required to verify"];
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(log.seed.slice(2 * i, 2 * i + 2), 16);
  return (await sha256Hex(bytes)) === log.seed_commitment ? [] : ["seed does not match seed_commitment"];
}

/**
 * Verify an exported log (the parsed GET /v1/matches/{id}/export document) here, without
 * asking any server: numbers, hash chain, roster, seed commitment (see the module comment).
 * Never throws for bad content; `supported` is false for a log@1 log (only the full
 * verifier re-hashes it).
 * @param {unknown} log
 * @returns {Promise<LocalReport>}
 */
export async function verifyExport(log) {
  /** @type {LocalReport} */
  const report = { valid: false, format: null, supported: true, events: 0,
    checks: { numbers: false, chain: false, roster: false, seed: false }, errors: [] };
  if (!isObject(log)) { report.errors.push("a log must be a JSON object"); return report; }
  report.format = log.format;
  if (log.format === LOG_FORMAT_V1) {
    report.supported = false;
    report.errors.push(`format ${LOG_FORMAT_V1} (an older match) is re-hashed only by the full verifier (POST /v1/replays, arena replay)`);
    return report;
  }
  if (!LOG_FORMATS_JCS.includes(/** @type {string} */ (log.format))) {
    report.errors.push(`format must be one of ${JSON.stringify([LOG_FORMAT_V1, ...LOG_FORMATS_JCS])}`);
    return report;
  }
  const events = log.events;
  if (typeof log.match_id !== "string" || !Array.isArray(events) || !events.every(isObject)) {
    report.errors.push("match_id (string) and events (list of objects) are required");
    return report;
  }
  report.events = events.length;
  const numbers = numberErrors(log, "log", []).slice(0, 20);
  const chain = await chainErrors(log.match_id, events);
  const roster = rosterErrors(log, events);
  const seed = await seedErrors(log);
  report.checks = { numbers: !numbers.length, chain: !chain.length && events.length > 0, roster: !roster.length, seed: !seed.length };
  report.errors = [...numbers, ...chain, ...roster, ...seed];
  if (!events.length) report.errors.push("the log has no events");
  report.valid = report.errors.length === 0;
  return report;
}
