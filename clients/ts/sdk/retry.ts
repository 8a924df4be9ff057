/**
 * Retry of 429 (Too Many Requests) and 503 (Service Unavailable) answers, honouring
 * `Retry-After` (RFC 9110 section 10.2.3: delay-seconds or an HTTP-date).
 *
 * Only safe requests (GET, HEAD) and requests carrying an `Idempotency-Key` are repeated:
 * the server answers a repeated key with the first answer, so a POST never acts twice.
 */

/** How often and how long a request is retried. */
export interface RetryOptions {
  /** Attempts in all (the first one included); 1 disables retries. */
  readonly attempts: number;
  /** Longest wait between two attempts, in seconds (a longer `Retry-After` is capped). */
  readonly maxDelayS: number;
  /** Wait in seconds when the answer has no usable `Retry-After`. */
  readonly defaultDelayS: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 5, maxDelayS: 5, defaultDelayS: 0.5 };

const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Seconds to wait according to a `Retry-After` header value (`null` when absent or
 * unreadable); an HTTP-date in the past gives 0.
 */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (at - now) / 1000);
}

/** True when repeating `request` cannot act twice (GET/HEAD, or an Idempotency-Key). */
export function isRepeatable(request: Request): boolean {
  return request.method === "GET" || request.method === "HEAD" ||
    request.headers.has("Idempotency-Key");
}

const sleep = (seconds: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * A `fetch` (as openapi-fetch calls it: one `Request`) that repeats repeatable requests
 * answered 429 or 503, waiting `Retry-After` (capped at `options.maxDelayS`). The last
 * answer is returned whatever its status.
 */
export function retryingFetch(
  options: RetryOptions = DEFAULT_RETRY,
  base: (input: Request) => Promise<Response> = (input) => fetch(input),
): (input: Request) => Promise<Response> {
  return async (request: Request): Promise<Response> => {
    const repeatable = isRepeatable(request);
    for (let attempt = 1; ; attempt += 1) {
      const response = await base(repeatable ? request.clone() : request);
      if (!repeatable || attempt >= options.attempts || !RETRIED_STATUSES.has(response.status)) {
        return response;
      }
      const asked = retryAfterSeconds(response.headers.get("Retry-After"));
      await response.body?.cancel();
      await sleep(Math.min(options.maxDelayS, asked ?? options.defaultDelayS));
    }
  };
}
