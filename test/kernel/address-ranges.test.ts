import { describe, expect, it } from 'vitest';
import { inAddressRanges, parseAddress, parseAddressRange } from '../../src/kernel/address-ranges.ts';

const ranges = (...entries: string[]) =>
  entries.map((entry) => {
    const range = parseAddressRange(entry);
    if (range === undefined) throw new Error(`test range ${entry} does not parse`);
    return range;
  });

describe('address ranges', () => {
  it.each([
    '203.0.113.7',
    '203.0.113.0/24',
    '0.0.0.0/0',
    '2001:db8::1',
    '2001:db8::/32',
    '::/0',
    '::',
    '::ffff:192.0.2.0/120',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '2001:DB8::A/64',
  ])('accepts %s', (entry) => {
    expect(parseAddressRange(entry)).toBeDefined();
  });

  it.each([
    '',
    'unknown',
    '203.0.113',
    '203.0.113.256',
    '203.0.113.07',
    '203.0.113.0/33',
    '203.0.113.0/',
    '203.0.113.0/24/1',
    '2001:db8::/129',
    '2001:db8:::1',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    'fe80::1%eth0',
    'example.com',
  ])('refuses %j', (entry) => {
    expect(parseAddressRange(entry)).toBeUndefined();
  });

  it('matches addresses inside a range and nothing outside it', () => {
    const allowed = ranges('203.0.113.0/24', '198.51.100.7', '2001:db8::/32');
    for (const inside of ['203.0.113.0', '203.0.113.255', '198.51.100.7', '2001:db8:ffff::1', '2001:DB8::']) {
      expect(inAddressRanges(inside, allowed), inside).toBe(true);
    }
    for (const outside of ['203.0.114.0', '198.51.100.8', '2001:db9::1', 'unknown', '', '::1']) {
      expect(inAddressRanges(outside, allowed), outside).toBe(false);
    }
  });

  it('host bits of a range are ignored, as CIDR notation means', () => {
    expect(inAddressRanges('203.0.113.9', ranges('203.0.113.200/24'))).toBe(true);
  });

  it('an IPv4 client reported as IPv4-mapped IPv6 matches its IPv4 range, and the reverse', () => {
    expect(parseAddress('::ffff:203.0.113.7')).toEqual(parseAddress('203.0.113.7'));
    expect(inAddressRanges('::ffff:203.0.113.7', ranges('203.0.113.0/24'))).toBe(true);
    expect(inAddressRanges('203.0.113.7', ranges('::ffff:203.0.113.0/120'))).toBe(true);
    expect(inAddressRanges('203.0.113.7', ranges('2001:db8::/32'))).toBe(false);
  });

  it('a zone on a reported link-local address is ignored', () => {
    expect(inAddressRanges('fe80::1%eth0', ranges('fe80::/10'))).toBe(true);
  });

  it('no ranges match nothing; /0 matches every address of its family', () => {
    expect(inAddressRanges('203.0.113.7', [])).toBe(false);
    expect(inAddressRanges('203.0.113.7', ranges('0.0.0.0/0'))).toBe(true);
    expect(inAddressRanges('2001:db8::1', ranges('0.0.0.0/0'))).toBe(false);
  });
});
