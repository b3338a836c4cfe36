/**
 * The documents that tell a buyer how their purchase order is doing — ConfirmationRequest (accept, reject,
 * detail), ShipNoticeRequest and InvoiceDetailRequest — built once, with their payloadID fixed, and queued
 * in the outbox under a dedupe key, so a retried step never queues a second copy and a resent document is
 * the same document (the buyer dedupes on its payloadID). They are posted to the buyer's `orderStatusUrl`
 * (invoices to `invoices.url` where the buyer has one) with our credentials. The outbox keeps each document
 * forever, so it is stored with our SharedSecret redacted; `outbox-delivery.ts` puts the current one back
 * at every post.
 */
import {
  buildConfirmationRequest,
  buildInvoiceDetailRequest,
  buildShipNoticeRequest,
  type ConfirmationItemInput,
  type ConfirmationStatusInput,
  type ConfirmationStatusType,
  type ConfirmationType,
  type CxmlHeader,
  type InvoiceDetailRequestInput,
  newPayloadId,
  type OrderItem,
  redactSharedSecrets,
  type ShipNoticeCarrier,
  type ShipNoticeLine,
} from '../../cxml/index.ts';
import { StoreError } from '../../store/store-error.ts';
import type {
  DeploymentMode,
  Invoice,
  NewOutboxMessage,
  OutboxKind,
  PurchaseOrder,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { DEFAULT_UNSPSC } from '../cxml/transfer.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { FLAG, type Mismatch, type RejectedLine, storedRequest, withFlags } from '../orders/po-record.ts';
import { instructionsInForce, withheldBecause } from './instructions-in-force.ts';
import { newConfirmID, sentConfirmations } from './sent-confirmations.ts';

/**
 * From and Sender are us (Sender with our SharedSecret); To is the buyer's order-status credential, or for
 * a test order its test account where it has one.
 */
function supplierHeader(ctx: GatewayContext, buyer: ResolvedBuyer, order: PurchaseOrder): CxmlHeader {
  const { supplier } = ctx.config;
  const testAccount = order.deploymentMode === 'test' ? buyer.test.credentials[0] : undefined;
  const to = testAccount ??
    buyer.orderStatusCredential ??
    buyer.from[0] ?? { domain: 'NetworkID', identity: buyer.id };
  return {
    from: supplier.credentials.map((c) => ({ domain: c.domain, identity: c.identity })),
    to: [{ domain: to.domain, identity: to.identity }],
    sender: {
      credentials: supplier.credentials.map((c) => ({
        domain: c.domain,
        identity: c.identity,
        ...(supplier.sharedSecret !== undefined && { sharedSecret: supplier.sharedSecret }),
      })),
      userAgent: supplier.userAgent,
    },
  };
}

interface Envelope {
  payloadID: string;
  timestamp: Date;
  header: CxmlHeader;
  /** The PO's: a document about a test order is a test document, one about a production order never is. */
  deploymentMode: DeploymentMode;
}

/** The envelope of a document about `order`. */
export function envelope(ctx: GatewayContext, buyer: ResolvedBuyer, order: PurchaseOrder): Envelope {
  const now = ctx.clock.now();
  return {
    payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
    timestamp: now,
    header: supplierHeader(ctx, buyer, order),
    deploymentMode: order.deploymentMode,
  };
}

/** The OrderReference of a PO: the buyer's orderID, its orderDate as sent, its payloadID. */
export function orderReference(order: PurchaseOrder) {
  const orderDate = storedRequest(order).orderDate?.raw;
  return {
    orderID: order.orderId,
    orderPayloadID: order.payloadId,
    ...(orderDate !== undefined && { orderDate }),
  };
}

/** A document for the buyer's queue, as `enqueue` takes it. */
interface DocumentToQueue {
  queueOf: PurchaseOrder;
  kind: OutboxKind;
  dedupeKey: string;
  build: () => string;
  /** Where to post it; default the buyer's `orderStatusUrl`. */
  url?: string;
}

/** The outbox message of `message`; undefined (and said in the log) when the buyer has no orderStatusUrl. */
function outboxMessage(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  message: DocumentToQueue,
): NewOutboxMessage | undefined {
  const url = message.url ?? buyer.orderStatusUrl;
  if (url === undefined) {
    ctx.logger.warn('buyer has no orderStatusUrl; document not sent', {
      buyer: buyer.id,
      kind: message.kind,
      dedupeKey: message.dedupeKey,
    });
    return undefined;
  }
  return {
    buyerId: buyer.id,
    poId: message.queueOf.id,
    kind: message.kind,
    dedupeKey: message.dedupeKey,
    url,
    // Whoever reads the database or a backup must not be able to forge documents to every buyer.
    body: redactSharedSecrets(message.build()),
  };
}

/** Says in the log that a document was queued (once: a repeat under its dedupe key is not news). */
export function documentQueued(ctx: GatewayContext, message: NewOutboxMessage): void {
  ctx.logger.info('document queued for buyer', { buyer: message.buyerId, dedupeKey: message.dedupeKey });
}

export async function enqueue(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  message: DocumentToQueue,
): Promise<boolean> {
  const queued = outboxMessage(ctx, buyer, message);
  if (queued === undefined) return false;
  const { created } = await ctx.store.outbox.enqueue(queued);
  if (created) documentQueued(ctx, queued);
  return true;
}

export interface ConfirmationToQueue {
  /**
   * What the confirmation says of the order: placed (`accept`, sent as `allDetail` to buyers configured
   * so), refused (`reject`), or something about its lines (`detail`: a change received, a new status).
   */
  type: Extract<ConfirmationType, 'accept' | 'reject' | 'detail'>;
  /** The document answered (its OrderReference). */
  answers: PurchaseOrder;
  /** The PO whose queue keeps the order of delivery: the original order of an update or delete. */
  queueOf: PurchaseOrder;
  dedupeKey: string;
  comments: string;
  /**
   * Our reference for what is confirmed — the print order ids, or the PO record's id before there are any —
   * which the confirmID is made of: the reference itself for the order's first confirmation, with a
   * counter after it for each later one (`newConfirmID`).
   */
  reference: string;
  /**
   * For `detail`: `unknown` gives every line that status (a change awaiting review); `none` names no line,
   * for a notice that changes no line's status and says its news in the Comments.
   */
  lineStatus?: 'unknown' | 'none';
  /**
   * For `accept`: the PO's quantities and prices that differ from the cart and are confirmed as the PO
   * states them (`poDeviations: confirm`). With any, the accept goes out as a `detail` naming just those
   * lines (status `detail`, with the PO's UnitPrice where the price differs), or as `allDetail` with those
   * lines' status `detail` for buyers whose `confirmations` is `allDetail`.
   */
  deviations?: readonly Mismatch[];
  /**
   * For `accept`: lines left out of the print orders. With any, the accept goes out as one `detail` (or
   * `allDetail`) with a ConfirmationItem per PO line: `accept` for each produced line, `reject` with the
   * reason for each of these — never a header-only accept, which would claim them, nor a `reject`, which
   * would void the lines that are produced.
   */
  rejectedLines?: readonly RejectedLine[];
  /**
   * Nothing an operator must be told when the buyer allows no confirmations: a progress note (a print
   * order's new status), or a change notice whose change waits for an operator anyway. Dropped quietly
   * then, instead of putting the PO before an operator.
   */
  quietIfWithheld?: true;
}

/** The lines a confirmation restates as `detail`: line number → whether the unit price is among the changes. */
type DeviatingLines = ReadonlyMap<number, boolean>;

function deviatingLines(deviations: readonly Mismatch[]): DeviatingLines {
  const lines = new Map<number, boolean>();
  for (const m of deviations)
    lines.set(m.lineNumber, (lines.get(m.lineNumber) ?? false) || m.field === 'price');
  return lines;
}

/**
 * The price a `detail` status states for a line: its UnitPrice, or, for a price per N (the PO's
 * PriceBasisQuantity), the line as an ItemIn, since only ItemIn's ItemDetail carries the basis beside the
 * price (a bare UnitPrice in a ConfirmationStatus is per one unit, and would state a price N times too high).
 */
function pricedStatus(line: OrderItem): Pick<ConfirmationStatusInput, 'unitPrice' | 'itemIn'> {
  if (line.priceBasis === undefined) return { unitPrice: line.unitPrice };
  const classifications = line.classifications.filter((c) => c.domain.trim() !== '' && c.code.trim() !== '');
  return {
    itemIn: {
      quantity: line.quantity,
      lineNumber: line.lineNumber,
      supplierPartID: line.supplierPartID,
      ...(line.supplierPartAuxiliaryID !== undefined && {
        supplierPartAuxiliaryID: line.supplierPartAuxiliaryID,
      }),
      unitPrice: line.unitPrice,
      description: line.description.trim() !== '' ? line.description : line.supplierPartID,
      unitOfMeasure: line.unitOfMeasure,
      priceBasis: line.priceBasis,
      classifications:
        classifications.length > 0 ? classifications : [{ domain: 'UNSPSC', code: DEFAULT_UNSPSC }],
    },
  };
}

/**
 * One ConfirmationItem per line of the PO answered, with the line's quantity and unit and its requested
 * delivery date where the buyer gave one (cXML asks a supplier to confirm against it).
 */
function confirmationItems(
  order: PurchaseOrder,
  status: ConfirmationStatusType,
  deviating: DeviatingLines = new Map(),
  rejected: ReadonlyMap<number, string> = new Map(),
): ConfirmationItemInput[] {
  const request = storedRequest(order);
  return request.items.map((line) => {
    const reason = rejected.get(line.lineNumber);
    if (reason !== undefined) {
      return {
        lineNumber: line.lineNumber,
        quantity: line.quantity,
        unitOfMeasure: line.unitOfMeasure,
        statuses: [{ type: 'reject', comments: reason }],
      };
    }
    const priceChanged = deviating.get(line.lineNumber);
    const lineStatus = priceChanged === undefined ? status : 'detail';
    // The instant the buyer's date was read as (a date without a zone was taken as UTC at intake).
    const requested = line.requestedDeliveryDate?.instant ?? request.requestedDeliveryDate?.instant;
    const confirmsDate = lineStatus === 'accept' || lineStatus === 'detail';
    const deliveryDate = confirmsDate && requested !== undefined ? new Date(requested) : undefined;
    return {
      lineNumber: line.lineNumber,
      quantity: line.quantity,
      unitOfMeasure: line.unitOfMeasure,
      statuses: [
        {
          type: lineStatus,
          ...(deliveryDate !== undefined && { deliveryDate }),
          ...(priceChanged === true && pricedStatus(line)),
        },
      ],
    };
  });
}

/** The header type and items of a confirmation, by its type, the buyer's `confirmations` and any deviations. */
function confirmationBody(
  buyer: ResolvedBuyer,
  confirmation: ConfirmationToQueue,
): { type: ConfirmationType; items: ConfirmationItemInput[] } {
  const { type, answers } = confirmation;
  if (type === 'detail')
    return {
      type,
      items: confirmation.lineStatus === 'unknown' ? confirmationItems(answers, 'unknown') : [],
    };
  if (type !== 'accept') return { type, items: [] };
  const deviating = deviatingLines(confirmation.deviations ?? []);
  const rejected = new Map((confirmation.rejectedLines ?? []).map((line) => [line.lineNumber, line.reason]));
  if (rejected.size > 0) {
    const items = confirmationItems(answers, 'accept', deviating, rejected);
    return { type: buyer.confirmations === 'allDetail' ? 'allDetail' : 'detail', items };
  }
  if (buyer.confirmations === 'allDetail') {
    return { type: 'allDetail', items: confirmationItems(answers, 'accept', deviating) };
  }
  if (deviating.size === 0) return { type, items: [] };
  const items = confirmationItems(answers, 'accept', deviating).filter((item) =>
    deviating.has(item.lineNumber),
  );
  return { type: 'detail', items };
}

/**
 * Queues a new ConfirmationRequest; false if the buyer has no orderStatusUrl. Every confirmation carries a
 * confirmID of its own and version 1 (`confirmation-updates.ts` sends the later versions); `detail` always
 * lists its lines, an accept goes out as `allDetail` with
 * every line for buyers whose `confirmations` is `allDetail`, and an accept of a PO that deviates from the
 * cart as a `detail` naming the deviating lines (`deviations`).
 *
 * @example
 * await queueConfirmation(ctx, buyer, { type: 'accept', answers: po, queueOf: po,
 *   dedupeKey: `confirm:${po.id}:accept`, reference: '1042', comments: 'Print order 1042.' });
 */
export async function queueConfirmation(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  confirmation: ConfirmationToQueue,
): Promise<boolean> {
  const message = await confirmationMessage(ctx, buyer, confirmation);
  if (message === undefined) return false;
  const { created } = await ctx.store.outbox.enqueue(message);
  if (created) documentQueued(ctx, message);
  return true;
}

/**
 * The message `queueConfirmation` queues, for a caller that writes it together with other changes in one
 * transaction (`orders.commit`); undefined when none goes out (the buyer allows none, which is handled
 * here as `queueConfirmation` handles it, or has no orderStatusUrl).
 */
export async function confirmationMessage(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  confirmation: ConfirmationToQueue,
): Promise<NewOutboxMessage | undefined> {
  // A change restates the order's ControlKeys, and the original's still stand: either one forbidding
  // confirmations withholds it (a missing document is put before an operator; a forbidden one cannot be
  // taken back).
  const withheld = confirmationWithheld(confirmation.answers, confirmation.queueOf);
  if (withheld !== undefined) {
    await withholdConfirmation(ctx, confirmation, withheld);
    return undefined;
  }
  const { type, items } = confirmationBody(buyer, confirmation);
  const confirmID = newConfirmID(await sentConfirmations(ctx, confirmation.queueOf), confirmation.reference);
  return outboxMessage(ctx, buyer, {
    queueOf: confirmation.queueOf,
    kind: 'confirmation',
    dedupeKey: confirmation.dedupeKey,
    build: () => {
      const base = envelope(ctx, buyer, confirmation.answers);
      return buildConfirmationRequest({
        ...base,
        ...orderReference(confirmation.answers),
        type,
        confirmID,
        version: 1,
        noticeDate: base.timestamp,
        comments: confirmation.comments,
        items,
      });
    },
  });
}

/** Why the buyer allows no confirmation about these orders (an original and its change), if it does not. */
export function confirmationWithheld(...orders: readonly PurchaseOrder[]): string | undefined {
  return orders
    .map((order) => withheldBecause(instructionsInForce(storedRequest(order)), 'confirmation'))
    .find((why) => why !== undefined);
}

/**
 * A confirmation the buyer's OCInstruction forbids is not sent. A plain accept (or one `quietIfWithheld`)
 * says nothing an operator must act on; anything else — a rejection, an accept on terms that differ from
 * the cart, a cancellation — is news the buyer would otherwise never get, so the PO it belongs to waits for
 * an operator (`needs_operator`, flag `confirmation_withheld`) with what the document would have said as
 * its reason, added to any reason it already shows.
 */
export async function withholdConfirmation(
  ctx: GatewayContext,
  confirmation: Pick<
    ConfirmationToQueue,
    'type' | 'queueOf' | 'dedupeKey' | 'comments' | 'quietIfWithheld' | 'deviations' | 'rejectedLines'
  >,
  withheld: string,
): Promise<void> {
  const plain =
    confirmation.quietIfWithheld === true ||
    (confirmation.type === 'accept' &&
      (confirmation.deviations ?? []).length === 0 &&
      (confirmation.rejectedLines ?? []).length === 0);
  ctx.logger.info('confirmation not sent: the buyer allows none', {
    po: confirmation.queueOf.id,
    dedupeKey: confirmation.dedupeKey,
    flagged: !plain,
  });
  if (plain) return;
  const note =
    `No ConfirmationRequest was sent (${withheld}); it would have said (${confirmation.type}): ` +
    confirmation.comments;
  for (let attempt = 0; attempt < 3; attempt++) {
    const po = await ctx.store.orders.get(confirmation.queueOf.id);
    if (po === undefined || (po.flags.includes(FLAG.confirmationWithheld) && po.lastError?.includes(note))) {
      return;
    }
    const open = po.state === 'received' || po.state === 'processing' || po.state === 'ordered';
    try {
      await ctx.store.orders.patch(
        po.id,
        {
          flags: withFlags(po.flags, [FLAG.confirmationWithheld]),
          lastError: po.lastError === undefined ? note : `${po.lastError} ${note}`,
          ...(open && { state: 'needs_operator' }),
        },
        { ifState: [po.state] },
      );
      return;
    } catch (error) {
      // The PO moved on meanwhile (its job, a webhook, an operator): read it again and add the note to that.
      if (!(error instanceof StoreError && error.code === 'conflict')) throw error;
    }
  }
}

/** The reference a PO's confirmIDs are made of: its print order ids, or the PO record's id before there are any. */
export async function confirmationReferenceOf(ctx: GatewayContext, order: PurchaseOrder): Promise<string> {
  const printOrders = await ctx.store.printOrders.listByPo(order.id);
  return printOrders.length === 0 ? `PG-${order.id}` : printOrders.map((p) => p.printOrderId).join(',');
}

export interface ShipNoticeToQueue {
  order: PurchaseOrder;
  printOrderId: number;
  shipmentIndex: number;
  shipmentDate?: string;
  carrier?: ShipNoticeCarrier;
  service?: string;
  trackingNumbers: string[];
  lines: ShipNoticeLine[];
}

/** The dedupe key of a shipment's notice: one notice per shipment of a print order, ever. */
function shipNoticeKey(storefrontId: string, printOrderId: number, shipmentIndex: number): string {
  return `ship:${storefrontId}:${printOrderId}:${shipmentIndex}`;
}

/**
 * What became of a shipment's notice: `queued` (or queued before), `no_url` (the buyer has no
 * orderStatusUrl), `withheld` (the buyer's ASNInstruction allows none for any of its lines: it is never
 * sent), or `waiting` (OCInstruction requiredBeforeASN and no confirmation delivered yet: ask again later).
 */
export type ShipNoticeOutcome = 'queued' | 'no_url' | 'withheld' | 'waiting';

/** Whether a ConfirmationRequest about the PO has reached the buyer (its outbox message delivered). */
async function confirmationDelivered(ctx: GatewayContext, order: PurchaseOrder): Promise<boolean> {
  let cursor: string | undefined;
  do {
    const page = await ctx.store.outbox.list({ poId: order.id, limit: 500, ...(cursor && { cursor }) });
    if (page.items.some((m) => m.kind === 'confirmation' && m.state === 'delivered')) return true;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return false;
}

/**
 * Queues the ShipNoticeRequest of one shipment, as the buyer's ControlKeys allow: the lines whose
 * ASNInstruction is `notAllowed` are left out (none left: no notice), and under `requiredBeforeASN` the
 * notice waits until a confirmation was delivered.
 */
export async function queueShipNotice(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  storefrontId: string,
  notice: ShipNoticeToQueue,
): Promise<ShipNoticeOutcome> {
  const request = storedRequest(notice.order);
  const lines = notice.lines.filter((line) => instructionsInForce(request, [line.lineNumber]).shipNotice);
  if (lines.length === 0) {
    const why = withheldBecause(
      instructionsInForce(
        request,
        notice.lines.map((line) => line.lineNumber),
      ),
      'ship_notice',
    );
    ctx.logger.info('ship notice not sent', { po: notice.order.id, shipment: notice.shipmentIndex, why });
    return 'withheld';
  }
  const lineNumbers = lines.map((line) => line.lineNumber);
  const instructions = instructionsInForce(request, lineNumbers);
  if (instructions.confirmationBeforeShipNotice && !(await confirmationDelivered(ctx, notice.order))) {
    return 'waiting';
  }
  const queued = await enqueue(ctx, buyer, {
    queueOf: notice.order,
    kind: 'ship_notice',
    dedupeKey: shipNoticeKey(storefrontId, notice.printOrderId, notice.shipmentIndex),
    build: () => {
      const base = envelope(ctx, buyer, notice.order);
      return buildShipNoticeRequest({
        ...base,
        ...orderReference(notice.order),
        shipmentID: `${notice.printOrderId}-${notice.shipmentIndex}`,
        noticeDate: base.timestamp,
        ...(notice.shipmentDate !== undefined && { shipmentDate: new Date(notice.shipmentDate) }),
        ...(notice.carrier !== undefined && { carrier: notice.carrier }),
        ...(notice.service !== undefined && { service: notice.service }),
        trackingNumbers: notice.trackingNumbers,
        comments: `Print order ${notice.printOrderId}, shipment ${notice.shipmentIndex}.`,
        lines,
      });
    },
  });
  return queued ? 'queued' : 'no_url';
}

/** What an invoice document says beyond its envelope, its stored record and the PO it bills. */
export type InvoiceContent = Omit<
  InvoiceDetailRequestInput,
  keyof Envelope | 'invoiceID' | 'invoiceDate' | 'orderReference' | 'currency' | 'purpose'
>;

/**
 * Queues the InvoiceDetailRequest of a stored invoice (its id, date, purpose and amounts fixed when it was
 * issued) under the invoice's dedupe key, to the buyer's invoice URL; false if there is none.
 */
export function queueInvoice(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  invoice: { record: Invoice; order: PurchaseOrder; content: InvoiceContent },
): Promise<boolean> {
  const { record, order, content } = invoice;
  return enqueue(ctx, buyer, {
    queueOf: order,
    kind: 'invoice',
    dedupeKey: record.dedupeKey,
    ...(buyer.invoices.url !== undefined && { url: buyer.invoices.url }),
    build: () =>
      buildInvoiceDetailRequest({
        ...envelope(ctx, buyer, order),
        ...content,
        invoiceID: record.invoiceId,
        purpose: record.purpose,
        invoiceDate: record.invoiceDate,
        currency: record.amounts.currency,
        orderReference: orderReference(order),
      }),
  });
}
