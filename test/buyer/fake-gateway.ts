/**
 * A stand-in for the gateway the simulator talks to: a tiny Hono app that reads every cXML request with
 * the project's own parser (so a document it cannot read fails the test) and answers a setup request with
 * a StartPage and an OrderRequest with Status 200, or with what the test asks for. Also the documents the
 * real gateway sends back through the browser and to the order-status endpoint, built with src/cxml.
 */

import {
  type AdvanceOrder,
  type BuyerProfile,
  createBuyerSimulator,
  createMemoryBuyerStore,
} from '@punchgate/sandbox/buyer';
import { Hono } from 'hono';
import {
  buildConfirmationRequest,
  buildNoChangeOrderMessage,
  buildOrderMessage,
  buildSetupResponse,
  buildShipNoticeRequest,
  buildStatusResponse,
  type CxmlHeader,
  type CxmlRequest,
  type OrderMessageLine,
  parseCxmlRequest,
} from '../../src/cxml/index.ts';

export const GATEWAY = 'http://gateway.test';
export const PUBLIC = 'http://buyer.test/buyer';
export const NOW = new Date('2026-11-22T09:00:00Z');

export interface FakeGateway {
  readonly fetch: typeof fetch;
  /** Every cXML request received, parsed. */
  readonly requests: CxmlRequest[];
  /** The next answers to send instead of the defaults (first in, first out). */
  readonly answers: { code: number; text: string; detail?: string }[];
}

export function createFakeGateway(): FakeGateway {
  const requests: CxmlRequest[] = [];
  const answers: { code: number; text: string; detail?: string }[] = [];
  const app = new Hono();
  app.post('/cxml', async (c) => {
    const request = parseCxmlRequest(new Uint8Array(await c.req.arrayBuffer()));
    requests.push(request);
    const override = answers.shift();
    const envelope = { payloadID: `${requests.length}.answer@gateway.test`, timestamp: NOW };
    const xml =
      override === undefined && request.kind === 'PunchOutSetupRequest'
        ? buildSetupResponse({
            ...envelope,
            startPageUrl: `${GATEWAY}/punchout/start/one-time-${requests.length}`,
          })
        : buildStatusResponse({ ...envelope, ...(override ?? { code: 200, text: 'OK' }) });
    return c.body(xml, 200, { 'Content-Type': 'text/xml; charset=UTF-8' });
  });
  return {
    fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init))),
    requests,
    answers,
  };
}

let counter = 0;

/** A simulator wired to a fake gateway, with a frozen clock and readable ids. */
export function createTestSimulator(
  options: { profiles?: readonly BuyerProfile[]; advanceOrder?: AdvanceOrder; fetch?: typeof fetch } = {},
) {
  const gateway = createFakeGateway();
  const store = createMemoryBuyerStore({ firstOrderNumber: 1001 });
  const { app } = createBuyerSimulator({
    gatewayUrl: GATEWAY,
    publicUrl: PUBLIC,
    fetch: options.fetch ?? gateway.fetch,
    clock: { now: () => NOW },
    randomId: () => `id${(++counter).toString(36).padStart(6, '0')}`,
    store,
    ...(options.profiles !== undefined && { profiles: options.profiles }),
    ...(options.advanceOrder !== undefined && { advanceOrder: options.advanceOrder }),
  });
  /** A request to the simulator by its public URL (or a path under it). */
  const request = (url: string, init?: RequestInit) =>
    app.request(url.startsWith('http') ? url.slice(PUBLIC.length) || '/' : url, init);
  return { app, gateway, store, request };
}

export function form(fields: readonly (readonly [string, string])[]): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields.map(([n, v]) => [n, v])).toString(),
  };
}

export const SUPPLIER_HEADER: CxmlHeader = {
  from: [{ domain: 'DUNS', identity: 'PRINTCO' }],
  to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
  sender: {
    credentials: [{ domain: 'DUNS', identity: 'PRINTCO', sharedSecret: 'printco-secret' }],
    userAgent: 'punchgate',
  },
};

