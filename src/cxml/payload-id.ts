/**
 * payloadIDs for outbound documents in the recommended `<epoch-ms>.<random>@<host>` form. The caller
 * supplies randomness and time, so documents are reproducible in tests; a retry must reuse the
 * payloadID of the first attempt, so generate it once per document, not per send.
 */

const HOST = /^[A-Za-z0-9.-]+$/;
const RANDOM = /^[A-Za-z0-9_-]+$/;

/**
 * @example
 * newPayloadId(() => crypto.randomUUID().replaceAll('-', ''), 'punchgate.example.com', new Date());
 * // '1714557600000.3f2a…@punchgate.example.com'
 */
export function newPayloadId(random: () => string, host: string, now: Date): string {
  const time = now.getTime();
  if (Number.isNaN(time)) throw new TypeError('newPayloadId needs a valid Date');
  if (!HOST.test(host)) throw new TypeError(`host must be a host name, got "${host}"`);
  const part = random();
  if (!RANDOM.test(part)) throw new TypeError(`random() must return letters, digits, - or _, got "${part}"`);
  return `${time}.${part}@${host}`;
}
