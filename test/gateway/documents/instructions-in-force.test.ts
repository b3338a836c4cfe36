/**
 * `instructionsInForce`: the one decision every path asks before sending a buyer a document. A line's own
 * instruction overrides the header's; a confirmation speaks for the whole order, a ship notice or an
 * invoice for the lines it covers.
 */
import { describe, expect, it } from 'vitest';
import type { ControlKeys } from '../../../src/cxml/index.ts';
import {
  instructionEffects,
  instructionsInForce,
  withheldBecause,
} from '../../../src/gateway/documents/instructions-in-force.ts';

const order = (header: ControlKeys | undefined, ...lines: (ControlKeys | undefined)[]) => ({
  ...(header !== undefined && { controlKeys: header }),
  items: lines.map((controlKeys, i) => ({
    lineNumber: i + 1,
    ...(controlKeys !== undefined && { controlKeys }),
  })),
});

const allowed = (request: ReturnType<typeof order>, lines?: number[]) => {
  const { restrictions: _, ...decision } = instructionsInForce(request, lines);
  return decision;
};

const EVERYTHING = {
  confirmation: true,
  confirmationBeforeShipNotice: false,
  shipNotice: true,
  invoice: true,
};

describe('instructionsInForce', () => {
  it('without ControlKeys every document is allowed and nothing is listed', () => {
    expect(instructionsInForce(order(undefined, undefined, undefined))).toEqual({
      ...EVERYTHING,
      restrictions: [],
    });
    expect(instructionEffects(order(undefined, undefined))).toEqual([]);
  });

  it('the values that allow (allowed, isNotERS, TemporaryPrice no) restrict nothing', () => {
    const request = order(
      { ocInstruction: 'allowed', asnInstruction: 'allowed', invoiceInstruction: 'isNotERS' },
      { invoiceInstruction: 'allowed' },
    );
    expect(allowed(request)).toEqual(EVERYTHING);
    expect(instructionsInForce(request).restrictions).toEqual([]);
  });

  it('header keys apply to every line that gives none of its own', () => {
    const request = order(
      { ocInstruction: 'notAllowed', asnInstruction: 'notAllowed', invoiceInstruction: 'isERS' },
      undefined,
      undefined,
    );
    expect(allowed(request)).toEqual({
      confirmation: false,
      confirmationBeforeShipNotice: false,
      shipNotice: false,
      invoice: false,
    });
    expect(allowed(request, [2])).toMatchObject({ shipNotice: false, invoice: false });
  });

  it("a line's own instruction overrides the header's, either way", () => {
    const request = order(
      { asnInstruction: 'notAllowed', invoiceInstruction: 'isERS' },
      { asnInstruction: 'allowed', invoiceInstruction: 'isNotERS' },
      undefined,
    );
    expect(allowed(request, [1])).toMatchObject({ shipNotice: true, invoice: true });
    expect(allowed(request, [2])).toMatchObject({ shipNotice: false, invoice: false });
    // An invoice or notice covering both lines covers one that forbids it.
    expect(allowed(request, [1, 2])).toMatchObject({ shipNotice: false, invoice: false });
    const lifted = order({ invoiceInstruction: 'notAllowed' }, { invoiceInstruction: 'allowed' });
    expect(allowed(lifted)).toMatchObject({ invoice: true });
  });

  it('one line that allows no confirmation withholds the confirmation of the whole order, whatever the scope', () => {
    const request = order(undefined, undefined, { ocInstruction: 'notAllowed' });
    expect(allowed(request)).toMatchObject({ confirmation: false });
    expect(allowed(request, [1])).toMatchObject({ confirmation: false });
    // Every line lifting the header's notAllowed: confirmed.
    expect(allowed(order({ ocInstruction: 'notAllowed' }, { ocInstruction: 'allowed' }))).toMatchObject({
      confirmation: true,
    });
  });

  it('requiredBeforeASN holds ship notices of the lines it covers, and none once no confirmation may go out', () => {
    const request = order(undefined, { ocInstruction: 'requiredBeforeASN' }, undefined);
    expect(allowed(request, [1])).toMatchObject({ confirmation: true, confirmationBeforeShipNotice: true });
    expect(allowed(request, [2])).toMatchObject({ confirmationBeforeShipNotice: false });
    // No confirmation will ever be delivered: a notice waiting for one would wait for ever.
    const contradictory = order(
      undefined,
      { ocInstruction: 'requiredBeforeASN' },
      { ocInstruction: 'notAllowed' },
    );
    expect(allowed(contradictory, [1])).toMatchObject({
      confirmation: false,
      confirmationBeforeShipNotice: false,
    });
  });

  it('a TemporaryPrice of yes forbids the invoice of its line, or of every line from the header', () => {
    expect(allowed(order(undefined, { temporaryPrice: true }, undefined), [1])).toMatchObject({
      invoice: false,
    });
    expect(allowed(order(undefined, { temporaryPrice: true }, undefined), [2])).toMatchObject({
      invoice: true,
    });
    expect(allowed(order({ temporaryPrice: true }, undefined), [1])).toMatchObject({ invoice: false });
  });

  it('a PO without lines (a delete) is judged by its header', () => {
    expect(allowed(order({ ocInstruction: 'notAllowed', invoiceInstruction: 'isERS' }))).toEqual({
      ...EVERYTHING,
      confirmation: false,
      invoice: false,
    });
  });
});

describe('what people read', () => {
  const request = order(
    { ocInstruction: 'requiredBeforeASN', invoiceInstruction: 'isERS' },
    { invoiceInstruction: 'isNotERS' },
    { asnInstruction: 'notAllowed', temporaryPrice: true },
  );

  it('withheldBecause names the instructions that forbid a document, and nothing when it is allowed', () => {
    expect(withheldBecause(instructionsInForce(request, [2]), 'invoice')).toBe(
      "the buyer's OrderRequest allows no invoice or credit memo: InvoiceInstruction isERS (order), InvoiceInstruction TemporaryPrice yes (line 2)",
    );
    expect(withheldBecause(instructionsInForce(request, [1]), 'invoice')).toBeUndefined();
    expect(withheldBecause(instructionsInForce(request, [2]), 'ship_notice')).toBe(
      "the buyer's OrderRequest allows no ShipNoticeRequest: ASNInstruction notAllowed (line 2)",
    );
    expect(withheldBecause(instructionsInForce(request), 'confirmation')).toBeUndefined();
  });

  it('instructionEffects says what each instruction does, and which line lifts the header', () => {
    expect(instructionEffects(request)).toEqual([
      'OCInstruction requiredBeforeASN (order): a ship notice goes out only after a confirmation was delivered',
      'InvoiceInstruction isERS (order): evaluated receipt settlement — the buyer pays from its goods receipt, so no invoice or credit memo is sent',
      'ASNInstruction notAllowed (line 2): no ship notice names this line',
      'InvoiceInstruction TemporaryPrice yes (line 2): the price is temporary, so no invoice or credit memo is sent for the print order of this line',
      "InvoiceInstruction isNotERS (line 1): this line overrides the order's InvoiceInstruction",
    ]);
  });
});
