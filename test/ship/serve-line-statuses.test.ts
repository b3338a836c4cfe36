/**
 * Line statuses that mean what they say, from what ships: `punchgate serve` beside `punchgate sandbox`, the
 * storefront's `cancelStatus` configured as docs/configuration.md writes it. A PO of two designers' lines
 * becomes two print orders; the print shop cancels one on the print service and the buyer gets a `detail`
 * rejecting exactly that one's line, with the reason; it cancels the other and the buyer gets a `reject`
 * of the whole PO. Never an `accept` for a cancelled line; every document Fulfill.dtd-valid, each a
 * confirmation with a confirmID of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeDtdValidators, requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';
import { linesOf, orderRequest, punchOut, receivedDocuments, type XmlTree } from '../support/order-flow.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { acceptAtBuyer, printShopApi, serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const asList = (value: XmlTree | XmlTree[] | undefined): XmlTree[] =>
  value === undefined ? [] : [value].flat();

describe('punchgate serve: a print order the shop cancels is rejected to the buyer, line by line', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  const stack = useServeBesideSandbox({
    adjustConfig: (config) => {
      config.storefronts[0].cancelStatus = 'Cancelled';
    },
  });
  const browser = serveBrowser(() => stack.serve);

  it('one print order cancelled: its line rejected with the reason; both cancelled: the whole PO rejected', async () => {
    const { buyer, sandbox, serve } = stack;
    const processes = [serve.process, sandbox.process];
    const jane = await punchOut(browser, ['Business cards'], {
      browserFormPost: buyer.returnUrl,
      uniqueName: 'jroe',
      userEmail: 'jane.roe@acme.example',
    });
    const max = await punchOut(browser, ['A5 flyer'], {
      browserFormPost: buyer.returnUrl,
      uniqueName: 'mmax',
      userEmail: 'max@acme.example',
    });
    const payloadID = `po-cancel-${Date.now()}@acme.example`;
    const answer = await browser.postCxml(
      orderRequest({ payloadID, orderID: 'PO-SHOP-CANCEL', lines: linesOf([...jane, ...max]) }),
    );
    expect(answer).toMatch(/<Status code="200" text="OK"/);
    const accept = await acceptAtBuyer(buyer, processes);
    const reference = accept.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID'] as string;
    const [first, second] = reference.split(',').map(Number);
    expect(reference, 'two print orders, one per designer').toMatch(/^\d+,\d+$/);

    // The shop cancels the flyer's print order on the print service, as its staff do.
    const printShop = printShopApi(sandbox);
    await printShop.setStatus(second as number, { order_status: 'Cancelled', comments: 'Out of paper' });
    const detail = await eventually(
      'the detail rejecting line 2 at the buyer',
      () =>
        receivedDocuments(buyer, 'ConfirmationRequest').find(
          ({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'] === 'detail',
        ),
      { processes },
    );
    const request = detail.doc.Request.ConfirmationRequest;
    expect(request.ConfirmationHeader['@confirmID']).toBe(`${reference}-2`);
    expect(request.ConfirmationHeader['@operation']).toBeUndefined();
    expect(request.OrderReference.DocumentReference['@payloadID']).toBe(payloadID);
    const reason = `Print order ${second} was cancelled by the supplier (status "Cancelled").`;
    expect(
      asList(request.ConfirmationItem).map((item) => ({
        line: item['@lineNumber'],
        quantity: item['@quantity'],
        statuses: asList(item.ConfirmationStatus).map((s) => [
          s['@type'],
          s['@quantity'],
          s.Comments['#text'],
        ]),
      })),
    ).toEqual([{ line: '2', quantity: '1', statuses: [['reject', '1', reason]] }]);
    expect(validateAgainstDtd(detail.post.body, 'Fulfill')).toEqual({ ok: true, messages: '' });

    // Then the other one: nothing of the PO is left.
    await printShop.setStatus(first as number, { order_status: 'Cancelled' });
    const reject = await eventually(
      'the reject of the whole PO at the buyer',
      () =>
        receivedDocuments(buyer, 'ConfirmationRequest').find(
          ({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'] === 'reject',
        ),
      { processes },
    );
    const header = reject.doc.Request.ConfirmationRequest.ConfirmationHeader;
    expect(header['@confirmID']).toBe(`${reference}-3`);
    expect(header.Comments['#text']).toBe(
      `Print order ${first} was cancelled by the supplier (status "Cancelled"). No line of this order will be delivered.`,
    );
    expect(reject.doc.Request.ConfirmationRequest.ConfirmationItem).toBeUndefined();
    expect(validateAgainstDtd(reject.post.body, 'Fulfill')).toEqual({ ok: true, messages: '' });

    // No cancelled line was ever confirmed as accepted: the accept was the only one, before either cancel.
    const statuses = receivedDocuments(buyer, 'ConfirmationRequest').map(({ doc }) => {
      const confirmation = doc.Request.ConfirmationRequest;
      return [
        confirmation.ConfirmationHeader['@type'],
        asList(confirmation.ConfirmationItem).flatMap((item) =>
          asList(item.ConfirmationStatus).map((s) => `${item['@lineNumber']}:${s['@type']}`),
        ),
      ];
    });
    expect(statuses).toEqual([
      ['accept', []],
      ['detail', ['2:reject']],
      ['reject', []],
    ]);
  });
});