export const CARD_LINE: OrderMessageLine = {
  quantity: 500,
  lineNumber: 1,
  supplierPartID: 'BC-STD',
  supplierPartAuxiliaryID: 'L7K2QX',
  unitPrice: { value: '0.09', currency: 'USD' },
  description: 'Business cards, 85 × 55 mm',
  unitOfMeasure: 'EA',
  classifications: [{ domain: 'UNSPSC', code: '82121512' }],
  url: 'http://sandbox.test/editor/proof/9',
  leadTimeDays: 5,
  extrinsics: [{ name: 'designId', value: '9' }],
};

export const FLYER_LINE: OrderMessageLine = {
  quantity: '250',
  lineNumber: 2,
  supplierPartID: 'FLY-A5',
  supplierPartAuxiliaryID: 'M3P9ZA',
  unitPrice: { value: '0.35', currency: 'USD' },
  description: 'A5 flyer',
  unitOfMeasure: 'EA',
  classifications: [{ domain: 'UNSPSC', code: '82121503' }],
};

/** The cart the gateway returns, as the XML of its form field. */
export function orderMessage(
  buyerCookie: string,
  lines: readonly OrderMessageLine[],
  asciiOnly = false,
): string {
  const total = lines.reduce((sum, l) => sum + Number(l.quantity) * Number(l.unitPrice.value), 0).toFixed(2);
  return buildOrderMessage({
    payloadID: '1.cart@gateway.test',
    timestamp: NOW,
    header: SUPPLIER_HEADER,
    buyerCookie,
    operationAllowed: 'edit',
    total: { value: total, currency: 'USD' },
    items: lines,
    asciiOnly,
  });
}

export function noChangeMessage(buyerCookie: string): string {
  return buildNoChangeOrderMessage({
    payloadID: '2.cart@gateway.test',
    timestamp: NOW,
    header: SUPPLIER_HEADER,
    buyerCookie,
    operationAllowed: 'edit',
    currency: 'USD',
  });
}

export function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function confirmation(
  orderID: string,
  orderPayloadID: string,
  type: 'accept' | 'reject',
  comments?: string,
): string {
  return buildConfirmationRequest({
    payloadID: `3.${type}@gateway.test`,
    timestamp: NOW,
    header: SUPPLIER_HEADER,
    type,
    confirmID: 'PRINT-4711',
    noticeDate: NOW,
    orderID,
    orderPayloadID,
    ...(comments !== undefined && { comments }),
    extrinsics: [{ name: 'printOrderId', value: '4711' }],
    // Fulfill.dtd: a reject names no line; an accept may list lines, each accepted.
    ...(type === 'accept' && { items: [{ lineNumber: 1, quantity: 500, unitOfMeasure: 'EA' }] }),
  });
}

/** A `detail` (or an `update` of an earlier confirmation) giving each listed line its one status. */
export function lineConfirmation(
  orderID: string,
  orderPayloadID: string,
  lines: readonly { lineNumber: number; quantity: number; type: 'accept' | 'reject'; comments?: string }[],
  options: { payloadID?: string; comments?: string; amends?: string } = {},
): string {
  return buildConfirmationRequest({
    payloadID: options.payloadID ?? '3.detail@gateway.test',
    timestamp: NOW,
    header: SUPPLIER_HEADER,
    type: 'detail',
    confirmID: 'PRINT-4711-2',
    ...(options.amends !== undefined && { operation: 'update', amends: options.amends, version: 2 }),
    noticeDate: NOW,
    orderID,
    orderPayloadID,
    ...(options.comments !== undefined && { comments: options.comments }),
    items: lines.map((line) => ({
      lineNumber: line.lineNumber,
      quantity: line.quantity,
      unitOfMeasure: 'EA',
      statuses: [{ type: line.type, ...(line.comments !== undefined && { comments: line.comments }) }],
    })),
  });
}

export function shipNotice(orderID: string, orderPayloadID: string): string {
  return buildShipNoticeRequest({
    payloadID: '4.ship@gateway.test',
    timestamp: NOW,
    header: SUPPLIER_HEADER,
    shipmentID: 'SH-4711-1',
    noticeDate: NOW,
    shipmentDate: NOW,
    carrier: { name: 'DHL', scac: 'DHLC' },
    trackingNumbers: ['00340434161094042557'],
    trackingUrl: 'https://tracking.example/00340434161094042557',
    orderID,
    orderPayloadID,
    lines: [{ lineNumber: 1, quantity: 500, unitOfMeasure: 'EA', supplierPartID: 'BC-STD' }],
  });
}
