/**
 * The durable job behind every stored purchase order (`process_order`):
 *
 * - `new`: per design owner, log in as that user again, `pipo/order/create` with the designs and the PO
 *   number as external_id, `process`, and write the PO's quantities, prices, ship-to and comments into the
 *   print order's history (keeping its status); then queue the ConfirmationRequest `accept`.
 * - `update`: recorded, flagged for an operator, noted on the print orders, and the buyer is told with a
 *   ConfirmationRequest `detail` (not `reject`, which would void the accepted order in production).
 * - `delete`: the print orders get the storefront's cancel status and the order is marked cancelled.
 *
 * Every step is safe to run again after a crash: print order ids are recorded as soon as they exist, a
 * marker flag makes the next attempt after a cut-off create look for the order it may have made before
 * creating again (find-print-order.ts), and buyer documents are queued under dedupe keys. When the last
 * attempt fails, a `new` PO fails and the buyer gets a `reject` — unless a create may have gone through, which
 * an operator settles.
 */
import { isPrintApiError } from '../../print-api/index.ts';
import { StoreError } from '../../store/store-error.ts';
import type {
  Claim,
  CreateAttempt,
  Job,
  NewOrderIntake,
  NewOutboxMessage,
  NewTrackedPrintOrder,
  OrderCommit,
  OrderCommitResult,
  PurchaseOrder,
  PurchaseOrderPatch,
  TrackedPrintOrder,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import {
  type ConfirmationToQueue,
  confirmationMessage,
  confirmationReferenceOf,
  documentQueued,
  queueConfirmation,
} from '../documents/buyer-documents.ts';
import { GatewayError, upstreamError } from '../http/errors.ts';
import { openHolds, parkedForHolds } from '../invoices/invoice-holds.ts';
import { lookAgainAtInvoices } from '../invoices/invoicing.ts';
import { findProductBySku } from '../punchout/catalog.ts';
import { recordReorderItems } from '../reorders/reorder-items.ts';
import { deliveredPart, parkCancelAfterShip } from './cancel-after-ship.ts';
import { searchPrintOrder } from './find-print-order.ts';
import { changeComment, historyEntries, printOrderComment } from './history-comment.ts';
import {
  FLAG,
  findOriginalOrder,
  isDeviation,
  type OwnerGroup,
  ownerGroups,
  type PoDocument,
  poDocument,
  readPoDocument,
  type RejectedLine,
  storedRequest,
  withFlags,
} from './po-record.ts';
import { linesWithoutShipTo, missingShipToReason } from './ship-to.ts';

export const PROCESS_ORDER = 'process_order';

/** A PO's job key is this and its id. */
export const PROCESSING_KEY_PREFIX = 'po:';

function processingKey(poId: string): string {
  return `${PROCESSING_KEY_PREFIX}${poId}`;
}

/**
 * The job `queueProcessing` queues, for the intake's `orders.acceptWithLines`, which queues it in the
 * transaction that gives the PO its id: the same kind, key (`processingKey`), payload and attempts.
 */
export function processingJob(ctx: GatewayContext): NewOrderIntake['job'] {
  return {
    kind: PROCESS_ORDER,
    keyPrefix: PROCESSING_KEY_PREFIX,
    runAt: ctx.clock.now(),
    maxAttempts: ctx.config.orders.maxAttempts,
  };
}

/** Queues the PO's job unless one is pending, running or dead already. */
export async function queueProcessing(ctx: GatewayContext, order: Pick<PurchaseOrder, 'id'>): Promise<Job> {
  const { job } = await ctx.store.jobs.enqueue({
    kind: PROCESS_ORDER,
    key: processingKey(order.id),
    payload: { poId: order.id },
    runAt: ctx.clock.now(),
    maxAttempts: ctx.config.orders.maxAttempts,
  });
  return job;
}

/** Queues the PO's job again, bringing a dead one back (the operator's retry). */
export async function requeueProcessing(ctx: GatewayContext, order: PurchaseOrder): Promise<Job> {
  const job = await queueProcessing(ctx, order);
  if (job.state !== 'dead') return job;
  return (await ctx.store.jobs.resurrect(job.id)) ?? job;
}

async function loadOrder(ctx: GatewayContext, poId: string): Promise<PurchaseOrder> {
  const order = await ctx.store.orders.get(poId);
  if (order === undefined)
    throw new GatewayError('not_found', `Purchase order record ${poId} does not exist.`);
  return order;
}

/** Network failures that prove the request never reached the service. */
const NEVER_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_CONNECT/;

function causeCodes(error: unknown): string {
  const codes: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Object && depth < 6; depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string') codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return codes.join(' ');
}

/**
 * A print-service answer we cannot read, or none at all: the request may have been carried out. A reset or
 * closed connection can come after the service acted on the request; only a refused or unresolvable
 * connection proves it did not.
 */
function mayHaveHappened(error: unknown): boolean {
  if (!isPrintApiError(error)) return false;
  if (error.code === 'timeout' || error.code === 'invalid_response') return true;
  return error.code === 'unavailable' && error.status === undefined && !NEVER_SENT.test(causeCodes(error));
}

/** The states of a PO whose job has not finished with it: the ones a job acts on. */
const OPEN_STATES: readonly PurchaseOrder['state'][] = ['received', 'processing'];

/** Sets state (and more) only while the order is in one of `from`; false when it has moved on. */
async function moveOrder(
  ctx: GatewayContext,
  order: PurchaseOrder,
  patch: Parameters<GatewayContext['store']['orders']['patch']>[1],
  from: readonly PurchaseOrder['state'][],
): Promise<boolean> {
  try {
    return await ctx.store.orders.patch(order.id, patch, { ifState: from });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'conflict') return false;
    throw error;
  }
}

