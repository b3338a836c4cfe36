/**
 * Settling a print-order create whose outcome is unknown (a timeout, a reset after the request went out,
 * an answer we could not read, a crash mid-call): before creating again, look for the order the cut-off
 * call may have made.
 *
 * The interface gives no way to list orders, but order ids are integers the service hands out in
 * increasing order and `GET /order/{id}` answers 404 for ids it has not handed out (or that belong to
 * another license). So an order the call made has an id above every order that existed before the call,
 * and it carries the PO number we sent as `external_id` (the service keeps it as `integration_id` and
 * `po_number`). The search walks upward from an id known to exist before the call and stops
 *
 * - at a match (the order is adopted, nothing is created),
 * - after a run of consecutive 404s past the newest order seen: every id up to the end of the service's
 *   ids has been looked at, so the order is absent and may be created again,
 * - when the service errs or the probe budget of one round is spent: inconclusive, try again later.
 *
 * The floor is the highest print order id the gateway knew when it sent the create. A gateway that knew
 * none (its first print order on the storefront) takes the newest order created before the PO arrived.
 *
 * The `order_details` report is read first, as a lead only: the interface does not show its record
 * fields, so a record that does carry our PO number and an order id points at an order which is then read
 * and checked like any probe, and a record dated before the PO points at a floor which is read and its
 * `created_on` checked; a report without such records, or one that fails, proves nothing.
 *
 * What the search has ruled out is kept in the PO's create attempt (`PurchaseOrder.createAttempts`), so a
 * later round goes on from there and the number of inconclusive rounds is bounded across attempts and
 * restarts.
 */
import type { Order } from '../../../schemas/print-api.ts';
import { isPrintApiError, type PrintApi } from '../../print-api/index.ts';

interface SearchLimits {
  /** Consecutive 404s past the newest order seen that prove the service has no later order. */
  missRun: number;
  /** `GET /order/{id}` calls per round at most (a Worker round has few subrequests to spend). */
  probes: number;
  /** Order ids taken from the report per round at most. */
  hints: number;
}

const SEARCH_LIMITS: SearchLimits = { missRun: 10, probes: 25, hints: 3 };

export interface PrintOrderSearch {
  api: PrintApi;
  /** The `external_id` the create carried: the buyer's PO number. */
  externalId: string;
  /** The PIPO user whose login made the order, when known: another customer's order is never ours. */
  customerId: number | undefined;
  /** The print service's storefront id, for the report. */
  storefrontId: number;
  /** When the PO arrived: the create happened after it. */
  since: Date;
  /** From the create attempt: every id up to it is ruled out. */
  after: number | undefined;
  /**
   * Whether the print order is another's already: another PO's (a PO number can come twice) or another
   * group's of this PO (all carry its number).
   */
  trackedElsewhere(printOrderId: number): Promise<boolean>;
  limits?: SearchLimits;
}

export type SearchOutcome =
  | { kind: 'found'; order: Order }
  /** Ids after `after` up to `through` were looked at: nothing there is ours and the run of 404s ends the ids. */
  | { kind: 'absent'; after: number; through: number }
  /** `after` is how far the round got (for the next one); `searched` describes the ids looked at. */
  | { kind: 'inconclusive'; reason: string; after: number | undefined; searched: string };

const DAY_MS = 86_400_000;

/** The failure by its code and status, as upstream errors are told elsewhere (no service bodies). */
function describe(error: unknown): string {
  if (isPrintApiError(error)) return `${error.code}${error.status === undefined ? '' : ` ${error.status}`}`;
  return error instanceof Error ? error.message : String(error);
}

/** The order, or `missing` on 404; any other failure is thrown. */
async function probe(api: PrintApi, id: number): Promise<Order | 'missing'> {
  try {
    return await api.getOrder(id);
  } catch (error) {
    if (isPrintApiError(error) && error.code === 'not_found') return 'missing';
    throw error;
  }
}

type Inconclusive = Extract<SearchOutcome, { kind: 'inconclusive' }>;

/**
 * Reads order `id` for the search: the order or `missing`, or, when the service fails, the inconclusive
 * outcome that ends the round. `lead` says why the order was read (after "order {id}"), `after` and
 * `searched` how far the round got.
 */
async function probeInRound(
  api: PrintApi,
  id: number,
  unread: { lead: string; after: number | undefined; searched: string },
): Promise<{ kind: 'read'; answer: Order | 'missing' } | Inconclusive> {
  try {
    return { kind: 'read', answer: await probe(api, id) };
  } catch (error) {
    return {
      kind: 'inconclusive',
      reason: `order ${id}${unread.lead} could not be read (${describe(error)})`,
      after: unread.after,
      searched: unread.searched,
    };
  }
}

async function isOurs(search: PrintOrderSearch, order: Order): Promise<boolean> {
  if (order.integration_id !== search.externalId && order.po_number !== search.externalId) return false;
  if (search.customerId !== undefined && order.customer.id !== search.customerId) return false;
  return !(await search.trackedElsewhere(order.id));
}

