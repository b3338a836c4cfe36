/**
 * OrderRequest intake: the purchase order is checked against the punch-out carts, stored whole and queued
 * for processing before the buyer gets its answer, because buyers retry anything that is not a quick
 * cXML 200 (Coupa waits 60 seconds). The answer given is stored with the PO, so a retried or concurrent
 * copy of the document — same payloadID, or same buyer, orderID and type — gets the very same Status and
 * never a second print order. Changes are the exception: each `orderVersion` of an update is a change of
 * its own, recorded and answered separately.
 */
import { type MimeAttachment, type OrderRequest, redactSharedSecrets } from '../../cxml/index.ts';
import { equalDecimals, multiplyDecimals, readDecimal } from '../../kernel/decimal.ts';
import { ONE } from '../../kernel/money.ts';
import type { CartLine, DeploymentMode, NewAttachment, PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { OrderRequestHandler } from '../cxml/route.ts';
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { type CatalogEntry, findProductBySku, isCatalogLine } from '../punchout/catalog.ts';
import { exactPriceBasis } from '../punchout/pricing.ts';
import { type PartIdStyle, supplierPartIdOf } from '../punchout/line-identity.ts';
import { CATALOG_ORDERS_USER } from '../punchout/pipo-accounts.ts';
import { chargeLineKind } from './po-charges.ts';
import {
  FLAG,
  isDeviation,
  MISMATCH_FLAGS,
  type Mismatch,
  type PoDocument,
  type PoLine,
  poDocument,
  type RejectedLine,
  requestForStorage,
  storableDocument,
  storedRequest,
} from './po-record.ts';
import { type LineTerms, lineProblems } from './po-line-checks.ts';
import { processingJob, queueProcessing } from './process-order.ts';
import { linesWithoutShipTo } from './ship-to.ts';
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

/**
 * The PO line's price and the cart's are the same price of one unit, whatever each is quoted per (45.20 per
 * 1,000 is 0.0452 a piece, which a buyer's system may have rewritten it to): price × conversionFactor ÷
 * basis against the cart's price ÷ priceUnit, cross-multiplied so nothing is rounded. Text that is not a
 * decimal only matches itself.
 */
export function samePricePerUnit(
  po: { value: string; priceBasis?: { quantity: string; conversionFactor: string } },
  cart: { unitPrice: string; priceUnit?: number },
): boolean {
  const syntax = { signed: true, barePoint: true };
  const poPrice = readDecimal(po.value.trim(), syntax);
  const cartPrice = readDecimal(cart.unitPrice.trim(), syntax);
  if (poPrice === undefined || cartPrice === undefined) return po.value.trim() === cart.unitPrice.trim();
  const basis = exactPriceBasis(po.priceBasis) ?? { quantity: ONE, conversionFactor: ONE };
  const cartUnits = { units: BigInt(cart.priceUnit ?? 1), scale: 0 };
  return equalDecimals(
    multiplyDecimals(multiplyDecimals(poPrice, basis.conversionFactor), cartUnits),
    multiplyDecimals(cartPrice, basis.quantity),
  );
}

/** A price as mismatches name it: `45.20 EUR per 1000 EA`, or `0.12 EUR` for a price of one unit. */
function priceWithBasis(value: string, currency: string, per: string | undefined): string {
  return per === undefined ? `${value} ${currency}` : `${value} ${currency} per ${per}`;
}

function describeLine(item: OrderRequest['items'][number]): string {
  return `Line ${item.lineNumber} (SupplierPartID ${item.supplierPartID})`;
}

interface ResolvedLines {
  lines: PoLine[];
  mismatches: Mismatch[];
  /** Lines the gateway cannot produce, which the buyer's `unknownLines` lets the PO go ahead without. */
  rejectedLines: RejectedLine[];
}

/**
 * Why a line that names no cart line (or an unknown one) and no product orderable as it is cannot be
 * produced, as the buyer reads it.
 */
function unproducibleReason(
  item: OrderRequest['items'][number],
  lineRef: string,
  storefront: ResolvedStorefront,
): string {
  if (lineRef !== '') return `${describeLine(item)}: line reference ${lineRef} is unknown`;
  const partId = item.supplierPartID.trim();
  if (partId === '') {
    return `Line ${item.lineNumber} has no SupplierPartID: a line typed into the requisition cannot be produced`;
  }
  if (findProductBySku(storefront, partId) !== undefined) {
    return `${describeLine(item)} has no SupplierPartAuxiliaryID; order designs through the punch-out`;
  }
  return `${describeLine(item)} is not a product of this catalog`;
}

/**
 * Each PO line names a cart line of this buyer by its SupplierPartAuxiliaryID, or by its SupplierPartID a
 * product orderable as it is (`printProductId`), and carries a quantity, price and currency its product
 * and storefront allow (`lineProblems`). Every offending line is listed, in PO order, so the buyer's
 * operator can fix the PO in one go; a line of another buyer outranks the rest. A line the gateway cannot
 * produce at all refuses the PO only when the buyer's `unknownLines` says so, or when no line is left.
 */
async function resolveLines(
  ctx: GatewayContext,
  request: OrderRequest,
  buyer: ResolvedBuyer,
  mode: DeploymentMode,
): Promise<ResolvedLines> {
  /** Lines with values that cannot be ordered (and unproducible lines, when they refuse the PO), in PO order. */
  const refused: { text: string; unproducible: boolean }[] = [];
  const foreign: string[] = [];
  /** Lines a punch-out of the other mode made: a test PO orders test lines only, and the reverse. */
  const otherMode: string[] = [];
  const lines: PoLine[] = [];
  const mismatches: Mismatch[] = [];
  const rejectedLines: RejectedLine[] = [];
  const storefront = ctx.storefront(buyer.storefront);
  await letOthersRun(request.items.length);
  // The parsed PO has just arrived (from a worker thread, on Node), and its cart lines take a read of their own.
  await letOthersRun(request.items.length);
  const cartLines = await cartLinesOf(ctx, request);
  for (const [index, item] of request.items.entries()) {
    if (index % SLICED_LINES === 0) await letOthersRun(request.items.length);
    const lineRef = item.supplierPartAuxiliaryID?.trim() ?? '';
    const cartLine = lineRef === '' ? undefined : cartLines.get(lineRef);
    if (cartLine !== undefined) {
      if (cartLine.buyerId !== buyer.id) {
        foreign.push(`${describeLine(item)}: line reference ${lineRef} belongs to another buyer`);
        continue;
      }
      if (cartLine.deploymentMode !== mode) {
        otherMode.push(
          `${describeLine(item)}: line reference ${lineRef} is from a ${cartLine.deploymentMode} punch-out`,
        );
        continue;
      }
      const terms = termsOf(ctx, cartLine);
      const problems = terms === undefined ? [] : lineProblems(item, terms);
      if (problems.length > 0) {
        refused.push({
          text: `Line ${item.lineNumber} (SupplierPartAuxiliaryID ${lineRef}): ${problems.join(', ')}`,
          unproducible: false,
        });
        continue;
      }
      lines.push(cartPoLine(item, lineRef, cartLine, terms?.storefront));
      mismatches.push(...compareWithCart(request.type, item, lineRef, cartLine, buyer.supplierPartIds));
      continue;
    }
    // An OCI buyer's charge line is the PO's shipping or tax, billed on the invoice, not a print run.
    if (chargeLineKind(buyer, item.supplierPartID) !== undefined) continue;
    const product = asIsProduct(storefront, item.supplierPartID);
    if (product !== undefined) {
      const problems = lineProblems(item, { product, currency: storefront.currency });
      if (problems.length > 0) {
        refused.push({ text: `${describeLine(item)}: ${problems.join(', ')}`, unproducible: false });
        continue;
      }
      lines.push(catalogPoLine(item, storefront, product.printProductId));
      continue;
    }
    const reason = unproducibleReason(item, lineRef, storefront);
    refused.push({ text: reason, unproducible: true });
    rejectedLines.push({ lineNumber: item.lineNumber, supplierPartID: item.supplierPartID, reason });
  }
  if (foreign.length > 0) throw new GatewayError('foreign_line', `${foreign.join('; ')}.`);
  if (otherMode.length > 0) {
    throw new GatewayError(
      'deployment_mode_mismatch',
      `This purchase order has deploymentMode "${mode}", and ${otherMode.join('; ')}. ` +
        `A ${mode} order may only order lines of a ${mode} punch-out.`,
    );
  }
  const refusesPo = buyer.unknownLines === 'refuse-po' || lines.length === 0;
  const unproducible = rejectedLines.length > 0;
  if (refused.length > rejectedLines.length || (refusesPo && unproducible)) {
    // A refused PO names every line to fix, the unproducible ones too; they decide the code where they refuse.
    const code = refusesPo && unproducible ? 'unknown_line' : 'invalid_line';
    throw new GatewayError(code, `${refused.map((line) => line.text).join('; ')}.`);
  }
  if (lines.length === 0) throw new GatewayError('no_lines', 'The purchase order has no lines.');
  return { lines: withCatalogOwners(lines), mismatches, rejectedLines };
}

/** The storefront's product of a PO line's part id that is orderable as it is, with its print-service id. */
function asIsProduct(
  storefront: ResolvedStorefront,
  supplierPartID: string,
): (CatalogEntry & { printProductId: number }) | undefined {
  const product = findProductBySku(storefront, supplierPartID.trim());
  if (product?.printProductId === undefined) return undefined;
  return { ...product, printProductId: product.printProductId };
}

/**
 * Catalog lines without a cart line join the print order of the PO's first designer in their storefront
 * (one print order, one delivery); a PO of catalog products alone is placed by the buyer's catalog account.
 */
function withCatalogOwners(lines: PoLine[]): PoLine[] {
  const designers = new Map<string, string>();
  for (const line of lines) {
    if (line.lineRef !== undefined && !designers.has(line.storefrontId)) {
      designers.set(line.storefrontId, line.userRef);
    }
  }
  return lines.map((line) =>
    line.lineRef === undefined
      ? { ...line, userRef: designers.get(line.storefrontId) ?? CATALOG_ORDERS_USER }
      : line,
  );
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
function termsOf(
  ctx: GatewayContext,
  cartLine: CartLine,
): (LineTerms & { storefront: ResolvedStorefront }) | undefined {
  const storefront = ctx.config.storefronts.find((s) => s.id === cartLine.storefrontId);
  if (storefront === undefined) return undefined;
  return { product: findProductBySku(storefront, cartLine.sku), currency: storefront.currency, storefront };
}

/** The buyer's values of a PO line, as every kind of line keeps them. */
function orderedValues(item: OrderRequest['items'][number]) {
  return {
    lineNumber: item.lineNumber,
    supplierPartID: item.supplierPartID,
    description: item.description,
    quantity: item.quantity,
    unitOfMeasure: item.unitOfMeasure,
    unitPrice: { value: item.unitPrice.value, currency: item.unitPrice.currency },
    ...(item.priceBasis !== undefined && { priceBasis: item.priceBasis }),
    ...(item.requestedDeliveryDate !== undefined && {
      requestedDeliveryDate: item.requestedDeliveryDate.raw,
    }),
    ...(item.shipTo !== undefined && { shipTo: item.shipTo }),
    comments: item.comments,
    ...(item.distribution !== undefined && { distribution: item.distribution }),
    ...(item.extrinsics.length > 0 && { extrinsics: item.extrinsics }),
  };
}

function cartPoLine(
  item: OrderRequest['items'][number],
  lineRef: string,
  cartLine: CartLine,
  storefront: ResolvedStorefront | undefined,
): PoLine {
  return {
    ...orderedValues(item),
    lineRef,
    storefrontId: cartLine.storefrontId,
    userRef: cartLine.userRef,
    designId: cartLine.designId,
    // A cart line put in from the catalog holds the product's own print-service id instead of a design.
    ...(storefront !== undefined && isCatalogLine(storefront, cartLine) && { asIs: true as const }),
    cart: {
      sku: cartLine.sku,
      quantity: cartLine.quantity,
      unitPrice: cartLine.unitPrice,
      ...(cartLine.priceUnit !== undefined && { priceUnit: cartLine.priceUnit }),
      currency: cartLine.currency,
      state: cartLine.state,
      ...(cartLine.poId !== undefined && { poId: cartLine.poId }),
    },
  };
}

/** A line ordering a catalog product as it is by its part id alone; its owner is settled with the others. */
function catalogPoLine(
  item: OrderRequest['items'][number],
  storefront: ResolvedStorefront,
  printProductId: number,
): PoLine {
  return {
    ...orderedValues(item),
    storefrontId: storefront.id,
    userRef: CATALOG_ORDERS_USER,
    designId: printProductId,
    asIs: true,
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
  const poPrice = { value: item.unitPrice.value, ...(item.priceBasis && { priceBasis: item.priceBasis }) };
  if (!samePricePerUnit(poPrice, cart) || item.unitPrice.currency !== cart.currency) {
    const basis = item.priceBasis;
    found.push({
      ...at,
      field: 'price',
      po: priceWithBasis(
        item.unitPrice.value,
        item.unitPrice.currency,
        basis && `${basis.quantity} ${basis.unitOfMeasure}`,
      ),
      cart: priceWithBasis(
        cart.unitPrice,
        cart.currency,
        cart.priceUnit === undefined ? undefined : `${cart.priceUnit} ${cart.uom}`,
      ),
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
 * Where the PO's print orders go, fixed now so no later step (a retry, an operator's retry, a changed
 * config) has to work it out again: a production PO's lines' storefront; a test PO's test storefront, and
 * only when its lines were designed there. Test lines made while the buyer had no test storefront were
 * designed on the production one: their PO gets none and never reaches a print service.
 */
function printStorefrontOf(
  buyer: ResolvedBuyer,
  mode: DeploymentMode,
  lines: readonly PoLine[],
): string | undefined {
  if (mode === 'production') return lines[0]?.storefrontId ?? buyer.storefront;
  const test = buyer.test.storefront;
  return test !== undefined && lines.every((line) => line.storefrontId === test) ? test : undefined;
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
 * The parts that came with the PO as the store keeps them, within the buyer's `attachments.maxBytes` (all
 * of them together, decoded): past it the PO is refused naming the part that crossed it, since a PO whose
 * artwork was dropped would be printed without it. Parts the document does not refer to are kept too:
 * buyers' systems attach files without naming them in Comments, and an operator may still need them.
 */
function attachmentsWithin(attachments: readonly MimeAttachment[], buyer: ResolvedBuyer): NewAttachment[] {
  const { maxBytes } = buyer.attachments;
  let total = 0;
  for (const part of attachments) {
    total += part.content.length;
    if (total <= maxBytes) continue;
    const id = part.contentId === undefined ? '' : ` (Content-ID <${part.contentId}>)`;
    const name = part.filename === undefined ? '' : ` "${part.filename}"`;
    throw new GatewayError(
      'payload_too_large',
      `Part ${part.position}${id}${name} of the message takes the attachments to ${total} bytes; ` +
        `this buyer's purchase orders may carry ${maxBytes} bytes of attachments.`,
    );
  }
  return attachments.map((part) => ({
    position: part.position,
    ...(part.contentId !== undefined && { contentId: part.contentId }),
    ...(part.filename !== undefined && { filename: part.filename }),
    contentType: part.contentType,
    content: part.content,
  }));
}

/**
 * @example
 * const handler = createOrderIntake(ctx);
 * const status = await handler(orderRequest, buyer, 'production', []); // { code: 200, text: 'OK' }
 */
export function createOrderIntake(ctx: GatewayContext): OrderRequestHandler {
  return async (request, buyer, mode, parts) => {
    const earlier = await ctx.store.orders.findEarlier(buyer.id, request.payloadID, request.orderID);
    if (earlier.byPayloadId !== undefined) return answerAgain(ctx, earlier.byPayloadId, mode);
    // A new order exists once per orderID: another document under a stored one is a copy or a refusal.
    if (request.type === 'new' && earlier.newOfOrderId !== undefined) {
      return answerReusedOrderId(ctx, request, buyer, earlier.newOfOrderId, mode);
    }
    const attachments = attachmentsWithin(parts, buyer);

    // A delete cancels the whole order, so its lines (if any) are not checked against the carts.
    const resolved: ResolvedLines =
      request.type === 'delete'
        ? { lines: [], mismatches: [], rejectedLines: [] }
        : await resolveLines(ctx, request, buyer, mode);
    if (request.type === 'new' && buyer.poDeviations === 'reject') refuseDeviations(resolved.mismatches);
    await letOthersRun(request.items.length);
    const { rejectedLines } = resolved;
    const document: PoDocument = {
      request: requestForStorage(request),
      lines: resolved.lines,
      mismatches: resolved.mismatches,
      ...(rejectedLines.length > 0 && { rejectedLines }),
    };
    // `hold`: the PO waits for an operator, whose retry produces the other lines and rejects these.
    const held = rejectedLines.length > 0 && buyer.unknownLines === 'hold';
    const flags = [
      ...new Set(resolved.mismatches.map((m) => MISMATCH_FLAGS[m.field])),
      ...(held ? [FLAG.unproducibleLines] : []),
    ];
    // Only a new order is shipped; whether it waits for an operator is the job's (the buyer's missingShipTo).
    if (request.type === 'new' && linesWithoutShipTo(request, resolved.lines).length > 0) {
      flags.push(FLAG.shipToMissing);
    }
    // A stored PO must not keep the buyer's secret: the codec refused any SharedSecret that is not plain text.
    const raw = redactSharedSecrets(request.raw);
    await letOthersRun(request.items.length);
    const storefrontId = printStorefrontOf(buyer, mode, resolved.lines);
    // The PO, its cart lines marked ordered (a new order's only), its job and its attachments: one
    // transaction, one commit.
    const accepted = await ctx.store.orders.acceptWithLines({
      order: {
        buyerId: buyer.id,
        payloadId: request.payloadID,
        orderId: request.orderID,
        type: request.type,
        ...(request.orderVersion !== undefined && { orderVersion: request.orderVersion }),
        ...(held && { state: 'needs_operator' as const }),
        raw,
        document: storableDocument(document),
        answer: ACCEPTED,
        flags,
        deploymentMode: mode,
        ...(storefrontId !== undefined && { storefrontId }),
      },
      lineRefs: request.type === 'new' ? cartLineRefs(resolved.lines) : [],
      job: processingJob(ctx),
      attachments,
    });
    if (!accepted.created) {
      // Stored meanwhile by a concurrent document: the same one, or another under the same orderID.
      if (request.type === 'new' && accepted.order.payloadId !== request.payloadID) {
        return answerReusedOrderId(ctx, request, buyer, accepted.order, mode);
      }
      return answerAgain(ctx, accepted.order, mode);
    }
    if (held) {
      await ctx.store.orders.patch(accepted.id, { lastError: heldLinesText(rejectedLines) });
    }
    ctx.metrics.count('punchgate_orders_accepted_total', {
      type: request.type,
      mode,
      storefront: storefrontId ?? 'none',
    });
    // No line of its own: the facts ride on the request's access line.
    const accessFields = {
      event: 'purchase order accepted',
      buyer: buyer.id,
      po: accepted.id,
      orderID: request.orderID,
      type: request.type,
      mode,
      storefront: storefrontId ?? 'none',
      lines: resolved.lines.length,
      rejectedLines: rejectedLines.map((line) => line.lineNumber).join(',') || undefined,
      attachments: attachments.length || undefined,
      flags: flags.join(',') || undefined,
    };
    return { code: ACCEPTED.code, text: ACCEPTED.text, accessFields };
  };
}

/** What an operator reads on a held PO: the lines that cannot be produced and what their retry does. */
function heldLinesText(rejectedLines: readonly RejectedLine[]): string {
  return (
    `${rejectedLines.map((line) => line.reason).join('; ')}. The PO waits for an operator: retrying it ` +
    'produces the other lines and tells the buyer these are rejected; otherwise settle it by hand.'
  );
}

/** The cart lines a new PO orders: the lines that name one. */
function cartLineRefs(lines: readonly PoLine[]): string[] {
  return lines.flatMap((line) => line.lineRef ?? []);
}

/**
 * A `new` OrderRequest under the orderID of a stored one, with another payloadID. A buyer's system that
 * resends a PO under a fresh payloadID sends the same lines and ship-to: that copy gets the stored answer.
 * Anything else is another order reusing the number (a test tool's hard-coded orderID, a buyer's change
 * sent as `new`): it is refused naming the stored PO; the cXML route records the refusal in the refusals log
 * for the operators, as it records every refusal, since the buyer's system may show a 4xx to nobody.
 */
async function answerReusedOrderId(
  ctx: GatewayContext,
  request: OrderRequest,
  buyer: ResolvedBuyer,
  stored: PurchaseOrder,
  mode: DeploymentMode,
): Promise<{ code: number; text: string }> {
  // An orderID of the other deployment mode is refused as such, whatever the lines (answerAgain says why).
  const difference =
    stored.deploymentMode === mode ? differenceFromStored(request, storedRequest(stored)) : undefined;
  if (difference === undefined) return answerAgain(ctx, stored, mode);
  const error = new GatewayError(
    'reused_order_id',
    `orderID ${request.orderID} is already the purchase order with payloadID ${stored.payloadId} of ` +
      `${stored.createdAt.toISOString()}, and this document (payloadID ${request.payloadID}) differs from it: ` +
      `${difference}. A change to an order is sent as type="update"; a new order needs its own orderID.`,
  );
  ctx.logger.warn('purchase order refused: orderID reused', {
    buyer: buyer.id,
    orderID: request.orderID,
    payloadID: request.payloadID,
    po: stored.id,
  });
  throw error;
}

/** What tells a copy of a PO from another order: its lines' identity and amounts, and where it goes. */
interface ComparedOrder {
  items: readonly {
    lineNumber: number;
    supplierPartID: string;
    supplierPartAuxiliaryID?: string;
    quantity: string;
    unitPrice: { value: string; currency: string };
    priceBasis?: { quantity: string; conversionFactor: string };
    shipTo?: unknown;
  }[];
  shipTo?: unknown;
}

/** The address as compared: its JSON, so two parses of the same ShipTo are equal. */
function sameAddress(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * What makes the document another order than the stored one — its lines (part, cart reference, quantity,
 * price) or ship-to (header and lines) — in words naming the first difference; undefined for a copy.
 */
export function differenceFromStored(request: ComparedOrder, stored: ComparedOrder): string | undefined {
  if (request.items.length !== stored.items.length) {
    return `it has ${request.items.length} line${request.items.length === 1 ? '' : 's'}, the stored PO ${stored.items.length}`;
  }
  if (!sameAddress(request.shipTo, stored.shipTo)) return 'its ShipTo differs';
  for (const [index, item] of request.items.entries()) {
    const before = stored.items[index];
    if (before === undefined) break;
    const line = `line ${item.lineNumber}`;
    if (item.lineNumber !== before.lineNumber) return `${line} is line ${before.lineNumber} of the stored PO`;
    if (item.supplierPartID.trim() !== before.supplierPartID.trim()) {
      return `${line} has SupplierPartID ${item.supplierPartID}, the stored PO ${before.supplierPartID}`;
    }
    const ref = item.supplierPartAuxiliaryID?.trim() ?? '';
    const storedRef = before.supplierPartAuxiliaryID?.trim() ?? '';
    if (ref !== storedRef) {
      return `${line} has SupplierPartAuxiliaryID ${ref || '(none)'}, the stored PO ${storedRef || '(none)'}`;
    }
    if (!sameDecimal(item.quantity, before.quantity)) {
      return `${line} has quantity ${item.quantity}, the stored PO ${before.quantity}`;
    }
    if (
      !sameDecimal(item.unitPrice.value, before.unitPrice.value) ||
      item.unitPrice.currency !== before.unitPrice.currency
    ) {
      return (
        `${line} has unit price ${item.unitPrice.value} ${item.unitPrice.currency}, ` +
        `the stored PO ${before.unitPrice.value} ${before.unitPrice.currency}`
      );
    }
    const basis = (i: typeof item) => i.priceBasis ?? { quantity: '1', conversionFactor: '1' };
    if (
      !sameDecimal(basis(item).quantity, basis(before).quantity) ||
      !sameDecimal(basis(item).conversionFactor, basis(before).conversionFactor)
    ) {
      return `${line} has another PriceBasisQuantity than the stored PO`;
    }
    if (!sameAddress(item.shipTo, before.shipTo)) return `the ShipTo of ${line} differs`;
  }
  return undefined;
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
  mode: DeploymentMode,
): Promise<{ code: number; text: string }> {
  // A test document is never answered as the production order it repeats, nor the reverse.
  if (order.deploymentMode !== mode) {
    throw new GatewayError(
      'deployment_mode_mismatch',
      `Order ${order.orderId} was received as a ${order.deploymentMode} order (payloadID ${order.payloadId}); ` +
        `this document has deploymentMode "${mode}": a ${mode} order needs an orderID of its own.`,
    );
  }
  if (order.state === 'received') {
    await markLinesOrdered(ctx, order);
    await queueProcessing(ctx, order);
  }
  return { code: order.answer.code, text: order.answer.text };
}

/** Marks the cart lines a new PO orders (idempotent: a line ordered by this PO already stays so). */
async function markLinesOrdered(ctx: GatewayContext, order: PurchaseOrder): Promise<void> {
  if (order.type !== 'new') return;
  const lineRefs = cartLineRefs(poDocument(order).lines);
  if (lineRefs.length > 0) await ctx.store.cart.markOrdered(lineRefs, order.id);
}