async function addFlags(ctx: GatewayContext, poId: string, flags: readonly string[]): Promise<void> {
  const current = await loadOrder(ctx, poId);
  const next = withFlags(current.flags, flags);
  if (next.length > current.flags.length) await ctx.store.orders.patch(poId, { flags: next });
}

/** Inconclusive searches for the print order of a cut-off create before an operator decides. */
export const MAX_INCONCLUSIVE_SEARCHES = 3;

/** The PO's create attempts with group `index`'s replaced by `attempt`, or dropped without one. */
function withCreateAttempt(
  attempts: readonly CreateAttempt[],
  index: number,
  attempt?: CreateAttempt,
): CreateAttempt[] {
  const others = attempts.filter((a) => a.index !== index);
  return attempt === undefined ? others : [...others, attempt];
}

/** A create attempt as stored: `after` absent, not undefined, when no order id was known. */
function createAttempt(index: number, after: number | undefined, searches: number): CreateAttempt {
  return { index, ...(after !== undefined && { after }), searches };
}

/** Tracks the print order of the group and drops the group's create attempt in one PO update. */
async function recordPrintOrder(
  ctx: GatewayContext,
  poId: string,
  storefront: ResolvedStorefront,
  printOrderId: number,
  index: number,
): Promise<void> {
  await ctx.store.printOrders.add({ storefrontId: storefront.id, printOrderId, poId });
  // Read again, not taken from the caller: the create (or search) before this took long enough for a
  // webhook, an update's job or an operator to change the PO, and the patch below rewrites the lists whole.
  const after = await loadOrder(ctx, poId);
  await ctx.store.orders.patch(poId, {
    printOrderIds: [...after.printOrderIds, printOrderId],
    createAttempts: withCreateAttempt(after.createAttempts, index),
  });
}

/**
 * An earlier create of the group's print order was cut off: look for the order it may have made. Answers
 * the adopted print order id, or the floor to create again above when the order is conclusively absent;
 * throws when the search is inconclusive (retry later, or an operator after the bound).
 */
async function settleCutOffCreate(
  ctx: GatewayContext,
  order: PurchaseOrder,
  group: OwnerGroup,
  buyer: ResolvedBuyer,
  storefront: ResolvedStorefront,
  attempt: CreateAttempt,
): Promise<{ adopted: number } | { absent: true; floor: number }> {
  const owner = await ctx.store.users.get(buyer.id, group.userRef);
  const outcome = await searchPrintOrder({
    api: ctx.printApiFor(storefront),
    externalId: order.orderId,
    customerId: owner?.pipoUserId,
    storefrontId: storefront.storefrontId,
    since: order.createdAt,
    after: attempt.after,
    async trackedElsewhere(printOrderId) {
      // Every group's order carries the PO number: another group's is not this one's. One tracked for this
      // PO but not yet in its list was adopted or created by an attempt cut off right after tracking it.
      if (order.printOrderIds.includes(printOrderId)) return true;
      const tracked = await ctx.store.printOrders.get(storefront.id, printOrderId);
      return tracked !== undefined && tracked.poId !== order.id;
    },
  });
  const subject = `the print order for PO ${order.orderId} (designs of ${group.userRef})`;
  switch (outcome.kind) {
    case 'found': {
      const printOrderId = outcome.order.id;
      await recordPrintOrder(ctx, order.id, storefront, printOrderId, group.index);
      ctx.logger.info('print order of a cut-off create found and adopted', {
        po: order.id,
        printOrder: printOrderId,
        owner: group.userRef,
      });
      return { adopted: printOrderId };
    }
    case 'absent':
      ctx.logger.info('print order of a cut-off create not made; creating it again', {
        po: order.id,
        owner: group.userRef,
        searched: `${outcome.after + 1}-${outcome.through}`,
      });
      return { absent: true, floor: outcome.after };
    case 'inconclusive': {
      const searches = attempt.searches + 1;
      const ruledOut =
        outcome.after === undefined ? 'no id is ruled out' : `every id up to ${outcome.after} is ruled out`;
      if (searches >= MAX_INCONCLUSIVE_SEARCHES) {
        throw new GatewayError(
          'needs_operator',
          `An earlier attempt to create ${subject} was cut off, and ${searches} searches for it stayed ` +
            `inconclusive (last one: ${outcome.searched} searched, ${outcome.reason}; ${ruledOut}): look for ` +
            `an order with external id ${order.orderId} before retrying.`,
        );
      }
      const current = await loadOrder(ctx, order.id);
      const searched = createAttempt(group.index, outcome.after, searches);
      await ctx.store.orders.patch(order.id, {
        createAttempts: withCreateAttempt(current.createAttempts, group.index, searched),
      });
      throw new GatewayError(
        'upstream_unavailable',
        `The search for ${subject}, whose create was cut off, was inconclusive (${outcome.searched} searched, ` +
          `${outcome.reason}); it goes on later.`,
      );
    }
  }
}

/**
 * The floor a search for a cut-off create of the storefront's print order starts above: any print order of
 * the storefront that exists now bounds it from below (one created later gets a higher id); the highest
 * tracked, open or closed, leaves the fewest ids to read, also for a quiet storefront whose print orders
 * have all shipped long ago.
 */
async function createFloor(
  ctx: GatewayContext,
  storefront: ResolvedStorefront,
  searchedUpTo: number | undefined,
): Promise<number | undefined> {
  const known = await ctx.store.printOrders.highestId(storefront.id);
  return known === undefined ? searchedUpTo : Math.max(known, searchedUpTo ?? known);
}