/** Service and gateway clocks may disagree by this much: only an order older than this predates the PO. */
const CLOCK_SKEW_MS = 10 * 60_000;

interface ReportLeads {
  /** Order ids the report lists under our PO number, newest first. */
  hints: number[];
  /** The newest order the report dates from before the PO arrived, when no floor is known. */
  olderThanPo: number | undefined;
}

function recordOrderId(record: Record<string, unknown>): number | undefined {
  const id = record.order_id ?? record.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function predatesPo(search: PrintOrderSearch, createdOn: unknown): boolean {
  const at = typeof createdOn === 'string' ? Date.parse(createdOn) : Number.NaN;
  return Number.isFinite(at) && at < search.since.getTime() - CLOCK_SKEW_MS;
}

/**
 * What the report says, if its records carry order ids, PO numbers and dates; nothing when it cannot
 * tell. Without a floor the whole history is read, to find an order from before the PO.
 */
async function readReport(search: PrintOrderSearch, limit: number): Promise<ReportLeads> {
  const leads: ReportLeads = { hints: [], olderThanPo: undefined };
  const fromDate = new Date(search.since.getTime() - DAY_MS).toISOString().slice(0, 10);
  let records: Record<string, unknown>[];
  try {
    records = await search.api.report('order_details', {
      storefrontId: search.storefrontId,
      ...(search.after !== undefined && { fromDate }),
    });
  } catch {
    // Undocumented parameters or an outage: the probes decide.
    return leads;
  }
  const hints = new Set<number>();
  for (const record of records) {
    const id = recordOrderId(record);
    if (id === undefined) continue;
    if (record.po_number === search.externalId || record.integration_id === search.externalId) {
      if (search.after === undefined || id > search.after) hints.add(id);
    } else if (predatesPo(search, record.created_on) && id > (leads.olderThanPo ?? 0)) {
      leads.olderThanPo = id;
    }
  }
  leads.hints = [...hints].sort((a, b) => b - a).slice(0, limit);
  return leads;
}

function range(from: number, to: number): string {
  if (to < from) return 'no id';
  return from === to ? `id ${from}` : `ids ${from}–${to}`;
}

/**
 * One round of the search; never throws for the print service's failures (they make it inconclusive).
 *
 * @example
 * const outcome = await searchPrintOrder({ api, externalId: 'PO-4711', customerId: 77, storefrontId: 3,
 *   since: po.createdAt, after: 1041, trackedElsewhere: async () => false });
 * if (outcome.kind === 'found') adopt(outcome.order.id);
 */
export async function searchPrintOrder(search: PrintOrderSearch): Promise<SearchOutcome> {
  const limits = search.limits ?? SEARCH_LIMITS;
  const { api } = search;
  const leads = await readReport(search, limits.hints);
  for (const id of leads.hints) {
    const probed = await probeInRound(api, id, {
      lead: `, which the order_details report lists under ${search.externalId},`,
      after: search.after,
      searched: `id ${id} (from the report)`,
    });
    if (probed.kind === 'inconclusive') return probed;
    const { answer } = probed;
    if (answer !== 'missing' && (await isOurs(search, answer))) return { kind: 'found', order: answer };
  }
  let floor = search.after;
  if (floor === undefined && leads.olderThanPo !== undefined) {
    // The report's word is checked against the order itself before anything is ruled out below it.
    const id = leads.olderThanPo;
    const probed = await probeInRound(api, id, {
      lead: ', the newest the report dates from before the PO,',
      after: undefined,
      searched: 'no id',
    });
    if (probed.kind === 'inconclusive') return probed;
    const { answer } = probed;
    if (answer !== 'missing' && predatesPo(search, answer.created_on)) floor = id;
  }
  if (floor === undefined) {
    return {
      kind: 'inconclusive',
      reason: 'no order id of the storefront from before the create is known to search upward from',
      after: undefined,
      searched: 'no id',
    };
  }
  return probeUpward(search, limits, floor);
}

/** Walks the ids above `floor` (every id up to it ruled out) until a match, a run of 404s or the budget. */
async function probeUpward(
  search: PrintOrderSearch,
  limits: SearchLimits,
  floor: number,
): Promise<SearchOutcome> {
  const { api } = search;
  const first = floor + 1;
  let after = floor;
  let misses = 0;
  let id = first;
  for (let probes = 0; probes < limits.probes; probes++, id++) {
    const probed = await probeInRound(api, id, { lead: '', after, searched: range(first, id - 1) });
    if (probed.kind === 'inconclusive') return probed;
    const { answer } = probed;
    if (answer === 'missing') {
      misses++;
      if (misses >= limits.missRun) return { kind: 'absent', after: floor, through: id };
      continue;
    }
    if (await isOurs(search, answer)) return { kind: 'found', order: answer };
    misses = 0;
    after = id;
  }
  return {
    kind: 'inconclusive',
    reason: `${limits.probes} ids looked at without reaching the end of the service's orders`,
    after,
    searched: range(first, id - 1),
  };
}
