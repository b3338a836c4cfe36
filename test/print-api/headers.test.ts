/**
 * The two response headers the client reads for itself: Content-Disposition (file names) and Retry-After.
 */
import { describe, expect, it } from 'vitest';
import { parseContentDispositionFilename, parseRetryAfter } from '../../src/index.ts';

describe('parseContentDispositionFilename', () => {
  it.each([
    ['attachment; filename="order-12.zip"', 'order-12.zip'],
    ['attachment; filename=item-9001.zip', 'item-9001.zip'],
    ['attachment;filename="item-assets-9001.zip"', 'item-assets-9001.zip'],
    ['ATTACHMENT; FILENAME="Upper.zip"', 'Upper.zip'],
    ['attachment; filename="with \\"quotes\\".png"', 'with "quotes".png'],
    ['attachment; filename="semi;colon.zip"; size=12', 'semi;colon.zip'],
    ["attachment; filename*=UTF-8''na%C3%AFve%20file.png", 'naïve file.png'],
    ["attachment; filename*=utf-8'en'%E2%82%AC-rates.pdf", '€-rates.pdf'],
    ["attachment; filename*=ISO-8859-1''caf%E9.zip", 'café.zip'],
    // filename* wins over filename, in either order.
    ['attachment; filename="plain.zip"; filename*=UTF-8\'\'%C3%BC.zip', 'ü.zip'],
    ['attachment; filename*=UTF-8\'\'%C3%BC.zip; filename="plain.zip"', 'ü.zip'],
    // A broken extended value falls back to the plain one.
    ['attachment; filename*=UTF-8\'\'%E0%A4%A.zip; filename="plain.zip"', 'plain.zip'],
    // Paths are cut to the bare name.
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="C:\\\\temp\\\\x.zip"', 'x.zip'],
    ['attachment; filename=".."', undefined],
    ['attachment', undefined],
    ['inline; name="x"', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j → %j', (header, expected) => {
    expect(parseContentDispositionFilename(header)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2015-10-21T07:27:00Z');

  it.each([
    ['60', 60],
    [' 30 ', 30],
    ['0', 0],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 60],
    ['Wednesday, 21-Oct-15 07:28:00 GMT', 60],
    ['Wed Oct 21 07:28:00 2015', 60],
    ['Wed Oct  1 07:28:00 2015', 0],
    ['Wed, 21 Oct 2015 07:27:00 GMT', 0],
    ['Wed, 21 Oct 2015 07:00:00 GMT', 0],
    ['Wed, 21 Oct 2015 07:27:00.5 GMT', undefined],
    ['2015-10-21T07:28:00Z', undefined],
    ['-5', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
