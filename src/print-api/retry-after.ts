/**
 * Retry-After (RFC 9110 §10.2.3): either a number of seconds or an HTTP-date.
 */

const DELAY_SECONDS = /^\d+$/;

/**
 * Seconds to wait from `nowMs`, or undefined when the header is absent or unreadable. A date in the past
 * means "now" (0).
 *
 * @example
 * parseRetryAfter('60', Date.now()); // 60
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('2015-10-21T07:27:00Z')); // 60
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (DELAY_SECONDS.test(text)) return Number(text);
  // Date.parse reads IMF-fixdate, RFC 850 and asctime forms; anything else gives NaN.
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
