import { describe, expect, it } from 'vitest';
import { formatCxmlTimestamp, parseCxmlTimestamp } from '../../src/cxml/index.ts';

describe('parseCxmlTimestamp', () => {
  it.each([
    // [as sent, instant, zone assumed, date only]
    ['2022-02-15T12:27:31-08:00', '2022-02-15T20:27:31.000Z', false, false],
    ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000Z', false, false],
    ['2024-05-01T10:00:00z', '2024-05-01T10:00:00.000Z', false, false],
    ['2018-03-22T17:10:07-0400', '2018-03-22T21:10:07.000Z', false, false],
    ['2018-03-22T17:10:07 -04:00', '2018-03-22T21:10:07.000Z', false, false],
    ['2024-05-01T10:00:00+05:30', '2024-05-01T04:30:00.000Z', false, false],
    ['2024-05-01T10:00:00+0530', '2024-05-01T04:30:00.000Z', false, false],
    ['2024-05-01T10:00:00+05', '2024-05-01T05:00:00.000Z', false, false],
    ['2022-06-22T08:32:21.831Z', '2022-06-22T08:32:21.831Z', false, false],
    ['2022-06-22T08:32:21.8319999+02:00', '2022-06-22T06:32:21.831Z', false, false],
    ['2016-04-20T04:34:19', '2016-04-20T04:34:19.000Z', true, false],
    ['2020-09-25 15:30:43', '2020-09-25T15:30:43.000Z', true, false],
    ['2024-05-01T10:00', '2024-05-01T10:00:00.000Z', true, false],
    ['2024-05-01T10:00:00 UTC', '2024-05-01T10:00:00.000Z', false, false],
    ['3/30/2015 11:56:16 AM', '2015-03-30T11:56:16.000Z', true, false],
    ['3/30/2015 11:56:16 PM', '2015-03-30T23:56:16.000Z', true, false],
    ['12/1/2015 12:05:00 AM', '2015-12-01T00:05:00.000Z', true, false],
    ['12/1/2015 12:05:00 PM', '2015-12-01T12:05:00.000Z', true, false],
    ['3/30/2015 17:56', '2015-03-30T17:56:00.000Z', true, false],
    ['Mon May 19 18:29:48 +0000 2008', '2008-05-19T18:29:48.000Z', false, false],
    ['Wed May 01 18:29:48 -0700 2024', '2024-05-02T01:29:48.000Z', false, false],
    ['2024-05-01', '2024-05-01T00:00:00.000Z', true, true],
    ['  2024-05-01T10:00:00Z  ', '2024-05-01T10:00:00.000Z', false, false],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z', false, false],
  ])('reads %j', (raw, iso, assumedUtc, dateOnly) => {
    const parsed = parseCxmlTimestamp(raw);
    expect(parsed?.date.toISOString()).toBe(iso);
    expect(parsed?.assumedUtc).toBe(assumedUtc);
    expect(parsed?.dateOnly).toBe(dateOnly);
  });

  it.each([
    '',
    'yesterday',
    '2019-06-20UTC12:52:15+00:00',
    '2024-13-01T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2023-02-29',
    '2024-05-01T24:00:00Z',
    '2024-05-01T10:60:00Z',
    '2024-05-01T10:00:00+15:00',
    '13/30/2015 11:56:16 AM',
    '3/30/2015 13:56:16 PM',
    'Mon Foo 19 18:29:48 +0000 2008',
  ])('returns undefined for %j', (raw) => {
    expect(parseCxmlTimestamp(raw)).toBeUndefined();
  });
});

describe('formatCxmlTimestamp', () => {
  const instant = new Date('2024-05-01T22:30:05.999Z');

  it.each([
    [0, '2024-05-01T22:30:05+00:00'],
    [120, '2024-05-02T00:30:05+02:00'],
    [-240, '2024-05-01T18:30:05-04:00'],
    [330, '2024-05-02T04:00:05+05:30'],
    [-570, '2024-05-01T13:00:05-09:30'],
  ])('writes offset %i as %s, never Z', (offset, expected) => {
    expect(formatCxmlTimestamp(instant, offset)).toBe(expected);
  });

  it('defaults to +00:00', () => {
    expect(formatCxmlTimestamp(new Date('2000-01-02T03:04:05Z'))).toBe('2000-01-02T03:04:05+00:00');
  });

  it('round-trips through parseCxmlTimestamp to the second', () => {
    const parsed = parseCxmlTimestamp(formatCxmlTimestamp(instant, -330));
    expect(parsed?.date.toISOString()).toBe('2024-05-01T22:30:05.000Z');
    expect(parsed?.assumedUtc).toBe(false);
  });

  it('refuses invalid dates and offsets', () => {
    expect(() => formatCxmlTimestamp(new Date('nope'))).toThrow(TypeError);
    expect(() => formatCxmlTimestamp(instant, 15 * 60)).toThrow(TypeError);
    expect(() => formatCxmlTimestamp(instant, 1.5)).toThrow(TypeError);
  });
});
