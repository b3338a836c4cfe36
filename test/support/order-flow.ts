/**
 * The order-flow test kit: a stack with the orders feature and buyers that take order-status documents,
 * a punch-out that yields real cart lines, OrderRequests in an Ariba-like shape, the worker driven until
 * quiet on the frozen clock, and readers for what reached the buyer.
 */
import { XMLParser } from 'fast-xml-parser';
import { expect } from 'vitest';
import type { GatewayConfigInput } from '../../schemas/config.ts';
import { createOrderWorker, type OrderWorker } from '../../src/gateway/orders/index.ts';
import { escapeHtml as escapeXml } from '../../src/kernel/html-escape.ts';
import { createPrintApi, type PrintApi } from '../../src/print-api/index.ts';
import { setupRequest } from './cxml-documents.ts';
import { validateAgainstDtd } from './dtd-validation.ts';
import { findLinks } from './html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from './punchout-flow.ts';
import {
  createStack,
  GATEWAY_KEY,
  GATEWAY_ORIGIN,
  GATEWAY_TOKEN,
  SANDBOX_ORIGIN,
  type Stack,
  type StackOptions,
  testConfig,
} from './stack.ts';

export const ORDER_STATUS_URL = 'https://s1-eu.ariba.example/cxml/order-status';
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** `buyers` with one buyer's settings changed (or added to), the others as they are. */
export function buyersWith<B extends { id: string }>(
  buyers: readonly B[],
  buyerId: string,
  settings: object,
): B[] {
  return buyers.map((b) => (b.id === buyerId ? { ...b, ...settings } : b));
}

/** The test config with order-status URLs, our SharedSecret, a cancel status and short retry budgets. */
export function orderConfig(overrides: Partial<GatewayConfigInput> = {}): GatewayConfigInput {
  const base = testConfig();
  return {
    ...base,
    supplier: {
      credentials: [{ domain: 'DUNS', identity: 'PRINTCO' }],
      sharedSecret: 'printco-secret',
      userAgent: 'punchgate test',
    },
    orders: { maxAttempts: 3, reconcileIntervalSeconds: 300, outboxMaxAttempts: 3 },
    storefronts: base.storefronts.map((s) => ({ ...s, cancelStatus: 'Cancelled' })),
    buyers: base.buyers.map((b) =>
      b.id === 'acme' || b.id === 'coupa'
        ? {
            ...b,
            orderStatusUrl: b.id === 'acme' ? ORDER_STATUS_URL : 'https://acme.coupahost.example/cxml/status',
          }
        : b,
    ),
    ...overrides,
  };
}

export interface OrderStack extends Stack {
  worker: OrderWorker;
  api: PrintApi;
}

export async function createOrderStack(
  config: GatewayConfigInput = orderConfig(),
  options: StackOptions = {},
): Promise<OrderStack> {
  const stack = await createStack(config, options);
  const api = createPrintApi({
    baseUrl: SANDBOX_ORIGIN,
    token: GATEWAY_TOKEN,
    key: GATEWAY_KEY,
    fetch: (input, init) => Promise.resolve(stack.sandbox.app.fetch(new Request(input, init))),
    retries: 0,
  });
  return Object.assign(stack, { worker: createOrderWorker(stack.gateway.context), api });
}

/** The worker after a restart: built on the stack's current gateway. */
export function restartWorker(stack: OrderStack): OrderWorker {
  stack.worker = createOrderWorker(stack.gateway.context);
  return stack.worker;
}

/** Ticks until nothing is left to do now, letting the sandbox's webhook deliveries land in between. */
export async function drain(stack: OrderStack): Promise<{ jobs: number; messages: number }> {
  const total = { jobs: 0, messages: 0 };
  for (let round = 0; round < 30; round++) {
    await stack.sandbox.control.idle();
    const result = await stack.worker.tick();
    await stack.sandbox.control.idle();
    total.jobs += result.jobs;
    total.messages += result.messages;
    const waiting = await stack.store.events.listUnprocessed();
    if (result.jobs === 0 && result.messages === 0 && waiting.length === 0) return total;
  }
  throw new Error('the worker did not settle in 30 ticks');
}

export interface CartLineOut {
  lineRef: string;
  sku: string;
  quantity: string;
  unitPrice: string;
  currency: string;
  uom: string;
  designId: number;
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) =>
    [
      'ItemIn',
      'Extrinsic',
      'ShipmentIdentifier',
      'CarrierIdentifier',
      'ShipNoticeItem',
      'Credential',
    ].includes(name),
});