/** A print order the job has made (or adopted) for a group, and whether it is tracked and listed already. */
interface MadePrintOrder {
  printOrderId: number;
  /** Adopted after a cut-off create: tracked and in the PO's list already. */
  recorded: boolean;
}

/**
 * Creates the group's print order. `order` is the record as the job holds it (its create attempts are the
 * ones rewritten below); `marked` says the job has written the group's create marker already, together with
 * an earlier write, so a marker in the record is this run's and not one left by a create that was cut off.
 * The created print order is the caller's to record, together with what follows.
 */
async function createPrintOrder(
  ctx: GatewayContext,
  order: PurchaseOrder,
  group: OwnerGroup,
  buyer: ResolvedBuyer,
  storefront: ResolvedStorefront,
  marked: boolean,
): Promise<MadePrintOrder> {
  if (!marked) {
    const cutOff = order.createAttempts.find((a) => a.index === group.index);
    let searchedUpTo: number | undefined;
    if (cutOff !== undefined) {
      const settled = await settleCutOffCreate(ctx, order, group, buyer, storefront, cutOff);
      if ('adopted' in settled) return { printOrderId: settled.adopted, recorded: true };
      searchedUpTo = settled.floor;
    }
    // The attempt stays only if the outcome of the create is unknown; the floor is where a search starts.
    const attempt = createAttempt(group.index, await createFloor(ctx, storefront, searchedUpTo), 0);
    // After a search (upstream calls) the PO may have changed meanwhile: read it again.
    const current = cutOff === undefined ? order : await loadOrder(ctx, order.id);
    await ctx.store.orders.patch(order.id, {
      createAttempts: withCreateAttempt(current.createAttempts, group.index, attempt),
    });
  }
  let printOrderId: number;
  try {
    printOrderId = await ctx.accounts.withToken(buyer, storefront, group.userRef, (token) =>
      ctx.printApiFor(storefront).pipo.createOrder(
        token,
        group.lines.map((line) => line.designId),
        order.orderId,
      ),
    );
  } catch (error) {
    if (!mayHaveHappened(error)) {
      const latest = await loadOrder(ctx, order.id);
      await ctx.store.orders.patch(order.id, {
        createAttempts: withCreateAttempt(latest.createAttempts, group.index),
      });
    }
    throw upstreamError(error, 'create the print order');
  }
  ctx.logger.info('print order created', { po: order.id, printOrder: printOrderId, owner: group.userRef });
  return { printOrderId, recorded: false };
}

/**
 * Writes a comment into a print order's history with the given status, as several entries when it is
 * longer than `orders.maxHistoryCommentLength` (the first entry sets the status, the rest keep it).
 */
async function writeHistory(
  ctx: GatewayContext,
  storefront: ResolvedStorefront,
  printOrderId: number,
  status: string,
  comment: string,
): Promise<void> {
  const api = ctx.printApiFor(storefront);
  for (const comments of historyEntries(comment, ctx.config.orders.maxHistoryCommentLength)) {
    await api.setStatus(printOrderId, { order_status: status, comments });
  }
}

/**
 * Starts the file merge and writes the PO into the print order's history, keeping its status (or setting
 * the storefront's newOrderStatus); answers that status, for the caller to record as the print order's last.
 */
async function annotatePrintOrder(
  ctx: GatewayContext,
  order: PurchaseOrder,
  document: PoDocument,
  group: OwnerGroup,
  buyer: ResolvedBuyer,
  storefront: ResolvedStorefront,
  id: number,
): Promise<string> {
  const api = ctx.printApiFor(storefront);
  try {
    await ctx.accounts.withToken(buyer, storefront, group.userRef, (token) =>
      api.pipo.processOrder(token, id),
    );
    const current = await api.getOrder(id);
    // A storefront may put new print orders into its review queue ("Awaiting PO review") with the note.
    const status = storefront.newOrderStatus ?? current.status;
    const names = {
      buyer: buyer.name === undefined ? buyer.id : `${buyer.name} (${buyer.id})`,
      product: (sku: string) => findProductBySku(storefront, sku)?.name,
      attachments: await ctx.store.attachments.list(order.id),
    };
    await writeHistory(ctx, storefront, id, status, printOrderComment(order, group, names, document));
    return status;
  } catch (error) {
    throw upstreamError(error, `prepare print order ${id}`);
  }
}

/** Whether some buyer orders on the storefront in production (its own `storefront`). */
function isProductionStorefront(ctx: GatewayContext, storefrontId: string): boolean {
  return ctx.config.buyers.some((buyer) => buyer.storefront === storefrontId);
}

/** Whether the storefront is some buyer's test storefront. */
function isTestStorefront(ctx: GatewayContext, storefrontId: string): boolean {
  return ctx.config.buyers.some((buyer) => buyer.test.storefront === storefrontId);
}

/**
 * Where the PO's print orders may be created: `none` for a test PO without a test storefront. A test PO's
 * storefront is the one recorded with it at intake, never worked out again from the buyer's settings, so
 * no failure, retry or config change can send it to a production storefront: when that storefront is gone
 * or has become a production one, or a line is designed elsewhere, the PO is held for an operator instead.
 * A production PO is likewise never placed on a test storefront.
 */
