/**
 * cXML dates and times. Emitted strictly as `YYYY-MM-DDThh:mm:ss±hh:mm` (the guides forbid `Z`);
 * read leniently, because real buyers send every variant: no zone, `Z`, `-0400`, ` -04:00`,
 * fractions, `2020-09-25 15:30:43`, `3/30/2015 11:56:16 AM`, `Mon May 19 18:29:48 +0000 2008`,
 * and date-only delivery dates.
 */
import type { TimestampValue } from './request-types.ts';

export interface CxmlTimestamp {
  /** The instant. A value without a zone is read as UTC. */
  readonly date: Date;
  /** True when the value carried no zone and UTC was assumed. */
  readonly assumedUtc: boolean;
  /** True for a date without a time (`2024-05-01`); `date` is then midnight UTC. */
  readonly dateOnly: boolean;
}

const ISO_LIKE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;
const US_STYLE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]\.?M\.?)?$/i;
const RUBY_STYLE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(UTC|GMT|[+-]\d{2}:?\d{2})\s+(\d{4})$/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Minutes east of UTC for a zone designator, or undefined when it is not one. */
function offsetMinutes(zone: string): number | undefined {
  const upper = zone.toUpperCase();
  if (upper === 'Z' || upper === 'UTC' || upper === 'GMT') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (match === null) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (hours > 14 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The instant for wall-clock fields at a given offset, or undefined for an impossible date. */
function instant(fields: Fields, offset: number): Date | undefined {
  const { year, month, day, hour, minute, second, millisecond } = fields;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return undefined;
  const utc = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), millisecond);
  const check = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31 April into 1 May; a document saying 31 April is wrong, not a different day.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  return new Date(utc - offset * 60_000);
}

function fraction(digits: string | undefined): number {
  return digits === undefined ? 0 : Math.floor(Number(`0.${digits}`) * 1000);
}

function parseIsoLike(value: string): CxmlTimestamp | undefined {
  const match = ISO_LIKE.exec(value);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, millis, zone] = match;
  const offset = zone === undefined ? 0 : offsetMinutes(zone);
  if (offset === undefined) return undefined;
  const date = instant(
    {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour ?? '0'),
      minute: Number(minute ?? '0'),
      second: Number(second ?? '0'),
      millisecond: fraction(millis),
    },
    offset,
  );
  if (date === undefined) return undefined;
  return { date, assumedUtc: zone === undefined, dateOnly: hour === undefined };
}

function parseUsStyle(value: string): CxmlTimestamp | undefined {
  const match = US_STYLE.exec(value);
  if (match === null) return undefined;
  const [, month, day, year, hour, minute, second, meridiem] = match;
  let hours = Number(hour);
  if (meridiem !== undefined) {
    if (hours < 1 || hours > 12) return undefined;
    const pm = meridiem.toUpperCase().startsWith('P');
    hours = (hours % 12) + (pm ? 12 : 0);
  }
  const date = instant(
    {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: hours,
      minute: Number(minute),
      second: Number(second ?? '0'),
      millisecond: 0,
    },
    0,
  );
  return date === undefined ? undefined : { date, assumedUtc: true, dateOnly: false };
}

function parseRubyStyle(value: string): CxmlTimestamp | undefined {
  const match = RUBY_STYLE.exec(value);
  if (match === null) return undefined;
  const [, monthName, day, hour, minute, second, zone, year] = match;
  const month = MONTHS.indexOf((monthName ?? '').toLowerCase()) + 1;
  const offset = offsetMinutes(zone ?? '');
  if (month === 0 || offset === undefined) return undefined;
  const date = instant(
    {
      year: Number(year),
      month,
      day: Number(day),
      hour: Number(hour),
      minute: Number(minute),
      second: Number(second),
      millisecond: 0,
    },
    offset,
  );
  return date === undefined ? undefined : { date, assumedUtc: false, dateOnly: false };
}

/**
 * Read a cXML timestamp or date as buyers really write them; undefined when it cannot be read.
 *
 * @example
 * parseCxmlTimestamp('2018-03-22T17:10:07 -04:00')?.date.toISOString(); // '2018-03-22T21:10:07.000Z'
 * parseCxmlTimestamp('2016-04-20T04:34:19')?.assumedUtc; // true
 */
export function parseCxmlTimestamp(value: string): CxmlTimestamp | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return parseIsoLike(trimmed) ?? parseUsStyle(trimmed) ?? parseRubyStyle(trimmed);
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/**
 * Write an instant as cXML wants it: local time at the given offset, with the offset, never `Z`.
 *
 * @example
 * formatCxmlTimestamp(new Date('2024-05-01T12:00:00Z'), 120); // '2024-05-01T14:00:00+02:00'
 */
export function formatCxmlTimestamp(date: Date, offsetMinutes = 0): string {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new TypeError('formatCxmlTimestamp needs a valid Date');
  if (!Number.isInteger(offsetMinutes) || Math.abs(offsetMinutes) > 14 * 60) {
    throw new TypeError(`Time-zone offset must be whole minutes within ±14 hours, got ${offsetMinutes}`);
  }
  const local = new Date(time + offsetMinutes * 60_000);
  const year = local.getUTCFullYear();
  if (year < 0 || year > 9999) throw new TypeError(`Year ${year} cannot be written as a cXML timestamp`);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The exact form `formatCxmlTimestamp` writes, for checking timestamps handed to the builders. */
export const STRICT_CXML_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?[+-]\d{2}:\d{2}$/;

/** A timestamp attribute of an inbound document: kept as sent, with its instant (ISO text) when readable. */
export function readTimestampValue(raw: string): TimestampValue {
  const parsed = parseCxmlTimestamp(raw);
  return {
    raw,
    ...(parsed !== undefined && { instant: parsed.date.toISOString() }),
    assumedUtc: parsed?.assumedUtc ?? false,
    dateOnly: parsed?.dateOnly ?? false,
  };
}