// biome-ignore lint/suspicious/noExplicitAny: a parsed XML tree in tests
export type XmlTree = any;

export function parseXml(text: string): XmlTree {
  return xml.parse(text);
}

export interface PunchOutUser {
  identity?: string;
  secret?: string;
  domain?: string;
  browserFormPost?: string;
  userEmail?: string;
  uniqueName?: string;
  deploymentMode?: 'production' | 'test';
}

/** A transferred cart: its lines, and the header's Shipping and Tax amounts where it carries them. */
export interface CartOut {
  lines: CartLineOut[];
  shipping?: string;
  tax?: string;
}

/** A whole punch-out by one user: each product designed in the sandbox editor, the cart transferred. */
export async function punchOut(
  stack: Pick<Stack, 'postCxml' | 'browse'>,
  products: readonly string[],
  user: PunchOutUser = {},
): Promise<CartLineOut[]> {
  return (await punchOutCart(stack, products, user)).lines;
}

/** `punchOut`, with the cart's header charges. */
export async function punchOutCart(
  stack: Pick<Stack, 'postCxml' | 'browse'>,
  products: readonly string[],
  user: PunchOutUser = {},
): Promise<CartOut> {
  const answer = await stack.postCxml(setupRequest({ ...user }));
  expect(statusOf(answer).code).toBe(200);
  let page = await stack.browse(startUrlOf(answer));
  for (const [index, product] of products.entries()) {
    if (index > 0) {
      const more = findLinks(page.text).find((l) => l.text === 'Add another product');
      expect(more, 'an "Add another product" link').toBeDefined();
      page = await stack.browse(new URL(more?.href ?? '', page.url).toString());
    }
    page = await designProduct(stack, page, product, { Name: `Design ${index + 1}` });
    expect(page.status).toBe(200);
  }
  const transfer = await clickButton(stack, page, 'Transfer cart to procurement system');
  const poom = parseXml(cxmlFromForm(returnFormOf(transfer)));
  const header = poom.cXML.Message.PunchOutOrderMessage.PunchOutOrderMessageHeader;
  const lines = poom.cXML.Message.PunchOutOrderMessage.ItemIn.map((item: XmlTree) => {
    const extrinsics = Object.fromEntries(
      item.ItemDetail.Extrinsic.map((e: XmlTree) => [e['@name'], e['#text']]),
    );
    return {
      lineRef: item.ItemID.SupplierPartAuxiliaryID,
      sku: item.ItemID.SupplierPartID,
      quantity: item['@quantity'],
      unitPrice: item.ItemDetail.UnitPrice.Money['#text'],
      currency: item.ItemDetail.UnitPrice.Money['@currency'],
      uom: item.ItemDetail.UnitOfMeasure,
      designId: Number(extrinsics.designId),
    };
  });
  return {
    lines,
    ...(header.Shipping !== undefined && { shipping: header.Shipping.Money['#text'] as string }),
    ...(header.Tax !== undefined && { tax: header.Tax.Money['#text'] as string }),
  };
}

export interface OrderLineIn {
  lineRef?: string;
  sku: string;
  quantity: string;
  unitPrice: string;
  currency?: string;
  uom?: string;
  requestedDeliveryDate?: string;
  comments?: string;
  /** Markup added to the ItemOut after its ItemDetail (ShipTo, Distribution, ControlKeys, …). */
  itemXml?: string;
  /** Markup added at the end of the ItemDetail (Extrinsic, …). */
  detailXml?: string;
}

export interface OrderOptions {
  payloadID?: string;
  orderID?: string;
  type?: 'new' | 'update' | 'delete';
  orderVersion?: string;
  previousPayloadID?: string;
  identity?: string;
  secret?: string;
  domain?: string;
  lines: readonly OrderLineIn[];
  comments?: string;
  /** Attachment URLs (`cid:…`) in the header's Comments. */
  attachments?: readonly string[];
  requestedDeliveryDate?: string;
  deploymentMode?: 'production' | 'test';
  /** Markup added to the OrderRequestHeader before its Extrinsic (ControlKeys, …). */
  headerXml?: string;
  /** The header's ShipTo element in place of the default one ('' for none). */
  shipToXml?: string;
  /**
   * The header's Shipping and Tax, as a cart that quoted them makes the buyer send; none by default (the
   * invoice then bills the print order's charges).
   */
  charges?: { shipping?: string; tax?: string; total?: string };
}