function printTargetOf(
  ctx: GatewayContext,
  order: PurchaseOrder,
  groups: readonly OwnerGroup[],
): { kind: 'none' } | { kind: 'storefronts' } | { kind: 'held'; reason: string } {
  const refuse = (why: string) => ({
    kind: 'held' as const,
    reason:
      `${order.deploymentMode === 'test' ? 'Test' : 'Production'} ` +
      `purchase order ${order.orderId} is not sent to a print service: ${why}`,
  });
  if (order.deploymentMode === 'production') {
    const test = groups.find((group) => isTestStorefront(ctx, group.storefrontId));
    if (test !== undefined)
      return refuse(`its lines are designed on test storefront "${test.storefrontId}".`);
    return { kind: 'storefronts' };
  }
  const recorded = order.storefrontId;
  if (recorded === undefined) return { kind: 'none' };
  if (!ctx.config.storefronts.some((storefront) => storefront.id === recorded)) {
    return refuse(
      `its test storefront "${recorded}" is no longer configured, and a test order goes nowhere else.`,
    );
  }
  if (isProductionStorefront(ctx, recorded)) {
    return refuse(`its test storefront "${recorded}" is now a buyer's production storefront.`);
  }
  const elsewhere = groups.find((group) => group.storefrontId !== recorded);
  if (elsewhere !== undefined) {
    return refuse(
      `lines are designed on storefront "${elsewhere.storefrontId}", not its test storefront "${recorded}".`,
    );
  }
  return { kind: 'storefronts' };
}

/**
 * A test PO of a buyer without a test storefront: confirmed as the buyer's settings say, and never sent to
 * a print service (no call at all).
 */
async function confirmTestOrderNotSent(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  order: PurchaseOrder,
): Promise<void> {
  await queueConfirmation(ctx, buyer, {
    type: 'accept',
    answers: order,
    queueOf: order,
    dedupeKey: `confirm:${order.id}:accept`,
    reference: `PG-${order.id}`,
    comments:
      'Test order received and accepted. It is not produced: test orders are never sent to the print service.',
    deviations: confirmedDeviations(buyer, order),
  });
  await moveOrder(ctx, order, { state: 'ordered', flags: withFlags(order.flags, [FLAG.testNotSent]) }, [
    'processing',
  ]);
  ctx.logger.info('test purchase order confirmed, not sent to a print service', {
    po: order.id,
    mode: order.deploymentMode,
  });
}

/**
 * A new PO flagged `ship_to_missing` whose buyer holds such orders (`missingShipTo: hold`) waits for an
 * operator before anything is created, unless an operator released it (a retry) or gave it a print order.
 */
async function heldForShipTo(
  ctx: GatewayContext,
  order: PurchaseOrder,
  buyer: ResolvedBuyer,
): Promise<boolean> {
  const held =
    buyer.missingShipTo === 'hold' &&
    order.flags.includes(FLAG.shipToMissing) &&
    !order.flags.includes(FLAG.shipToReleased) &&
    order.printOrderIds.length === 0;
  if (!held) return false;
  const document = await readPoDocument(order);
  const lastError = missingShipToReason(linesWithoutShipTo(document.request, document.lines));
  await moveOrder(ctx, order, { state: 'needs_operator', lastError }, OPEN_STATES);
  ctx.logger.info('purchase order held: no usable ship-to address', { po: order.id });
  return true;
}

/**
 * A new PO's job, in three writes on its common path (one print order, no earlier attempt): the move to
 * `processing` with the create marker, and after the print service's calls one `orders.commit` with the
 * print order tracked and listed, the confirmation queued, the PO `ordered` and the job completed (the
 * claim is the worker's first). A crash in between leaves the marker, so the next attempt looks for the
 * print order before creating; a failure after the create records the print order before it is reported.
 * Answers whether the job's completion was written with its outcome.
 */
