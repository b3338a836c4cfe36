/** Which lines of a PO say where to ship: their own usable ShipTo, else the order's. */
import { describe, expect, it } from 'vitest';
import type { Address } from '../../../src/cxml/index.ts';
import { isUsableAddress, linesWithoutShipTo } from '../../../src/gateway/orders/ship-to.ts';

const address = (parts: Partial<Address>): Address => ({
  name: 'Receiving',
  deliverTo: [],
  street: [],
  ...parts,
});
const FULL = address({ street: ['1 Dock Road'], city: 'Springfield', postalCode: '62701' });

describe('isUsableAddress', () => {
  it('needs a street, a city and a postal code', () => {
    expect(isUsableAddress(FULL)).toBe(true);
    expect(isUsableAddress(undefined)).toBe(false);
    expect(isUsableAddress(address({ city: 'Springfield', postalCode: '62701' }))).toBe(false);
    expect(isUsableAddress(address({ street: ['1 Dock Road'], postalCode: '62701' }))).toBe(false);
    expect(isUsableAddress(address({ street: ['1 Dock Road'], city: 'Springfield' }))).toBe(false);
    expect(isUsableAddress(address({ street: [' '], city: 'Springfield', postalCode: '62701' }))).toBe(false);
  });
});

describe('linesWithoutShipTo', () => {
  const lines = [{ lineNumber: 1 }, { lineNumber: 2, shipTo: FULL }, { lineNumber: 3, shipTo: address({}) }];

  it('with a usable order address, every line ships there or to its own', () => {
    expect(linesWithoutShipTo({ shipTo: FULL }, lines)).toEqual([]);
  });

  it('without one, the lines lacking a usable address of their own', () => {
    expect(linesWithoutShipTo({}, lines)).toEqual([1, 3]);
    expect(linesWithoutShipTo({ shipTo: address({ city: 'Springfield' }) }, lines)).toEqual([1, 3]);
  });
});
