/**
 * Everything the simulator's flows and pages share: where the gateway and the simulator live, the
 * profiles and users, and the injected side effects (fetch, clock, ids, store, the demo's control hook).
 */
import type { BuyerStore } from './buyer-store.ts';
import type { DemoUser } from './demo-users.ts';
import type { BuyerProfile } from './profiles.ts';
import type { ExchangedDocument, Notice, NoticeLevel, Requisition } from './requisition.ts';

/** What the demo's control hook learns about the order it should advance. */
export interface AdvanceOrderContext {
  readonly orderID: string;
  readonly payloadID: string;
  readonly profileId: string;
  readonly gatewayBuyerId: string;
}

/**
 * Finishes the print order(s) behind a purchase order (merge files, ship with a tracking number) through
 * the print service's control API. `printOrderIds` are the ids the supplier named in its confirmations;
 * the control is offered only once there is at least one. A returned string is shown on the page.
 */
export type AdvanceOrder = (printOrderIds: readonly string[], order: AdvanceOrderContext) => Promise<unknown>;

export interface SimulatorContext {
  /** Without a trailing slash. */
  readonly gatewayUrl: string;
  /** Without a trailing slash. */
  readonly publicUrl: string;
  readonly profiles: readonly BuyerProfile[];
  readonly users: readonly DemoUser[];
  readonly fetch: typeof fetch;
  readonly clock: { now(): Date };
  readonly randomId: () => string;
  readonly store: BuyerStore;
  readonly advanceOrder?: AdvanceOrder;
}

export function findProfile(ctx: SimulatorContext, id: string): BuyerProfile | undefined {
  return ctx.profiles.find((profile) => profile.id === id);
}

export function findUser(ctx: SimulatorContext, id: string): DemoUser | undefined {
  return ctx.users.find((user) => user.id === id);
}

export function requisitionUrl(ctx: SimulatorContext, id: string): string {
  return `${ctx.publicUrl}/requisitions/${encodeURIComponent(id)}`;
}

/** The requisition with one more exchanged document. */
export function withDocument(
  requisition: Requisition,
  at: Date,
  document: Omit<ExchangedDocument, 'number' | 'at'>,
): Requisition {
  const number = requisition.documents.length + 1;
  return {
    ...requisition,
    documents: [...requisition.documents, { ...document, number, at: at.toISOString() }],
  };
}

/** The requisition with one more notice for the person at the page. */
export function withNotice(
  requisition: Requisition,
  at: Date,
  level: NoticeLevel,
  text: string,
): Requisition {
  const notice: Notice = { at: at.toISOString(), level, text };
  return { ...requisition, notices: [...requisition.notices, notice] };
}