async function placePrintOrders(ctx: GatewayContext, received: PurchaseOrder, job?: Claim): Promise<boolean> {
  const buyer = ctx.buyer(received.buyerId);
  if (await heldForShipTo(ctx, received, buyer)) return false;
  if (!OPEN_STATES.includes(received.state)) return false;
  // Parsed once for the whole job (for a big PO the parse is the job's largest cost of its own): no patch
  // touches a PO's document, so the one read here holds for every later read of the record.
  const document = await readPoDocument(received);
  const groups = ownerGroups(document.lines);
  const target = printTargetOf(ctx, received, groups);
  if (target.kind !== 'storefronts') {
    if (await moveOrder(ctx, received, { state: 'processing' }, OPEN_STATES)) {
      await holdOrConfirmUnsent(ctx, buyer, received, target);
    }
    return false;
  }
  // While the PO is `processing` under this job's claim, its print order ids and create attempts are the
  // job's alone (an operator attaches or retries only a PO that waits for one): the job keeps them here
  // and writes them whole, without reading the record again.
  const placing = { ...received, state: 'processing' as const };
  const firstCreate = groups.find((group) => received.printOrderIds[group.index] === undefined);
  const marked = new Set<number>();
  const processing: PurchaseOrderPatch = { state: 'processing' };
  if (firstCreate !== undefined && !received.createAttempts.some((a) => a.index === firstCreate.index)) {
    const storefront = ctx.storefront(firstCreate.storefrontId);
    const marker = createAttempt(firstCreate.index, await createFloor(ctx, storefront, undefined), 0);
    placing.createAttempts = withCreateAttempt(received.createAttempts, firstCreate.index, marker);
    processing.createAttempts = placing.createAttempts;
    marked.add(firstCreate.index);
  }
  if (!(await moveOrder(ctx, received, processing, OPEN_STATES))) return false;
  const made: MadePrintOrderRecord[] = [];
  /** Print orders tracked before the last write, and whether they are confirmed already. */
  const tracked: (NewTrackedPrintOrder & { confirmed?: boolean })[] = [];
  for (const group of groups) {
    const storefront = ctx.storefront(group.storefrontId);
    const known = placing.printOrderIds[group.index];
    if (known !== undefined) {
      tracked.push(await placedBefore(ctx, placing, document, group, buyer, storefront, known));
      continue;
    }
    if (made.length > 0) {
      // The print orders made so far are recorded with this group's create marker, in one write (a
      // marker left by a cut-off create is settled by createPrintOrder instead).
      const cutOff = placing.createAttempts.some((a) => a.index === group.index);
      const marker = cutOff
        ? undefined
        : createAttempt(group.index, await createFloor(ctx, storefront, undefined), 0);
      const recorded = made.splice(0);
      await recordMade(ctx, placing, recorded, { ...(marker !== undefined && { marker }) });
      // Tracked now, confirmed with the rest at the end.
      for (const m of recorded) {
        tracked.push({ storefrontId: m.storefrontId, printOrderId: m.printOrderId, poId: placing.id });
      }
      if (marker !== undefined) marked.add(group.index);
    }
    const { printOrderId, recorded } = await createPrintOrder(
      ctx,
      placing,
      group,
      buyer,
      storefront,
      marked.has(group.index),
    );
    if (!marked.has(group.index)) {
      // createPrintOrder wrote the marker from a fresh read: recording the print order drops it.
      placing.createAttempts = withCreateAttempt(
        placing.createAttempts,
        group.index,
        createAttempt(group.index, undefined, 0),
      );
    }
    if (recorded) {
      placing.printOrderIds = [...placing.printOrderIds, printOrderId];
      placing.createAttempts = withCreateAttempt(placing.createAttempts, group.index);
      tracked.push(await placedBefore(ctx, placing, document, group, buyer, storefront, printOrderId));
      continue;
    }
    let lastStatus: string;
    try {
      lastStatus = await annotatePrintOrder(ctx, placing, document, group, buyer, storefront, printOrderId);
    } catch (error) {
      // The print order exists: a retry annotates it, a give-up confirms it, neither creates it again.
      await recordMade(ctx, placing, [
        ...made,
        { storefrontId: storefront.id, printOrderId, index: group.index },
      ]);
      throw error;
    }
    made.push({ storefrontId: storefront.id, printOrderId, index: group.index, lastStatus });
  }
  // The PO's list as the job holds it (recorded before, or on the way here), then those made since.
  const printOrderIds = [...placing.printOrderIds, ...made.map((m) => m.printOrderId)];
  const confirmation = await confirmationMessage(
    ctx,
    buyer,
    placedConfirmation(buyer, received, printOrderIds),
  );
  // Placed again by a retry, a PO whose invoice is held keeps waiting for the operator who must settle it.
  const held = await openHolds(ctx, received.id);
  const placed =
    held.length > 0 ? parkedForHolds(await loadOrder(ctx, received.id), held) : { state: 'ordered' as const };
  const { completed, queued } = await recordMade(ctx, placing, made, {
    patches: [{ id: placing.id, patch: placed, ifState: ['processing'] }],
    confirmed: tracked.filter((t) => !t.confirmed),
    messages: confirmation === undefined ? [] : [confirmation],
    ...(job !== undefined && { completes: job }),
  });
  if (confirmation !== undefined && queued[0] === true) documentQueued(ctx, confirmation);
  // After the job's commit, so the print orders are never held back by it; a failure loses only the items.
  await recordReorderItems(ctx, buyer, received, document);
  ctx.logger.info('purchase order placed', {
    po: received.id,
    mode: received.deploymentMode,
    printOrders: printOrderIds.join(','),
  });
  return completed;
}

/** A print order the job made this run and has not recorded yet, with the status its history note set. */
interface MadePrintOrderRecord {
  storefrontId: string;
  printOrderId: number;
  /** The group it was made for: its place in the PO's print order ids. */
  index: number;
  lastStatus?: string;
}

/** What `recordMade` writes besides the print orders made. */
interface AlsoWritten {
  /** A create marker added to the PO's list (the next group's, before its create). */
  marker?: CreateAttempt;
  /** Further patches of the PO, after its lists. */
  patches?: OrderCommit['patches'];
  /** Print orders tracked before, marked confirmed (with `messages`, the print orders made are too). */
  confirmed?: readonly NewTrackedPrintOrder[];
  /** The documents the step queues: the confirmation of the print orders. */
  messages?: NewOutboxMessage[];
  completes?: Claim;
}

/**
 * Records print orders the job made in one `orders.commit`: tracked (with the status their note set),
 * added to the PO's list with their create markers dropped, together with what else `also` says.
 * `placing` is updated to what was written.
 */
async function recordMade(
  ctx: GatewayContext,
  placing: PurchaseOrder,
  made: readonly MadePrintOrderRecord[],
  also: AlsoWritten = {},
): Promise<OrderCommitResult> {
  const confirming = also.messages !== undefined;
  let { printOrderIds, createAttempts } = placing;
  for (const m of made) {
    printOrderIds = [...printOrderIds, m.printOrderId];
    createAttempts = withCreateAttempt(createAttempts, m.index);
  }
  if (also.marker !== undefined) {
    createAttempts = withCreateAttempt(createAttempts, also.marker.index, also.marker);
  }
  const listsChanged = made.length > 0 || also.marker !== undefined;
  const result = await ctx.store.orders.commit({
    printOrders: [
      ...made.map((m) => ({
        storefrontId: m.storefrontId,
        printOrderId: m.printOrderId,
        poId: placing.id,
        set: {
          ...(m.lastStatus !== undefined && { lastStatus: m.lastStatus, lastCheckedAt: ctx.clock.now() }),
          ...(confirming && { confirmed: true }),
        },
      })),
      ...(also.confirmed ?? []).map((t) => ({
        storefrontId: t.storefrontId,
        printOrderId: t.printOrderId,
        poId: t.poId,
        set: { confirmed: true },
      })),
    ],
    patches: [
      ...(listsChanged ? [{ id: placing.id, patch: { printOrderIds, createAttempts } }] : []),
      ...(also.patches ?? []),
    ],
    ...(also.messages !== undefined && { messages: also.messages }),
    ...(also.completes !== undefined && { completes: also.completes }),
  });
  placing.printOrderIds = printOrderIds;
  placing.createAttempts = createAttempts;
  return result;
}

