/**
 * The simulator's memory: requisitions by id, the purchase-order number sequence, and a short log of
 * every order-status document that reached it (matched or not). In memory on purpose: the simulator is
 * a demo and test tool, and its pages carry the requisition id in the URL, so no cookie or session is
 * needed. Changes go through `update`, which bumps the revision an open page polls for.
 */
import type { Requisition } from './requisition.ts';

/** An order-status document as received, with the cXML Status it was answered. */
export interface InboundDocument {
  readonly at: string;
  readonly title: string;
  readonly code: number;
  readonly text: string;
  readonly detail: string;
  readonly orderID?: string;
  readonly requisitionId?: string;
  readonly body: string;
}

export interface BuyerStore {
  get(id: string): Requisition | undefined;
  /** Adds a new requisition; throws if the id is taken. */
  create(requisition: Requisition): void;
  /** Applies `change` to the stored requisition and bumps its revision; undefined when there is none. */
  update(id: string, change: (requisition: Requisition) => Requisition): Requisition | undefined;
  /** Newest first. */
  list(): readonly Requisition[];
  findByOrderId(orderID: string): Requisition | undefined;
  /** The next purchase-order number. */
  nextOrderNumber(): number;
  recordInbound(document: InboundDocument): void;
  /** Newest first. */
  inbound(): readonly InboundDocument[];
}

export interface MemoryBuyerStoreOptions {
  /** The first purchase-order number; see README.md for the default. */
  readonly firstOrderNumber: number;
  /** Oldest requisitions are forgotten past this count. Default 500. */
  readonly maxRequisitions?: number;
  /** Inbound documents kept. Default 50. */
  readonly maxInbound?: number;
}

/**
 * @example
 * const store = createMemoryBuyerStore({ firstOrderNumber: 1001 });
 * store.nextOrderNumber(); // 1001
 */
export function createMemoryBuyerStore(options: MemoryBuyerStoreOptions): BuyerStore {
  if (!Number.isSafeInteger(options.firstOrderNumber) || options.firstOrderNumber < 1) {
    throw new TypeError(`firstOrderNumber must be a positive integer, got ${options.firstOrderNumber}`);
  }
  const maxRequisitions = options.maxRequisitions ?? 500;
  const maxInbound = options.maxInbound ?? 50;
  const requisitions = new Map<string, Requisition>();
  const inbound: InboundDocument[] = [];
  let nextOrder = options.firstOrderNumber;

  return {
    get: (id) => requisitions.get(id),
    create(requisition) {
      if (requisitions.has(requisition.id)) throw new Error(`requisition ${requisition.id} exists`);
      requisitions.set(requisition.id, requisition);
      // A Map iterates in insertion order, so the first key is the oldest requisition.
      while (requisitions.size > maxRequisitions) {
        const oldest = requisitions.keys().next().value;
        if (oldest === undefined) break;
        requisitions.delete(oldest);
      }
    },
    update(id, change) {
      const current = requisitions.get(id);
      if (current === undefined) return undefined;
      const next = { ...change(current), revision: current.revision + 1 };
      requisitions.set(id, next);
      return next;
    },
    list: () => [...requisitions.values()].reverse(),
    findByOrderId(orderID) {
      for (const requisition of requisitions.values()) {
        if (requisition.order?.orderID === orderID) return requisition;
      }
      return undefined;
    },
    nextOrderNumber: () => nextOrder++,
    recordInbound(document) {
      inbound.unshift(document);
      inbound.length = Math.min(inbound.length, maxInbound);
    },
    inbound: () => [...inbound],
  };
}
