/**
 * OrderRequest intake: the purchase order is checked against the punch-out carts, stored whole and queued
 * for processing before the buyer gets its answer, because buyers retry anything that is not a quick
 * cXML 200 (Coupa waits 60 seconds). The answer given is stored with the PO, so a retried or concurrent
 * copy of the document — same payloadID, or same buyer, orderID and type — gets the very same Status and
 * never a second print order. Changes are the exception: each `orderVersion` of an update is a change of
 * its own, recorded and answered separately.
 */
import { type OrderRequest, redactSharedSecrets } from '../../cxml/index.ts';
import { equalDecimals, readDecimal } from '../../kernel/decimal.ts';
import type { CartLine, PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { OrderRequestHandler } from '../cxml/route.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { findProductBySku } from '../punchout/catalog.ts';
import { type PartIdStyle, supplierPartIdOf } from '../punchout/line-identity.ts';
import {
  isDeviation,
  MISMATCH_FLAGS,
  type Mismatch,
  type PoDocument,
  type PoLine,
  poDocument,
  requestForStorage,
  storableDocument,
} from './po-record.ts';
import { type LineTerms, lineProblems } from './po-line-checks.ts';
import { processingJob, queueProcessing } from './process-order.ts';
import { letOthersRun, SLICED_LINES } from './slices.ts';

const ACCEPTED = { code: 200, text: 'OK' } as const;

/**
 * Two decimals as text are the same amount (`0.12` = `0.120`), compared without floating point; text that
 * is not a decimal only matches itself.
 */
export function sameDecimal(a: string, b: string): boolean {
  const syntax = { signed: true, barePoint: true };
  const left = readDecimal(a.trim(), syntax);
  const right = readDecimal(b.trim(), syntax);
  if (left === undefined || right === undefined) return a.trim() === b.trim();
  return equalDecimals(left, right);
}

function describeLine(item: OrderRequest['items'][number]): string {
  return `Line ${item.lineNumber} (SupplierPartID ${item.supplierPartID})`;
}

interface ResolvedLines {
  lines: PoLine[];
  mismatches: Mismatch[];
}

/**
 * Each PO line must name a cart line of this buyer by its SupplierPartAuxiliaryID, and carry a quantity,
 * price and currency its product and storefront allow (`lineProblems`). Every offending line is listed, in
 * PO order, so the buyer's operator can fix the PO in one go; a line of another buyer outranks the rest.
 */
async function resolveLines(
  ctx: GatewayContext,
  request: OrderRequest,
  buyer: ResolvedBuyer,
): Promise<ResolvedLines> {
  /** Unknown line references and lines with values that cannot be ordered, in PO order. */
  const refused: string[] = [];
  let anyUnknown = false;
  const foreign: string[] = [];
  const lines: PoLine[] = [];
  const mismatches: Mismatch[] = [];
  await letOthersRun(request.items.length);
  // The parsed PO has just arrived (from a worker thread, on Node), and its cart lines take a read of their own.
  await letOthersRun(request.items.length);
  const cartLines = await cartLinesOf(ctx, request);
  for (const [index, item] of request.items.entries()) {
    if (index % SLICED_LINES === 0) await letOthersRun(request.items.length);
    const lineRef = item.supplierPartAuxiliaryID?.trim() ?? '';
    if (lineRef === '') {
      anyUnknown = true;
      refused.push(
        `${describeLine(item)} has no SupplierPartAuxiliaryID; order designs through the punch-out`,
      );
      continue;
    }
    const cartLine = cartLines.get(lineRef);
    if (cartLine === undefined) {
      anyUnknown = true;
      refused.push(`${describeLine(item)}: line reference ${lineRef} is unknown`);
      continue;
    }
    if (cartLine.buyerId !== buyer.id) {
      foreign.push(`${describeLine(item)}: line reference ${lineRef} belongs to another buyer`);
      continue;
    }
    const terms = termsOf(ctx, cartLine);
    const problems = terms === undefined ? [] : lineProblems(item, terms);
    if (problems.length > 0) {
      refused.push(`Line ${item.lineNumber} (SupplierPartAuxiliaryID ${lineRef}): ${problems.join(', ')}`);
      continue;
    }
    lines.push(poLine(item, lineRef, cartLine));
    mismatches.push(...compareWithCart(request.type, item, lineRef, cartLine, buyer.supplierPartIds));
  }
  if (foreign.length > 0) throw new GatewayError('foreign_line', `${foreign.join('; ')}.`);
  if (refused.length > 0) {
    throw new GatewayError(anyUnknown ? 'unknown_line' : 'invalid_line', `${refused.join('; ')}.`);
  }
  if (lines.length === 0) throw new GatewayError('no_lines', 'The purchase order has no lines.');
  return { lines, mismatches };
}

/** The cart lines the PO's items name, by reference, read in one query however many lines the PO has. */
async function cartLinesOf(ctx: GatewayContext, request: OrderRequest): Promise<Map<string, CartLine>> {
  const lineRefs = request.items
    .map((item) => item.supplierPartAuxiliaryID?.trim() ?? '')
    .filter((lineRef) => lineRef !== '');
  if (lineRefs.length === 0) return new Map();
  return new Map((await ctx.store.cart.getMany(lineRefs)).map((line) => [line.lineRef, line]));
}

/**
 * The product the cart line is a design of (undefined if it left the catalog) and its storefront's
 * currency; undefined when the storefront itself is no longer configured, which processing reports.
 */
function termsOf(ctx: GatewayContext, cartLine: CartLine): LineTerms | undefined {
  const storefront = ctx.config.storefronts.find((s) => s.id === cartLine.storefrontId);
  if (storefront === undefined) return undefined;
  return { product: findProductBySku(storefront, cartLine.sku), currency: storefront.currency };
}

function poLine(item: OrderRequest['items'][number], lineRef: string, cartLine: CartLine): PoLine {
  return {
    lineNumber: item.lineNumber,
    lineRef,
    supplierPartID: item.supplierPartID,
    description: item.description,
    quantity: item.quantity,
    unitOfMeasure: item.unitOfMeasure,
    unitPrice: { value: item.unitPrice.value, currency: item.unitPrice.currency },
    ...(item.requestedDeliveryDate !== undefined && {
      requestedDeliveryDate: item.requestedDeliveryDate.raw,
    }),
    ...(item.shipTo !== undefined && { shipTo: item.shipTo }),
    comments: item.comments,
    storefrontId: cartLine.storefrontId,
    userRef: cartLine.userRef,
    designId: cartLine.designId,
    cart: {
      sku: cartLine.sku,
      quantity: cartLine.quantity,
      unitPrice: cartLine.unitPrice,
      currency: cartLine.currency,
      state: cartLine.state,
      ...(cartLine.poId !== undefined && { poId: cartLine.poId }),
    },
  };
}

function compareWithCart(
  type: OrderRequest['type'],
  item: OrderRequest['items'][number],
  lineRef: string,
  cart: CartLine,
  partIdStyle: PartIdStyle,
): Mismatch[] {
  const found: Mismatch[] = [];
  const at = { lineNumber: item.lineNumber, lineRef };
  if (!sameDecimal(item.quantity, String(cart.quantity))) {
    found.push({ ...at, field: 'quantity', po: item.quantity, cart: String(cart.quantity) });
  }
  if (!sameDecimal(item.unitPrice.value, cart.unitPrice) || item.unitPrice.currency !== cart.currency) {
    found.push({
      ...at,
      field: 'price',
      po: `${item.unitPrice.value} ${item.unitPrice.currency}`,
      cart: `${cart.unitPrice} ${cart.currency}`,
    });
  }
  // Either part-number style names the line's own product and design (a buyer may switch styles between
  // its cart and its PO); anything else is another part than the one the cart line is a design of.
  const partId = item.supplierPartID.trim();
  if (partId !== cart.sku && partId !== supplierPartIdOf('sku-design', cart)) {
    found.push({ ...at, field: 'sku', po: item.supplierPartID, cart: supplierPartIdOf(partIdStyle, cart) });
  }
  // A change names lines its order has ordered already; only a new order can order a line twice.
  if (type === 'new' && cart.state === 'ordered' && cart.poId !== undefined) {
    found.push({
      ...at,
      field: 'already_ordered',
      po: 'this purchase order',
      cart: `ordered by PO record ${cart.poId}`,
    });
  }
  return found;
}

/**
 * For buyers whose `poDeviations` is `reject`: a new PO whose quantities or prices are not the cart's is
 * refused here, synchronously, naming every such line — before it is stored as accepted, so no print order
 * can follow and the buyer's system shows the reason at once (a `reject` confirmation later would reach
 * the buyer only after a PO it had been told was accepted). Its cart lines stay open for a corrected PO.
 */
function refuseDeviations(mismatches: readonly Mismatch[]): void {
  const deviations = mismatches.filter(isDeviation);
  if (deviations.length === 0) return;
  const described = deviations.map(
    (m) =>
      `Line ${m.lineNumber} (SupplierPartAuxiliaryID ${m.lineRef}): ` +
      `${m.field === 'price' ? 'unit price' : 'quantity'} ${m.po} differs from the cart's ${m.cart}`,
  );
  throw new GatewayError(
    'deviating_line',
    `${described.join('; ')}. Send the order with the cart's quantities and prices.`,
  );
}

/**
 * @example
 * const handler = createOrderIntake(ctx);
 * const status = await handler(orderRequest, buyer); // { code: 200, text: 'OK' }
 */
export function createOrderIntake(ctx: GatewayContext): OrderRequestHandler {
  return async (request, buyer) => {
    const earlier = await ctx.store.orders.getByPayloadId(buyer.id, request.payloadID);
    if (earlier !== undefined) return answerAgain(ctx, earlier);

    // A delete cancels the whole order, so its lines (if any) are not checked against the carts.
    const resolved: ResolvedLines =
      request.type === 'delete' ? { lines: [], mismatches: [] } : await resolveLines(ctx, request, buyer);
    if (request.type === 'new' && buyer.poDeviations === 'reject') refuseDeviations(resolved.mismatches);
    await letOthersRun(request.items.length);
    const document: PoDocument = {
      request: requestForStorage(request),
      lines: resolved.lines,
      mismatches: resolved.mismatches,
    };
    const flags = [...new Set(resolved.mismatches.map((m) => MISMATCH_FLAGS[m.field]))];
    // A stored PO must not keep the buyer's secret: the codec refused any SharedSecret that is not plain text.
    const raw = redactSharedSecrets(request.raw);
    await letOthersRun(request.items.length);
    // The PO, its cart lines marked ordered (a new order's only) and its job: one transaction, one commit.
    const accepted = await ctx.store.orders.acceptWithLines({
      order: {
        buyerId: buyer.id,
        payloadId: request.payloadID,
        orderId: request.orderID,
        type: request.type,
        ...(request.orderVersion !== undefined && { orderVersion: request.orderVersion }),
        raw,
        document: storableDocument(document),
        answer: ACCEPTED,
        flags,
      },
      lineRefs: request.type === 'new' ? resolved.lines.map((line) => line.lineRef) : [],
      job: processingJob(ctx),
    });
    if (!accepted.created) return answerAgain(ctx, accepted.order);
    ctx.logger.info('purchase order accepted', {
      buyer: buyer.id,
      po: accepted.id,
      orderID: request.orderID,
      type: request.type,
      lines: resolved.lines.length,
      flags: flags.join(',') || undefined,
    });
    return { code: ACCEPTED.code, text: ACCEPTED.text };
  };
}

/**
 * A copy of a document already stored: the same answer, and what followed the first accept done again in
 * case it is missing (intake stores all three in one transaction now, but a PO stored by an earlier
 * punchgate, in three commits, may have been cut off between them): its cart lines marked ordered, so
 * housekeeping never purges them, and its processing queued.
 */
async function answerAgain(
  ctx: GatewayContext,
  order: PurchaseOrder,
): Promise<{ code: number; text: string }> {
  if (order.state === 'received') {
    await markLinesOrdered(ctx, order);
    await queueProcessing(ctx, order);
  }
  return { code: order.answer.code, text: order.answer.text };
}

/** Marks the cart lines a new PO orders (idempotent: a line ordered by this PO already stays so). */
async function markLinesOrdered(ctx: GatewayContext, order: PurchaseOrder): Promise<void> {
  if (order.type !== 'new') return;
  const { lines } = poDocument(order);
  if (lines.length > 0)
    await ctx.store.cart.markOrdered(
      lines.map((line) => line.lineRef),
      order.id,
    );
}