/**
 * A print order an earlier attempt (or an operator, or a search after a cut-off create) recorded: tracked
 * if it is not yet, and annotated unless it was already.
 */
async function placedBefore(
  ctx: GatewayContext,
  order: PurchaseOrder,
  document: PoDocument,
  group: OwnerGroup,
  buyer: ResolvedBuyer,
  storefront: ResolvedStorefront,
  printOrderId: number,
): Promise<TrackedPrintOrder> {
  let record = await ctx.store.printOrders.get(storefront.id, printOrderId);
  record ??= (await ctx.store.printOrders.add({ storefrontId: storefront.id, printOrderId, poId: order.id }))
    .printOrder;
  if (record.lastStatus !== undefined) return record;
  const lastStatus = await annotatePrintOrder(ctx, order, document, group, buyer, storefront, printOrderId);
  const lastCheckedAt = ctx.clock.now();
  await ctx.store.printOrders.update(storefront.id, printOrderId, { lastStatus, lastCheckedAt });
  return { ...record, lastStatus, lastCheckedAt };
}

/** A PO whose print target is no print service (a test PO without a test storefront) or one held for it. */
async function holdOrConfirmUnsent(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  order: PurchaseOrder,
  target: { kind: 'none' } | { kind: 'held'; reason: string },
): Promise<void> {
  if (target.kind === 'none') {
    await confirmTestOrderNotSent(ctx, buyer, order);
    return;
  }
  // Not the job's to retry: nothing changes until the config does, and an operator's retry runs it again.
  const held = {
    state: 'needs_operator',
    lastError: target.reason,
    flags: withFlags(order.flags, [FLAG.storefrontNotAllowed]),
  } as const;
  await moveOrder(ctx, order, held, ['processing']);
  ctx.logger.warn('purchase order held: no storefront it may go to', {
    po: order.id,
    mode: order.deploymentMode,
    reason: target.reason,
  });
}

/** `poDeviations: confirm` (the default): the PO's own quantities and prices are what is confirmed. */
function confirmedDeviations(buyer: ResolvedBuyer, order: PurchaseOrder) {
  return buyer.poDeviations === 'confirm' ? poDocument(order).mismatches.filter(isDeviation) : [];
}

/** The buyer told the PO is accepted as the print orders `ids`, once (the dedupe key is the PO's). */
function placedConfirmation(
  buyer: ResolvedBuyer,
  order: PurchaseOrder,
  ids: readonly number[],
): ConfirmationToQueue {
  const deviations = confirmedDeviations(buyer, order);
  const rejectedLines = poDocument(order).rejectedLines ?? [];
  const deviatingLines = [...new Set(deviations.map((m) => m.lineNumber))];
  const restated =
    deviatingLines.length === 0
      ? ''
      : ` The quantities or prices of line${deviatingLines.length === 1 ? '' : 's'} ` +
        `${deviatingLines.join(', ')} differ from the cart; they are confirmed as this order states them.`;
  return {
    type: 'accept',
    answers: order,
    queueOf: order,
    dedupeKey: `confirm:${order.id}:accept`,
    reference: ids.join(','),
    comments:
      `Accepted as print order${ids.length === 1 ? '' : 's'} ${ids.join(', ')}.${restated}` +
      rejectedText(rejectedLines),
    deviations,
    rejectedLines,
  };
}

/**
 * Tells the buyer the PO is accepted as the print orders that exist, once (the dedupe key is the PO's),
 * and marks them confirmed.
 */
async function confirmPlaced(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  order: PurchaseOrder,
  tracked: readonly TrackedPrintOrder[],
): Promise<void> {
  const ids = tracked.map((t) => t.printOrderId);
  await queueConfirmation(ctx, buyer, placedConfirmation(buyer, order, ids));
  for (const t of tracked) {
    if (!t.confirmed) await ctx.store.printOrders.update(t.storefrontId, t.printOrderId, { confirmed: true });
  }
}

/** The header's word on lines left out: each line's own `reject` status carries its reason. */
function rejectedText(rejectedLines: readonly RejectedLine[]): string {
  if (rejectedLines.length === 0) return '';
  const numbers = rejectedLines.map((line) => line.lineNumber).join(', ');
  return rejectedLines.length === 1
    ? ` Line ${numbers} is rejected: it cannot be produced.`
    : ` Lines ${numbers} are rejected: they cannot be produced.`;
}

