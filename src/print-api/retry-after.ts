/**
 * Retry-After (RFC 9110 §10.2.3): either a number of seconds or an HTTP-date.
 */

const DELAY_SECONDS = /^\d+$/;
// The three HTTP-date forms recipients must accept (RFC 9110 §5.6.7); Date.parse alone takes far more.
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

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
  if (DELAY_SECONDS.test(text)) return Number(text);
  let at: number;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) at = Date.parse(text);
  // asctime carries no zone but means GMT; Date.parse would read it as local time.
  else if (ASCTIME_DATE.test(text)) at = Date.parse(`${text} GMT`);
  else return undefined;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
