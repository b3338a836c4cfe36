/**
 * IPv4 and IPv6 addresses and CIDR ranges, read strictly and compared as numbers, for allow-lists of
 * client addresses (a buyer's `authAllowedAddresses`). One parser serves the config check and the match at
 * request time, so an entry the check accepts is an entry that matches. Pure: no `node:net`, as the gateway
 * also runs on Workers.
 */

export interface AddressRange {
  family: 4 | 6;
  /** The network address (host bits cleared). */
  network: bigint;
  /** Leading bits that must match: 0–32 for IPv4, 0–128 for IPv6. */
  prefix: number;
}

interface Address {
  family: 4 | 6;
  value: bigint;
}

const OCTET = /^(0|[1-9]\d{0,2})$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // No leading zeros: "010" is octal to some parsers and decimal to others.
    if (!OCTET.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseHextets(text: string): bigint[] | undefined {
  if (text === '') return [];
  const groups: bigint[] = [];
  const parts = text.split(':');
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes('.')) {
      // An embedded IPv4 tail (::ffff:192.0.2.1) fills the last two groups.
      const v4 = parseIpv4(part);
      if (v4 === undefined) return undefined;
      groups.push(v4 >> 16n, v4 & 0xffffn);
    } else if (HEXTET.test(part)) groups.push(BigInt(`0x${part}`));
    else return undefined;
  }
  return groups;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = parseHextets(halves[0] ?? '');
  const tail = halves.length === 2 ? parseHextets(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<bigint>(missing).fill(0n), ...tail];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

const MAPPED_PREFIX = 0xffffn << 32n;

/**
 * An address as the runtime reports it: IPv4, or IPv6 with an optional zone (`fe80::1%eth0`, the zone
 * ignored). An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports) is the IPv4
 * address, so an IPv4 range matches it.
 */
export function parseAddress(text: string): Address | undefined {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIpv6(trimmed.replace(/%[^%]*$/, ''));
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === MAPPED_PREFIX >> 32n) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

/** `203.0.113.7`, `203.0.113.0/24`, `2001:db8::1` or `2001:db8::/32`; undefined for anything else. */
export function parseAddressRange(text: string): AddressRange | undefined {
  const [addressText = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || addressText.includes('%')) return undefined;
  const address = parseAddress(addressText);
  if (address === undefined) return undefined;
  // A mapped address written as IPv6 keeps IPv6 prefix lengths.
  const family = addressText.includes(':') ? 6 : 4;
  const bits = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  const value = family === 6 && address.family === 4 ? MAPPED_PREFIX | address.value : address.value;
  const hostBits = BigInt(bits - prefix);
  return { family, network: (value >> hostBits) << hostBits, prefix };
}

/** Whether the address (as the runtime reports it) lies in any of the ranges; never for an unreadable one. */
export function inAddressRanges(address: string, ranges: readonly AddressRange[]): boolean {
  if (ranges.length === 0) return false;
  const parsed = parseAddress(address);
  if (parsed === undefined) return false;
  return ranges.some((range) => {
    let value = parsed.value;
    if (range.family !== parsed.family) {
      // An IPv4 client against a range written as IPv6 (::ffff:0:0/96 and the like).
      if (range.family !== 6) return false;
      value = MAPPED_PREFIX | value;
    }
    const hostBits = BigInt((range.family === 4 ? 32 : 128) - range.prefix);
    return value >> hostBits === range.network >> hostBits;
  });
}
