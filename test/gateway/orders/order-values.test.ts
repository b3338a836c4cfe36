import { describe, expect, it } from 'vitest';
import { readResponseStatus } from '../../../src/gateway/documents/outbox-delivery.ts';
import { retryDelayMs } from '../../../src/gateway/documents/retry-delay.ts';
import { sameDecimal } from '../../../src/gateway/orders/intake.ts';
import { splitTrackingNumbers } from '../../../src/gateway/orders/print-order-sync.ts';

describe('sameDecimal (PO values against the cart, no floating point)', () => {
  it.each([
    ['0.12', '0.12', true],
    ['0.120', '0.12', true],
    ['00100', '100', true],
    ['100.0', '100', true],
    ['.5', '0.5', true],
    ['-0.0', '0', true],
    ['0.1', '0.10000000000000001', false],
    ['2.5', '25', false],
    ['100', '1000', false],
  ])('%s vs %s: %s', (a, b, same) => {
    expect(sameDecimal(a, b)).toBe(same);
  });
});

describe('readResponseStatus (the buyer’s answer to an order-status document)', () => {
  it.each([
    ['<cXML><Response><Status code="200" text="OK"/></Response></cXML>', { code: 200, text: 'OK' }],
    [
      "<cXML><Response><Status text='Accepted' code='201'/></Response></cXML>",
      { code: 201, text: 'Accepted' },
    ],
    [
      '<?xml version="1.0"?>\n<cxml payloadID="x"><Response>\n<Status code = " 406 " text="Not Acceptable">bad</Status></Response></cxml>',
      { code: 406, text: 'Not Acceptable' },
    ],
  ])('%s', (xml, status) => {
    expect(readResponseStatus(xml)).toEqual(status);
  });

  it.each([
    ['not cXML', '<html><body>OK</body></html>'],
    ['no Status', '<cXML><Response/></cXML>'],
    ['no code', '<cXML><Response><Status text="OK"/></Response></cXML>'],
  ])('%s: undefined', (_case, xml) => {
    expect(readResponseStatus(xml)).toBeUndefined();
  });
});

describe('retry delays and tracking numbers', () => {
  it('doubles from the base and stops at the cap', () => {
    const backoff = { baseMs: 30_000, maxMs: 3_600_000 };
    expect([1, 2, 3, 4, 8, 9, 40].map((n) => retryDelayMs(n, backoff))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it('splits the service’s tracking text on commas and semicolons only, keeping the spaces inside a number', () => {
    expect(splitTrackingNumbers('1Z999, 1Z998;JD0146 ')).toEqual(['1Z999', '1Z998', 'JD0146']);
    expect(splitTrackingNumbers(' 1Z 999 AA1 01 2345 6784 ;; ')).toEqual(['1Z 999 AA1 01 2345 6784']);
    expect(splitTrackingNumbers(null)).toEqual([]);
  });
});