/** The lines a punch-out returned, as the buyer's PO repeats them. */
export function linesOf(cart: readonly CartLineOut[]): OrderLineIn[] {
  return cart.map((line) => ({
    lineRef: line.lineRef,
    sku: line.sku,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    currency: line.currency,
    uom: line.uom,
  }));
}

const DEFAULT_SHIP_TO = `<ShipTo><Address isoCountryCode="US" addressID="0100"><Name xml:lang="en">ACME Receiving</Name>
<PostalAddress><DeliverTo>Jane Roe</DeliverTo><Street>1 Dock Road</Street><City>Springfield</City><State>IL</State><PostalCode>62701</PostalCode><Country isoCountryCode="US">United States</Country></PostalAddress></Address></ShipTo>`;

/** An OrderRequest as SAP Ariba sends it, with ShipTo, BillTo, Shipping, Tax, Contact, Comments, Extrinsics. */
export function orderRequest(options: OrderOptions): string {
  const {
    payloadID = `po-${Math.random().toString(36).slice(2)}@buyer.example`,
    orderID = 'PO-4500123',
    type = 'new',
    identity = 'AN01000000001',
    secret = 'acme-secret',
    domain = 'NetworkID',
  } = options;
  const currency = options.lines[0]?.currency ?? 'USD';
  const attrs = [
    `orderID="${escapeXml(orderID)}"`,
    'orderDate="2026-11-22T08:30:00-05:00"',
    `type="${type}"`,
    options.orderVersion === undefined ? '' : `orderVersion="${options.orderVersion}"`,
    options.requestedDeliveryDate === undefined
      ? ''
      : `requestedDeliveryDate="${options.requestedDeliveryDate}"`,
  ].join(' ');
  const items = options.lines
    .map(
      (line, i) => `<ItemOut quantity="${line.quantity}" lineNumber="${i + 1}"${
        line.requestedDeliveryDate === undefined
          ? ''
          : ` requestedDeliveryDate="${line.requestedDeliveryDate}"`
      }>
<ItemID><SupplierPartID>${escapeXml(line.sku)}</SupplierPartID>${
        line.lineRef === undefined
          ? ''
          : `<SupplierPartAuxiliaryID>${escapeXml(line.lineRef)}</SupplierPartAuxiliaryID>`
      }</ItemID>
<ItemDetail><UnitPrice><Money currency="${line.currency ?? currency}">${line.unitPrice}</Money></UnitPrice>
<Description xml:lang="en">${escapeXml(line.sku)} design</Description><UnitOfMeasure>${line.uom ?? 'EA'}</UnitOfMeasure>${line.detailXml ?? ''}</ItemDetail>
${line.itemXml ?? ''}
${line.comments === undefined ? '' : `<Comments xml:lang="en">${escapeXml(line.comments)}</Comments>`}
</ItemOut>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.044/cXML.dtd">
<cXML payloadID="${escapeXml(payloadID)}" timestamp="2026-11-22T09:00:00-05:00" xml:lang="en-US">
<Header>
<From><Credential domain="${domain}"><Identity>${escapeXml(identity)}</Identity></Credential></From>
<To><Credential domain="DUNS"><Identity>PRINTCO</Identity></Credential></To>
<Sender><Credential domain="${domain}"><Identity>${escapeXml(identity)}</Identity><SharedSecret>${escapeXml(secret)}</SharedSecret></Credential><UserAgent>Ariba Network 1.2</UserAgent></Sender>
</Header>
<Request deploymentMode="${options.deploymentMode ?? 'production'}">
<OrderRequest>
<OrderRequestHeader ${attrs}>
<Total><Money currency="${currency}">${options.charges?.total ?? '100.00'}</Money></Total>
${options.shipToXml ?? DEFAULT_SHIP_TO}
<BillTo><Address isoCountryCode="US" addressID="0001"><Name xml:lang="en">ACME Accounts Payable</Name></Address></BillTo>
${options.charges?.shipping === undefined ? '' : `<Shipping><Money currency="${currency}">${options.charges.shipping}</Money><Description xml:lang="en">Ground</Description></Shipping>`}
${options.charges?.tax === undefined ? '' : `<Tax><Money currency="${currency}">${options.charges.tax}</Money><Description xml:lang="en">Sales tax</Description></Tax>`}
${options.previousPayloadID === undefined ? '' : `<DocumentReference payloadID="${escapeXml(options.previousPayloadID)}"/>`}
<Contact role="endUser"><Name xml:lang="en">Jane Roe</Name><Email>jane.roe@acme.example</Email></Contact>
${headerComments(options)}
${options.headerXml ?? ''}
<Extrinsic name="CostCenter">CC-4410</Extrinsic>
</OrderRequestHeader>
${items}
</OrderRequest>
</Request>
</cXML>`;
}

/** The header's Comments: text, then an Attachment per URL, as Ariba writes them. */
function headerComments(options: Pick<OrderOptions, 'comments' | 'attachments'>): string {
  const attachments = (options.attachments ?? [])
    .map((url) => `<Attachment><URL>${escapeXml(url)}</URL></Attachment>`)
    .join('');
  if (options.comments === undefined && attachments === '') return '';
  return `<Comments xml:lang="en">${escapeXml(options.comments ?? '')}${attachments}</Comments>`;
}

/** Posts a PO and answers its Status. */
export async function sendOrder(stack: Stack, options: OrderOptions) {
  return statusOf(await stack.postCxml(orderRequest(options)));
}

/** The documents the buyer's order-status endpoint received, parsed, of one request type. */
export function receivedDocuments(
  stack: Pick<Stack, 'orderStatusPosts'>,
  request: 'ConfirmationRequest' | 'ShipNoticeRequest',
) {
  return stack.orderStatusPosts
    .map((post) => ({ post, doc: parseXml(post.body).cXML }))
    .filter(({ doc }) => doc?.Request?.[request] !== undefined);
}

const asList = (value: XmlTree): XmlTree[] => (value === undefined ? [] : [value].flat());

/**
 * The ConfirmationRequests the buyer received, read for assertions: the header's type, confirmID and
 * version, each item with its unit and statuses (delivery date and unit price where given), and whether the
 * document is valid against Fulfill.dtd.
 */
export function confirmationsReceived(stack: Pick<Stack, 'orderStatusPosts'>) {
  return receivedDocuments(stack, 'ConfirmationRequest').map(({ post, doc }) => {
    const request = doc.Request.ConfirmationRequest;
    const header = request.ConfirmationHeader;
    return {
      type: header['@type'],
      confirmID: header['@confirmID'],
      version: header['@version'],
      items: asList(request.ConfirmationItem).map((item) => ({
        lineNumber: item['@lineNumber'],
        quantity: item['@quantity'],
        unit: item.UnitOfMeasure,
        statuses: asList(item.ConfirmationStatus).map((status) => ({
          type: status['@type'],
          quantity: status['@quantity'],
          ...(status['@deliveryDate'] !== undefined && { deliveryDate: status['@deliveryDate'] }),
          ...(status.UnitPrice !== undefined && {
            unitPrice: `${status.UnitPrice.Money['#text']} ${status.UnitPrice.Money['@currency']}`,
          }),
          ...(status.Comments !== undefined && {
            comments: typeof status.Comments === 'string' ? status.Comments : status.Comments['#text'],
          }),
        })),
      })),
      dtd: validateAgainstDtd(post.body, 'Fulfill'),
    };
  });
}

export function adminRequest(stack: Stack, path: string, init: RequestInit = {}, token = ADMIN_TOKEN) {
  const headers = new Headers(init.headers);
  if (token !== '') headers.set('Authorization', `Bearer ${token}`);
  return stack.gateway.app.fetch(new Request(`${GATEWAY_ORIGIN}${path}`, { ...init, headers }));
}

export async function adminJson(stack: Stack, path: string, init: RequestInit = {}): Promise<XmlTree> {
  const res = await adminRequest(stack, path, init);
  expect(res.headers.get('Content-Type')).toContain('application/json');
  return { status: res.status, body: await res.json() };
}

/** Print orders the sandbox holds for a PO number (integration_id), read through the v2 API. */
export async function printOrdersFor(stack: OrderStack, poNumber: string): Promise<number[]> {
  const ids: number[] = [];
  // Seed orders start at 1001 (with gaps) and new ones follow; thirty missing ids in a row is the end.
  for (let id = 1001, missing = 0; missing < 30; id++) {
    try {
      const order = await stack.api.getOrder(id);
      missing = 0;
      if (order.integration_id === poNumber) ids.push(id);
    } catch {
      missing++;
    }
  }
  return ids;
}
