import { describe, expect, it } from 'vitest';
import { printOrderIds } from '../../packages/sandbox/src/buyer/print-order-ids.ts';
import type { ConfirmationView, PurchaseOrder } from '../../packages/sandbox/src/buyer/requisition.ts';

const confirmationWith = (confirmID: string): ConfirmationView => ({
  receivedAt: '2026-01-01T00:00:00Z',
  payloadID: `${confirmID}@gateway.test`,
  type: 'detail',
  operation: 'new',
  confirmID,
  noticeDate: '2026-01-01T00:00:00+00:00',
  comments: '',
  extrinsics: [],
  items: [],
});

describe('the print order ids the demo advances', () => {
  it('takes each id of a comma-separated confirmID once, without the counter of later confirmations', () => {
    const order: PurchaseOrder = {
      orderID: 'PO-1001',
      payloadID: 'po-1001@buyer.test',
      orderDate: '2026-01-01T00:00:00+00:00',
      document: '',
      attempts: 1,
      answer: { code: 200, text: 'OK', detail: '' },
      confirmations: ['1042,1043', '1042,1043-2', '1042,1043-3'].map(confirmationWith),
      shipNotices: [],
    };
    expect(printOrderIds(order)).toEqual(['1042', '1043']);
  });
});
