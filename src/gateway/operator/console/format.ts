/** Small text helpers the console pages share: times and ages an operator reads at a glance. */
import type { PurchaseOrder } from '../../../store/types.ts';

/** `2026-11-26 15:04:05 UTC`: one zone for every operator, whatever their laptop's setting. */
export function timeText(at: Date | undefined | null): string {
  if (at === undefined || at === null) return '—';
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `3 h 12 min`, `45 s`: how long ago, or how long something has waited. */
export function ageText(now: Date, since: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

/** The state names as an operator reads them. */
export const STATE_LABELS: Readonly<Record<string, string>> = {
  received: 'Received',
  processing: 'Processing',
  ordered: 'Ordered',
  failed: 'Failed',
  cancelled: 'Cancelled',
  needs_operator: 'Waiting for an operator',
};

/**
 * A PO's mode and where its print orders go, so a test PO is never taken for a production one: "test on
 * demo-test", "test, not sent to a print service", "production on demo".
 */
export function modeText(order: Pick<PurchaseOrder, 'deploymentMode' | 'storefrontId'>): string {
  if (order.storefrontId === undefined) {
    return order.deploymentMode === 'test' ? 'test, not sent to a print service' : order.deploymentMode;
  }
  return `${order.deploymentMode} on ${order.storefrontId}`;
}