async function recordUpdate(ctx: GatewayContext, update: PurchaseOrder): Promise<void> {
  if (!OPEN_STATES.includes(update.state)) return;
  const buyer = ctx.buyer(update.buyerId);
  const request = storedRequest(update);
  const original = await findOriginalOrder(ctx.store, update);
  if (original !== undefined) {
    await addFlags(ctx, original.id, [FLAG.changedByBuyer]);
    for (const printOrder of await ctx.store.printOrders.listByPo(original.id)) {
      const storefront = ctx.storefront(printOrder.storefrontId);
      try {
        const current = await ctx.printApiFor(storefront).getOrder(printOrder.printOrderId);
        await writeHistory(ctx, storefront, printOrder.printOrderId, current.status, changeComment(update));
      } catch (error) {
        throw upstreamError(error, `note the change on print order ${printOrder.printOrderId}`);
      }
    }
  }
  const version = request.orderVersion === undefined ? '' : ` (orderVersion ${request.orderVersion})`;
  await queueConfirmation(ctx, buyer, {
    type: 'detail',
    answers: update,
    queueOf: original ?? update,
    dedupeKey: `confirm:${update.id}:change`,
    reference: await confirmationReferenceOf(ctx, original ?? update),
    lineStatus: 'unknown',
    comments:
      `The change to order ${update.orderId}${version} was received. It is not applied automatically: ` +
      'the supplier reviews it and confirms separately; until then the order is produced as first confirmed.',
    // The change waits for an operator (below) whether or not the buyer allows this notice.
    quietIfWithheld: true,
  });
  await ctx.store.orders.patch(update.id, {
    state: 'needs_operator',
    flags: withFlags(update.flags, [
      FLAG.updateNeedsOperator,
      ...(original === undefined ? [FLAG.unknownOrder] : []),
    ]),
  });
  ctx.logger.info('purchase order change recorded', { po: update.id, original: original?.id });
}

export async function cancelPrintOrder(
  ctx: GatewayContext,
  printOrder: TrackedPrintOrder,
  cancellation: PurchaseOrder,
  cancelStatus: string,
): Promise<void> {
  if (printOrder.state === 'closed' && printOrder.lastStatus === cancelStatus) return;
  try {
    await ctx.printApiFor(ctx.storefront(printOrder.storefrontId)).setStatus(printOrder.printOrderId, {
      order_status: cancelStatus,
      comments:
        `Cancelled by the buyer: OrderRequest type delete for purchase order ${cancellation.orderId} ` +
        `(cXML payloadID ${cancellation.payloadId}).`,
    });
  } catch (error) {
    throw upstreamError(error, `cancel print order ${printOrder.printOrderId}`);
  }
  await ctx.store.printOrders.update(printOrder.storefrontId, printOrder.printOrderId, {
    state: 'closed',
    lastStatus: cancelStatus,
  });
}

async function cancelOrder(ctx: GatewayContext, cancellation: PurchaseOrder): Promise<void> {
  if (!OPEN_STATES.includes(cancellation.state)) return;
  const original = await findOriginalOrder(ctx.store, cancellation);
  if (original === undefined) {
    await ctx.store.orders.patch(cancellation.id, {
      state: 'cancelled',
      flags: withFlags(cancellation.flags, [FLAG.unknownOrder]),
    });
    return;
  }
  if (original.state === 'processing') {
    // The print order may be being created right now; cancel it once it exists.
    throw new GatewayError('conflict', `Purchase order ${original.orderId} is still being placed.`);
  }
  const printOrders = await ctx.store.printOrders.listByPo(original.id);
  // Shipped or invoiced, the cancellation is an operator's to decide; parked already, it waits.
  if (original.flags.includes(FLAG.cancelAfterShip)) return;
  const delivered =
    original.state === 'cancelled' ? undefined : await deliveredPart(ctx, original, printOrders);
  if (delivered !== undefined) {
    await parkCancelAfterShip(ctx, ctx.buyer(cancellation.buyerId), cancellation, original, delivered);
    return;
  }
  const uncancellable = printOrders.filter((p) => ctx.storefront(p.storefrontId).cancelStatus === undefined);
  for (const printOrder of printOrders) {
    const cancelStatus = ctx.storefront(printOrder.storefrontId).cancelStatus;
    if (cancelStatus !== undefined) await cancelPrintOrder(ctx, printOrder, cancellation, cancelStatus);
  }
  if (uncancellable.length > 0) {
    const ids = uncancellable.map((p) => p.printOrderId).join(', ');
    await ctx.store.orders.patch(cancellation.id, {
      state: 'needs_operator',
      lastError: `No cancel status is configured for the storefront of print order ${ids}; cancel it by hand.`,
      flags: withFlags(cancellation.flags, [FLAG.noCancelStatus]),
    });
    return;
  }
  // Only from the state read above: an order its job has just started placing is cancelled on a later try.
  if (
    original.state !== 'cancelled' &&
    !(await moveOrder(ctx, original, { state: 'cancelled' }, [original.state]))
  ) {
    throw new GatewayError(
      'conflict',
      `Purchase order ${original.orderId} changed while it was being cancelled.`,
    );
  }
  await ctx.store.orders.patch(cancellation.id, { state: 'cancelled' });
  ctx.logger.info('purchase order cancelled', { po: original.id, cancellation: cancellation.id });
}

/** Runs the job of one stored purchase order. */
/**
 * Runs the job of one stored purchase order; `job` is the claim the job runs under, completed together with
 * the job's last write where it can be. Answers whether it was (else the worker completes the job).
 */
export async function processPurchaseOrder(ctx: GatewayContext, poId: string, job?: Claim): Promise<boolean> {
  const order = await loadOrder(ctx, poId);
  switch (order.type) {
    case 'new':
      return placePrintOrders(ctx, order, job);
    case 'update':
      await recordUpdate(ctx, order);
      return false;
    case 'delete':
      await cancelOrder(ctx, order);
      return false;
  }
}

async function rejectionKey(ctx: GatewayContext, order: PurchaseOrder): Promise<string> {
  const prefix = `confirm:${order.id}:reject:`;
  const { items } = await ctx.store.outbox.list({ poId: order.id, limit: 500 });
  return `${prefix}${items.filter((m) => m.dedupeKey.startsWith(prefix)).length + 1}`;
}

