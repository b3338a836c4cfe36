/**
 * Invoices to buyers (issue 19): when a print order reaches the point the buyer's `invoices` settings name
 * (a shipment shipped, every shipment shipped, or a status), the invoice's figures are worked out from the
 * PO and the print order as the service reports it now (`invoice-figures.ts`), the invoice is recorded
 * under a key that makes it happen once per print order or shipment (`store.invoices.issue`: its invoiceID
 * and date are fixed there), and its InvoiceDetailRequest is queued in the outbox under the same key. A
 * repeated webhook, the reconciliation poll or a crash between the two steps therefore never makes a
 * second invoice: the record is found again and its document queued once.
 *
 * An invoice that cannot go out as it stands — the print order's figures disagree with themselves or with
 * the PO beyond the tolerance, or the print service has no invoice number yet where the buyer wants its
 * numbers — flags the PO for an operator with the figures, and the print order stays open so the next look
 * (webhook or poll) tries again. A print order cancelled after it was invoiced gets a credit memo per
 * invoice, every amount negated, naming the invoice it takes back.
 */
import type { Order } from '../../../schemas/print-api.ts';
import { readShipNoticeLineNumbers } from '../../cxml/index.ts';
import { addDecimals, parseDecimal } from '../../kernel/decimal.ts';
import { formatMoney } from '../../kernel/money.ts';
import type {
  Invoice,
  InvoiceAmounts,
  InvoiceHold,
  InvoiceHoldPrices,
  OutboxMessage,
  PurchaseOrder,
  TrackedPrintOrder,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { type InvoiceContent, queueInvoice } from '../documents/buyer-documents.ts';
import { instructionsInForce, withheldBecause } from '../documents/instructions-in-force.ts';
import { GatewayError } from '../http/errors.ts';
import { awaitOperator, endOperatorWait, type OperatorMatter } from '../orders/operator-wait.ts';
import { poChargesOf } from '../orders/po-charges.ts';
import { FLAG, groupOfPrintOrder, storedRequest } from '../orders/po-record.ts';
import { readPrintOrder } from '../orders/read-print-order.ts';
import {
  creditMemoFigures,
  creditMemoInvoiceId,
  deviationComments,
  type InvoiceFigures,
  type InvoiceFiguresInput,
  type InvoiceScope,
  invoiceFigures,
  invoiceKey,
  invoiceKeyText,
  invoicePartners,
  invoicesDue,
  printServiceInvoiceId,
} from './invoice-figures.ts';
import {
  compliantPartners,
  type InvoiceCompliance,
  invoiceCompliance,
  labelTaxes,
  taxPointDate,
  treatTax,
  withDistribution,
  withTaxPoint,
} from './invoice-compliance.ts';
import { holdText, INVOICE_WAIT, openHolds } from './invoice-holds.ts';

export interface InvoicingOutcome {
  /** Invoices are due that could not be issued yet (held, or waiting for a number): keep looking. */
  readonly waiting: boolean;
}

const NOTHING_WAITING: InvoicingOutcome = { waiting: false };

function amountsOf(figures: InvoiceFigures): InvoiceAmounts {
  const { summary } = figures;
  return {
    currency: figures.currency,
    subtotal: summary.subtotal,
    tax: summary.tax.amount,
    shipping: summary.shipping ?? '0.00',
    discount: summary.discount ?? '0.00',
    due: summary.due,
  };
}

/** A PO's invoice waiting for an operator (held figures, a missing invoice number) under `flag`. */
function invoiceMatter(flag: string): OperatorMatter {
  return { flag, prefix: INVOICE_WAIT, from: ['ordered'] };
}

/**
 * Flags the PO with an invoice matter and, with a reason, puts it in the operators' queue; false when the
 * PO already said so.
 */
function flagPo(ctx: GatewayContext, poId: string, flag: string, reason?: string): Promise<boolean> {
  return awaitOperator(ctx, poId, invoiceMatter(flag), reason);
}

/**
 * Puts a PO that waited only for its invoices back to `ordered` once nothing is held any more (held
 * figures put right, a release or a waiver by an operator, an invoice number that came later). While
 * another of its invoices is held, the PO says that one instead.
 */
function settleInvoiceWait(ctx: GatewayContext, poId: string, settled: string): Promise<void> {
  return endOperatorWait(
    ctx,
    poId,
    { prefix: INVOICE_WAIT },
    {
      stillWaiting: async (po) => {
        const held = await openHolds(ctx, po.id);
        return held.length > 0 ? holdText(held) : undefined;
      },
      settledState: () => 'ordered',
      settledText: (waitedFor) => `${settled} after it waited: ${waitedFor}`,
    },
  );
}

/**
 * Records that the invoice of `scope` is held (or finds its hold again, with the figures as they are now),
 * with what it would bill at either side's prices for the operator's choice, and keeps the PO waiting for
 * an operator. Counted and logged once per hold.
 */
async function holdInvoice(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  tracked: TrackedPrintOrder,
  input: InvoiceFiguresInput,
  message: string,
  known: InvoiceHold | undefined,
): Promise<void> {
  const dueAt = (prices: InvoiceHoldPrices) => {
    const result = figuresOf(ctx, buyer, tracked.storefrontId, { ...input, prices });
    return result.ok ? result.figures.summary.due : undefined;
  };
  const atPoPrices = dueAt('po');
  const atPrintOrderPrices = dueAt('print-order');
  await ctx.store.invoiceHolds.hold({
    buyerId: po.buyerId,
    poId: po.id,
    storefrontId: tracked.storefrontId,
    printOrderId: tracked.printOrderId,
    scope: invoiceKey(input.scope),
    reason: message,
    amounts: {
      currency: input.currency,
      ...(atPoPrices !== undefined && { atPoPrices }),
      ...(atPrintOrderPrices !== undefined && { atPrintOrderPrices }),
    },
  });
  await flagPo(ctx, po.id, FLAG.invoiceHeld, holdText(await openHolds(ctx, po.id)));
  if (known === undefined) {
    ctx.metrics.count('punchgate_invoices_total', { purpose: 'standard', outcome: 'held' });
    ctx.logger.warn('invoice held for an operator', { po: po.id, printOrder: tracked.printOrderId });
  }
}

/** Whether the storefront's cart charges tax the shipping, so that a PO's Tax holds the shipping's. */
function taxesShipping(ctx: GatewayContext, storefrontId: string): boolean {
  return ctx.storefront(storefrontId).charges?.tax?.onShipping === true;
}

/** The buyer's compliance settings over its print order's storefront's. */
function complianceOf(ctx: GatewayContext, buyer: ResolvedBuyer, storefrontId: string): InvoiceCompliance {
  return invoiceCompliance(ctx.storefront(storefrontId).invoicing, buyer.invoices);
}

/** An invoice's figures with its taxes stated as the buyer's compliance settings say (`treatTax`). */
function figuresOf(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  storefrontId: string,
  input: InvoiceFiguresInput,
): ReturnType<typeof invoiceFigures> {
  return treatTax(invoiceFigures(input), complianceOf(ctx, buyer, storefrontId).tax);
}

/**
 * The invoice's document content besides what its record fixes: partners with their tax ids, terms,
 * lines (with their accounting where the buyer asks), summary.
 */
function invoiceContent(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  printOrder: { storefrontId: string; printOrderId: number },
  figures: InvoiceFigures,
  extra: Pick<InvoiceContent, 'originalInvoice' | 'comments'> = {},
): InvoiceContent {
  const comments = extra.comments ?? deviationComments(figures.deviations);
  const storefront = ctx.storefront(printOrder.storefrontId);
  const supplierName = storefront.vendorName ?? storefront.name;
  const compliance = complianceOf(ctx, buyer, printOrder.storefrontId);
  const request = storedRequest(po);
  const partners = compliantPartners(invoicePartners(buyer.invoices.remitTo, supplierName, request.billTo), {
    compliance,
    supplierName: supplierName ?? buyer.invoices.remitTo?.name ?? storefront.id,
    ...(request.buyerVatID !== undefined && { buyerVatID: request.buyerVatID }),
    buyerName: buyer.name ?? buyer.id,
  });
  const group = groupOfPrintOrder(po, printOrder.printOrderId);
  const lines = compliance.accountingInLine
    ? withDistribution(figures.lines, group?.lines ?? [], figures.currency)
    : figures.lines;
  return {
    supplierOrderID: String(printOrder.printOrderId),
    partners,
    paymentTermDays: buyer.invoices.paymentTermDays,
    taxAt: figures.taxAt,
    ...(compliance.accountingInLine && { accountingInLine: true }),
    lines,
    summary: figures.summary,
    ...(extra.originalInvoice !== undefined && { originalInvoice: extra.originalInvoice }),
    ...(comments !== undefined && { comments }),
  };
}

/**
 * Why the buyer's ControlKeys forbid invoicing a print order (ERS, `notAllowed` or a temporary price on
 * one of its lines, or on the order); undefined when they allow it. Credit memos follow the same word:
 * under ERS nothing was billed, so there is nothing to take back.
 */
function invoiceWithheld(po: PurchaseOrder, printOrderId: number): string | undefined {
  const lines = groupOfPrintOrder(po, printOrderId)?.lines.map((line) => line.lineNumber);
  return withheldBecause(instructionsInForce(storedRequest(po), lines), 'invoice');
}

/** Issues (or finds again) one invoice of the print order and queues its document; undefined while it waits. */
async function issueInvoice(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  storefrontId: string,
  order: Order,
  scope: InvoiceScope,
  figures: InvoiceFigures,
): Promise<Invoice | undefined> {
  const settings = buyer.invoices;
  let invoiceId: string | undefined;
  if (settings.invoiceIds === 'print-service') {
    invoiceId = printServiceInvoiceId(order, scope);
    if (invoiceId === undefined) {
      const newly = await flagPo(
        ctx,
        po.id,
        FLAG.invoiceNumberMissing,
        `${INVOICE_WAIT}print order ${order.id} has no invoice_number yet; the buyer's invoices carry the print service's numbers, so its invoice waits for one.`,
      );
      if (newly) ctx.metrics.count('punchgate_invoices_total', { purpose: 'standard', outcome: 'held' });
      return undefined;
    }
  }
  const { created, invoice } = await ctx.store.invoices.issue({
    buyerId: buyer.id,
    poId: po.id,
    storefrontId,
    printOrderId: order.id,
    scope: invoiceKey(scope),
    purpose: 'standard',
    ...(invoiceId !== undefined ? { invoiceId } : { idPrefix: settings.idPrefix }),
    invoiceDate: ctx.clock.now(),
    amounts: amountsOf(figures),
  });
  await queueInvoice(ctx, buyer, {
    record: invoice,
    order: po,
    content: invoiceContent(
      ctx,
      buyer,
      po,
      { storefrontId, printOrderId: order.id },
      withTaxPoint(
        figures,
        taxPointDate(complianceOf(ctx, buyer, storefrontId).tax, invoice.invoiceDate, order, scope),
      ),
    ),
  });
  if (figures.deviations.length > 0) await flagPo(ctx, po.id, FLAG.invoicePriceDeviation);
  if (created) ctx.metrics.count('punchgate_invoices_total', { purpose: 'standard', outcome: 'issued' });
  ctx.logger.info('invoice issued', { po: po.id, printOrder: order.id, invoice: invoice.invoiceId });
  return invoice;
}

/** A credit memo's figures from the invoice it takes back: its amounts negated, no lines (a header invoice). */
function creditFigures(invoice: Invoice, taxAt: InvoiceFigures['taxAt']): InvoiceFigures {
  const { amounts } = invoice;
  const gross = sumMoney([amounts.subtotal, amounts.tax, amounts.shipping], amounts.currency);
  const original: InvoiceFigures = {
    currency: amounts.currency,
    taxAt,
    lines: [],
    summary: {
      subtotal: amounts.subtotal,
      tax: { amount: amounts.tax, taxableAmount: amounts.subtotal },
      shipping: amounts.shipping,
      ...(parseDecimal(amounts.discount, { signed: true }).units !== 0n && { discount: amounts.discount }),
      gross,
      net: amounts.due,
      due: amounts.due,
    },
    deviations: [],
    taxSource: 'none',
    shippingSource: 'none',
  };
  return creditMemoFigures(original);
}

/** Adds stored money texts exactly, written in the currency's minor units. */
function sumMoney(values: readonly string[], currency: string): string {
  return formatMoney(addDecimals(values.map((value) => parseDecimal(value, { signed: true }))), currency);
}

/** The standard invoices among `issued` that no credit memo takes back yet and that bill something. */
function uncredited(issued: readonly Invoice[]): Invoice[] {
  const credited = new Set(issued.filter((i) => i.purpose === 'creditMemo').map((i) => i.creditsInvoice));
  // An invoice for nothing has nothing to take back (and cXML wants a credit memo's amount below zero).
  return issued.filter(
    (i) =>
      i.purpose === 'standard' &&
      !credited.has(i.id) &&
      parseDecimal(i.amounts.due, { signed: true }).units > 0n,
  );
}

/**
 * Whether a print order has invoices a cancellation would still have to take back. A print order is
 * closed once shipped and invoiced, but the print shop may cancel it after that: its webhook must still
 * be read then, or the buyer keeps an invoice for an order that was cancelled.
 */
export async function awaitsCreditOnCancel(
  ctx: GatewayContext,
  tracked: Pick<TrackedPrintOrder, 'storefrontId' | 'printOrderId'>,
): Promise<boolean> {
  const issued = await ctx.store.invoices.listByPrintOrder(tracked.storefrontId, tracked.printOrderId);
  return uncredited(issued).length > 0;
}

/** Takes back every invoice of a cancelled print order that has not been credited yet. */
async function creditInvoices(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  order: Order,
  issued: readonly Invoice[],
): Promise<void> {
  for (const invoice of uncredited(issued)) {
    const figures = labelTaxes(
      creditFigures(invoice, buyer.invoices.taxAt),
      complianceOf(ctx, buyer, invoice.storefrontId).tax,
    );
    const { created, invoice: memo } = await ctx.store.invoices.issue({
      buyerId: invoice.buyerId,
      poId: invoice.poId,
      storefrontId: invoice.storefrontId,
      printOrderId: invoice.printOrderId,
      scope: invoice.scope,
      purpose: 'creditMemo',
      invoiceId: creditMemoInvoiceId(invoice.invoiceId),
      invoiceDate: ctx.clock.now(),
      amounts: amountsOf(figures),
      creditsInvoice: invoice.id,
    });
    await queueInvoice(ctx, buyer, {
      record: memo,
      order: po,
      content: invoiceContent(ctx, buyer, po, invoice, figures, {
        originalInvoice: { invoiceID: invoice.invoiceId, invoiceDate: invoice.invoiceDate },
        comments: `Print order ${order.id} was cancelled ("${order.status}"); this credit memo takes back invoice ${invoice.invoiceId}.`,
      }),
    });
    if (created) ctx.metrics.count('punchgate_invoices_total', { purpose: 'creditMemo', outcome: 'issued' });
    ctx.logger.info('credit memo issued', { po: po.id, printOrder: order.id, invoice: memo.invoiceId });
  }
}

/**
 * Issues what the print order is due by the buyer's `invoices` settings (or, once it is cancelled, the
 * credit memos of what was invoiced), and says whether something due is still waiting.
 */
/** Who asks for the print order's invoices: the sync (webhook or poll), or an operator, who may release held ones. */
export type InvoicingRequest =
  | { readonly by: 'the sync' }
  | { readonly by: 'an operator'; readonly prices?: InvoiceHoldPrices };

const BY_THE_SYNC: InvoicingRequest = { by: 'the sync' };

/**
 * Issues what the print order is due by the buyer's `invoices` settings (or, once it is cancelled, the
 * credit memos of what was invoiced), and says whether something due is still waiting. An invoice that
 * cannot go out as it stands is held (`holdInvoice`) and looked at again next time; one an operator waived
 * is never issued; an operator's `prices` release the held ones at those prices.
 */
export async function invoicePrintOrder(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  tracked: TrackedPrintOrder,
  order: Order,
  cancelled: boolean,
  request: InvoicingRequest = BY_THE_SYNC,
): Promise<InvoicingOutcome> {
  const settings = buyer.invoices;
  if (settings.send === 'off') return NOTHING_WAITING;
  // The buyer's instructions win over `invoices.send`, on every path that comes here.
  if (invoiceWithheld(po, tracked.printOrderId) !== undefined) return NOTHING_WAITING;
  const issued = await ctx.store.invoices.listByPrintOrder(tracked.storefrontId, tracked.printOrderId);
  if (cancelled) {
    await creditInvoices(ctx, buyer, po, order, issued);
    return NOTHING_WAITING;
  }
  // Settled by hand before holds were records of their own (an invoice number the service never gave):
  // looking again on every round would put the PO back in the operators' queue.
  if (request.by === 'the sync' && po.flags.includes(FLAG.invoicesSettledByOperator)) return NOTHING_WAITING;
  const group = groupOfPrintOrder(po, tracked.printOrderId);
  if (group === undefined) return NOTHING_WAITING;
  const standard = issued.filter((i) => i.purpose === 'standard');
  const holds = await holdsOfPrintOrder(ctx, po.id, tracked);
  await settleIssuedHolds(ctx, holds, standard);
  const waived = [...holds.values()].filter((h) => h.state === 'waived').map((h) => h.scope);
  let waiting = false;
  let lastIssued: Invoice | undefined;
  let passPromotion = false;
  for (const due of invoicesDue(order, settings, [...standard.map((i) => i.scope), ...waived])) {
    const scope: InvoiceScope =
      passPromotion && due.per === 'shipment' ? { ...due, withPromotion: true } : due;
    passPromotion = false;
    const hold = holds.get(invoiceKey(scope));
    const release = request.by === 'an operator' && hold?.state === 'held' ? request.prices : undefined;
    const input: InvoiceFiguresInput = {
      order,
      group,
      currency: storedRequest(po).total.currency,
      scope,
      settings,
      poCharges: poChargesOf(po, buyer, taxesShipping(ctx, tracked.storefrontId)),
      ...(release !== undefined && { prices: release }),
    };
    const result = figuresOf(ctx, buyer, tracked.storefrontId, input);
    if (!result.ok) {
      await holdInvoice(ctx, buyer, po, tracked, input, result.message, hold);
      waiting = true;
      // The promotion goes on the print order's first invoice: a held one passes it on to the next, or
      // it would be lost (once another invoice is out, the held one no longer counts as the first).
      passPromotion = scope.per === 'shipment' && scope.withPromotion;
      continue;
    }
    const invoice = await issueInvoice(ctx, buyer, po, tracked.storefrontId, order, scope, result.figures);
    if (invoice === undefined) {
      waiting = true;
      continue;
    }
    lastIssued = invoice;
    if (hold?.state === 'held') {
      await ctx.store.invoiceHolds.settle(
        hold.id,
        {
          state: 'invoiced',
          invoiceId: invoice.invoiceId,
          ...(release !== undefined && { prices: release }),
          note:
            release === undefined
              ? "Invoiced once the print order's figures were put right."
              : `Released by an operator at the ${release === 'po' ? "PO's" : "print order's"} prices.`,
        },
        ['held'],
      );
    }
  }
  if (lastIssued !== undefined && !waiting) {
    await settleInvoiceWait(ctx, po.id, `Invoice ${lastIssued.invoiceId} sent`);
  }
  // An on-status invoice may come after the last shipment: the print order stays open until it is out.
  const statusAwaited = settings.send === 'on-status' && standard.length === 0 && lastIssued === undefined;
  return { waiting: waiting || statusAwaited };
}

/** The print order's holds, by the scope they hold. */
async function holdsOfPrintOrder(
  ctx: GatewayContext,
  poId: string,
  tracked: Pick<TrackedPrintOrder, 'storefrontId' | 'printOrderId'>,
): Promise<Map<string, InvoiceHold>> {
  const holds = (await ctx.store.invoiceHolds.listByPo(poId)).filter(
    (h) => h.storefrontId === tracked.storefrontId && h.printOrderId === tracked.printOrderId,
  );
  return new Map(holds.map((h) => [h.scope, h]));
}

/**
 * Settles the holds whose invoice is out already: issued by an operator's release just before a crash cut
 * the settling off, the record says so on the next look (else the PO would wait for an operator forever).
 */
async function settleIssuedHolds(
  ctx: GatewayContext,
  holds: Map<string, InvoiceHold>,
  standard: readonly Invoice[],
): Promise<void> {
  for (const [scope, hold] of holds) {
    const invoice = standard.find((i) => i.scope === scope);
    if (hold.state !== 'held' || invoice === undefined) continue;
    const settled = await ctx.store.invoiceHolds.settle(
      hold.id,
      { state: 'invoiced', invoiceId: invoice.invoiceId, note: 'Found invoiced on a later look.' },
      ['held'],
    );
    if (settled !== undefined) holds.set(scope, settled);
  }
}

/**
 * An operator's "invoice now": every print order of the PO is read from the print service as it is now and
 * invoiced as the buyer's settings say (what was issued before is found again, never issued twice). For a
 * PO whose invoice was held once its print order's figures are put right, or one whose print order closed
 * before the print service had its invoice number.
 */
export function invoicePoNow(
  ctx: GatewayContext,
  po: PurchaseOrder,
  prices: InvoiceHoldPrices = 'po',
): Promise<Invoice[]> {
  return invoiceEveryPrintOrder(ctx, po, { by: 'an operator', prices });
}

/**
 * A PO's invoices looked at again now, as its print orders stand, the way the sync looks at them: a held
 * invoice whose print order was put right goes out (and the PO leaves the operators' queue), one still
 * wrong stays held. Nothing is released at either side's prices.
 */
export function lookAgainAtInvoices(ctx: GatewayContext, po: PurchaseOrder): Promise<Invoice[]> {
  return invoiceEveryPrintOrder(ctx, po, BY_THE_SYNC);
}

async function invoiceEveryPrintOrder(
  ctx: GatewayContext,
  po: PurchaseOrder,
  request: InvoicingRequest,
): Promise<Invoice[]> {
  const buyer = invoicedBuyer(ctx, po);
  const tracked = (await ctx.store.printOrders.listByPo(po.id)).filter((p) => p.confirmed);
  if (tracked.length === 0) {
    throw new GatewayError(
      'conflict',
      `Purchase order record ${po.id} has no confirmed print order to invoice.`,
    );
  }
  const withheld = tracked.map((printOrder) => invoiceWithheld(po, printOrder.printOrderId));
  const allowed = tracked.filter((_, index) => withheld[index] === undefined);
  const [why] = withheld;
  if (allowed.length === 0 && why !== undefined) {
    throw new GatewayError('conflict', `Purchase order record ${po.id} is not invoiced: ${why}.`);
  }
  const printOrders = await Promise.all(
    allowed.map(async (printOrder) => {
      const order = await readPrintOrder(ctx, printOrder.storefrontId, printOrder.printOrderId);
      const cancelStatus = ctx.storefront(printOrder.storefrontId).cancelStatus;
      const cancelled =
        cancelStatus !== undefined && order.status.toLowerCase() === cancelStatus.toLowerCase();
      return { printOrder, order, cancelled };
    }),
  );
  if (request.by === 'an operator')
    await refuseUnreleasable(ctx, buyer, po, printOrders, request.prices ?? 'po');
  for (const { printOrder, order, cancelled } of printOrders) {
    const current = (await ctx.store.orders.get(po.id)) ?? po;
    await invoicePrintOrder(ctx, buyer, current, printOrder, order, cancelled, request);
  }
  return ctx.store.invoices.listByPo(po.id);
}

function invoicedBuyer(ctx: GatewayContext, po: PurchaseOrder): ResolvedBuyer {
  const buyer = ctx.buyers.byId(po.buyerId);
  if (buyer === undefined || buyer.invoices.send === 'off') {
    throw new GatewayError(
      'conflict',
      `Buyer ${po.buyerId} is not invoiced through the gateway (invoices.send is off).`,
    );
  }
  return buyer;
}

/**
 * Refuses a release that would leave a held invoice held (its print order's figures disagree with
 * themselves, a price difference no PO line carries alone…), before anything is issued: the operator's one
 * action then either sends every held invoice or changes nothing.
 */
async function refuseUnreleasable(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  printOrders: readonly { printOrder: TrackedPrintOrder; order: Order; cancelled: boolean }[],
  prices: InvoiceHoldPrices,
): Promise<void> {
  const held = await openHolds(ctx, po.id);
  const still: string[] = [];
  for (const hold of held) {
    const found = printOrders.find(
      (p) =>
        p.printOrder.storefrontId === hold.storefrontId && p.printOrder.printOrderId === hold.printOrderId,
    );
    const group = groupOfPrintOrder(po, hold.printOrderId);
    if (found === undefined || found.cancelled || group === undefined) continue;
    const scope = invoicesDue(found.order, buyer.invoices, []).find((due) => invoiceKey(due) === hold.scope);
    if (scope === undefined) continue;
    const result = figuresOf(ctx, buyer, hold.storefrontId, {
      order: found.order,
      group,
      currency: storedRequest(po).total.currency,
      scope,
      settings: buyer.invoices,
      poCharges: poChargesOf(po, buyer, taxesShipping(ctx, hold.storefrontId)),
      prices,
    });
    if (!result.ok)
      still.push(`print order ${hold.printOrderId} (${invoiceKeyText(hold.scope)}): ${result.message}`);
  }
  if (still.length > 0) {
    throw new GatewayError(
      'conflict',
      `Nothing was invoiced: at the ${prices === 'po' ? "PO's" : "print order's"} prices the invoice would still be held — ${still.join(' ')} Put the print order right, or waive the invoice.`,
    );
  }
}

/**
 * An operator's waiver: the PO's held invoices are not sent (the buyer self-bills, or it was settled
 * elsewhere), with the operator's note; the PO leaves the operators' queue when nothing else waits.
 */
export async function waiveHeldInvoices(
  ctx: GatewayContext,
  po: PurchaseOrder,
  note: string,
): Promise<InvoiceHold[]> {
  const held = await openHolds(ctx, po.id);
  if (held.length === 0) {
    throw new GatewayError('conflict', `Purchase order record ${po.id} has no held invoice to waive.`);
  }
  const waived: InvoiceHold[] = [];
  for (const hold of held) {
    const settled = await ctx.store.invoiceHolds.settle(hold.id, { state: 'waived', note }, ['held']);
    if (settled !== undefined) waived.push(settled);
  }
  if (waived.length === 0) {
    throw new GatewayError(
      'conflict',
      `The held invoices of purchase order record ${po.id} were settled meanwhile.`,
    );
  }
  await settleInvoiceWait(ctx, po.id, 'Invoice waived by an operator');
  ctx.logger.info('held invoice waived by an operator', { po: po.id, holds: waived.length });
  return waived;
}

/** The outbox messages that carry an invoice's document: the first, then each re-send. */
async function invoiceDeliveries(ctx: GatewayContext, invoice: Invoice): Promise<OutboxMessage[]> {
  return documentDeliveries(ctx, invoice.poId, invoice.dedupeKey);
}

/** The outbox messages that carry one document (dedupe key `key`, about PO `poId`): the first, then each re-send. */
export async function documentDeliveries(
  ctx: GatewayContext,
  poId: string,
  key: string,
): Promise<OutboxMessage[]> {
  return deliveriesOf(await poMessages(ctx, poId), key);
}

/** Every outbox message of a PO, oldest first: read once where several documents' deliveries are shown. */
export async function poMessages(ctx: GatewayContext, poId: string): Promise<OutboxMessage[]> {
  const messages: OutboxMessage[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.store.outbox.list({ poId, limit: 500, ...(cursor && { cursor }) });
    messages.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return messages.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Of a PO's messages, those carrying the document `key`: the first, then each re-send. */
export function deliveriesOf(messages: readonly OutboxMessage[], key: string): OutboxMessage[] {
  return messages.filter((m) => m.dedupeKey === key || m.dedupeKey.startsWith(`${key}${RESEND}`));
}

const RESEND = '#resend-';

/** The dedupe key of the document a message carries: a re-send's own key less its `#resend-n`. */
export function documentKey(message: OutboxMessage): string {
  const at = message.dedupeKey.indexOf(RESEND);
  return at === -1 ? message.dedupeKey : message.dedupeKey.slice(0, at);
}

/**
 * Sends an invoice's document again, byte for byte (same invoiceID and payloadID, so the buyer's system
 * knows it); see `resendDocument`.
 */
export async function resendInvoice(ctx: GatewayContext, invoice: Invoice): Promise<OutboxMessage> {
  const deliveries = await invoiceDeliveries(ctx, invoice);
  if (deliveries.length === 0) {
    throw new GatewayError(
      'conflict',
      `Invoice ${invoice.invoiceId} has no document queued yet; the next look at print order ${invoice.printOrderId} queues it.`,
    );
  }
  return resendDocument(ctx, deliveries, invoice.dedupeKey, `Invoice ${invoice.invoiceId}`);
}

/**
 * A document the buyer's ControlKeys forbid is not sent again, by a resend or an operator's retry of a dead
 * letter (one queued before the instructions were read, by an older punchgate, is the case): an invoice by
 * its print order's lines, a confirmation by the order's, a ship notice by the lines it names.
 */
export async function refuseWithheldDocument(
  ctx: GatewayContext,
  message: OutboxMessage,
  key: string,
  what: string,
): Promise<void> {
  const po = await ctx.store.orders.get(message.poId);
  if (po === undefined) return;
  const request = storedRequest(po);
  let why: string | undefined;
  if (message.kind === 'invoice') {
    const invoice = (await ctx.store.invoices.listByPo(po.id)).find((i) => i.dedupeKey === key);
    why =
      invoice === undefined
        ? withheldBecause(instructionsInForce(request), 'invoice')
        : invoiceWithheld(po, invoice.printOrderId);
  } else if (message.kind === 'confirmation') {
    why = withheldBecause(instructionsInForce(request), 'confirmation');
  } else if (message.kind === 'ship_notice') {
    why = withheldBecause(
      instructionsInForce(request, readShipNoticeLineNumbers(message.body)),
      'ship_notice',
    );
  }
  if (why !== undefined) throw new GatewayError('conflict', `${what} is not sent again: ${why}.`);
}

/**
 * Sends a document to the buyer again, byte for byte (the same body, so the same payloadID the buyer's
 * system knows) but for our SharedSecret, which the post puts in as configured then: a dead-lettered copy
 * is put back in the queue, a delivered one is queued once more as a message of its own (its delivery kept
 * beside the first). Refused while a copy is still on its way, so an impatient operator cannot have it
 * sent twice at once.
 *
 * @param deliveries every message carrying the document (`documentDeliveries`), oldest first, at least one
 * @param key the document's dedupe key; @param what names it in a refusal ("Invoice INV-1")
 */
export async function resendDocument(
  ctx: GatewayContext,
  deliveries: readonly OutboxMessage[],
  key: string,
  what: string,
): Promise<OutboxMessage> {
  const [first] = deliveries;
  if (first === undefined) throw new GatewayError('conflict', `${what} has no document queued yet.`);
  await refuseWithheldDocument(ctx, first, key, what);
  const moving = deliveries.find((m) => m.state === 'pending' || m.state === 'sending');
  if (moving !== undefined) {
    throw new GatewayError(
      'conflict',
      `${what} is still being delivered (outbox message ${moving.id} is ${moving.state}).`,
    );
  }
  const dead = deliveries.find((m) => m.state === 'dead');
  const revived = dead === undefined ? undefined : await ctx.store.outbox.resurrect(dead.id);
  if (revived !== undefined) return revived;
  const { message } = await ctx.store.outbox.enqueue({
    buyerId: first.buyerId,
    poId: first.poId,
    kind: first.kind,
    dedupeKey: `${key}${RESEND}${deliveries.length}`,
    url: first.url,
    body: first.body,
  });
  return message;
}