/**
 * The job has given up. A cut-off create goes to an operator; a `new` PO that could not be placed fails
 * and the buyer gets a ConfirmationRequest `reject` with the reason; an update or delete that could not be
 * carried out waits for an operator.
 */
export async function giveUpPurchaseOrder(ctx: GatewayContext, poId: string, error: unknown): Promise<void> {
  const order = await ctx.store.orders.get(poId);
  if (order === undefined) return;
  const message = error instanceof Error ? error.message : String(error);
  // A create cut off on the last attempt may have made the print order: rejecting the PO could leave the
  // buyer told "no" about an order in production.
  const uncertain = order.type === 'new' && order.createAttempts.length > 0;
  const reason =
    uncertain && !(error instanceof GatewayError && error.code === 'needs_operator')
      ? `${message} The print order may have been created by an attempt that was cut off: look for an order ` +
        `with external id ${order.orderId} before retrying.`
      : message;
  if (uncertain || (error instanceof GatewayError && error.code === 'needs_operator')) {
    await moveOrder(
      ctx,
      order,
      {
        state: 'needs_operator',
        lastError: reason,
        flags: withFlags(order.flags, [FLAG.uncertainPrintOrder]),
      },
      OPEN_STATES,
    );
    return;
  }
  if (order.type !== 'new') {
    await moveOrder(ctx, order, { state: 'needs_operator', lastError: reason }, OPEN_STATES);
    return;
  }
  // Once the print service has the order, "no" would be false: the buyer hears what exists and an
  // operator finishes the rest (a later step such as the history note failed, not the order).
  const placed = await ctx.store.printOrders.listByPo(order.id);
  if (placed.length > 0) {
    const patch = {
      state: 'needs_operator',
      lastError: reason,
      flags: withFlags(order.flags, [FLAG.placedIncomplete]),
    } as const;
    if (!(await moveOrder(ctx, order, patch, OPEN_STATES))) return;
    const owner = ctx.buyers.byId(order.buyerId);
    if (owner !== undefined) await confirmPlaced(ctx, owner, order, placed);
    ctx.logger.warn('purchase order placed but not completed', { po: order.id, reason });
    return;
  }
  if (!(await moveOrder(ctx, order, { state: 'failed', lastError: reason }, OPEN_STATES))) return;
  const buyer = ctx.buyers.byId(order.buyerId);
  if (buyer === undefined) return;
  await queueConfirmation(ctx, buyer, {
    type: 'reject',
    answers: order,
    queueOf: order,
    dedupeKey: await rejectionKey(ctx, order),
    reference: await confirmationReferenceOf(ctx, order),
    comments: `The supplier could not place this order: ${reason}`,
  });
  ctx.logger.warn('purchase order failed', { po: order.id, reason });
}

/**
 * An operator's retry: a failed PO, or one waiting for an operator, goes back to `received` (cut-off markers
 * cleared) and is queued again; a PO whose job died mid-way gets its job back. A change (`update`) is the
 * operator's to carry out, so it has nothing to retry.
 */
/** Every owner group of the PO has its print order: placing it again would create nothing. */
function placedInFull(order: PurchaseOrder): boolean {
  return order.printOrderIds.length >= ownerGroups(poDocument(order).lines).length;
}

export async function retryPurchaseOrder(ctx: GatewayContext, order: PurchaseOrder): Promise<PurchaseOrder> {
  const refuse = (why: string) =>
    new GatewayError('conflict', `Purchase order record ${order.id} ${why}, so there is nothing to retry.`);
  if (order.type === 'update') throw refuse('is a change an operator carries out');
  if (order.flags.includes(FLAG.uncertainPrintOrder)) {
    // Creating again could print the order twice: the operator settles what the cut-off create made.
    throw new GatewayError(
      'conflict',
      `Purchase order record ${order.id} is not retried: an earlier create of its print order may have gone ` +
        `through. Look for a print order with PO number ${order.orderId}; if there is one, attach it ` +
        `(POST /admin/orders/${order.id}/attach), otherwise place the order by hand and mark the PO handled ` +
        `(POST /admin/orders/${order.id}/handled).`,
    );
  }
  if (order.state === 'processing') {
    const job = await queueProcessing(ctx, order);
    if (job.state !== 'dead') throw refuse('is being processed');
    await ctx.store.jobs.resurrect(job.id);
    return order;
  }
  if (order.state !== 'failed' && order.state !== 'needs_operator') throw refuse(`is ${order.state}`);
  if (
    order.state === 'needs_operator' &&
    placedInFull(order) &&
    (await openHolds(ctx, order.id)).length > 0
  ) {
    // Nothing is left to place: what waits is its held invoices, looked at again now as the print orders
    // stand. Moved back to `received`, the PO would leave the operators' queue until the job parked it again.
    await lookAgainAtInvoices(ctx, order);
    return loadOrder(ctx, order.id);
  }
  const moved = await moveOrder(
    ctx,
    order,
    {
      state: 'received',
      // A retry is the operator's go-ahead: a held PO's unproducible lines are rejected to the buyer, and
      // one held for its ship-to address is placed as it is.
      flags: withFlags(
        order.flags.filter((f) => f !== FLAG.uncertainPrintOrder && f !== FLAG.unproducibleLines),
        order.flags.includes(FLAG.shipToMissing) ? [FLAG.shipToReleased] : [],
      ),
      createAttempts: [],
    },
    [order.state],
  );
  if (!moved) throw refuse('changed meanwhile');
  await requeueProcessing(ctx, order);
  return loadOrder(ctx, order.id);
}
