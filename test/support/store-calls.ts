/**
 * A store that counts the calls made through it, by `area.method`, and which of them write: the order
 * job's store traffic asserted per PO so that a step added to the hot path shows up as a failing count.
 */
import type { Store } from '../../src/store/port.ts';

/** Store methods that only read: every other method writes (one transaction each). */
const READS = new Set([
  'get',
  'getMany',
  'getByPayloadId',
  'getByOrderId',
  'getByInvoiceId',
  'findEarlier',
  'findByPayloadId',
  'list',
  'listIds',
  'listWaiting',
  'listReceived',
  'listBySession',
  'listByPo',
  'listByPrintOrder',
  'listDated',
  'listOpen',
  'listUnprocessed',
  'countBySession',
  'countByBuyerSince',
  'highestId',
  'last',
  'announcedAmong',
  'messagesSince',
  'stats',
  'ping',
]);

export interface StoreCalls {
  /** Every call, in order, as `area.method`. */
  readonly calls: string[];
  /** The calls that write. */
  writes(): string[];
  reads(): string[];
  reset(): void;
}

export function countingStore(store: Store): { store: Store; counted: StoreCalls } {
  const calls: string[] = [];
  const counted: StoreCalls = {
    calls,
    writes: () => calls.filter((call) => !READS.has(call.slice(call.indexOf('.') + 1))),
    reads: () => calls.filter((call) => READS.has(call.slice(call.indexOf('.') + 1))),
    reset: () => {
      calls.length = 0;
    },
  };
  const counting = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(object, name, receiver) {
        const value: unknown = Reflect.get(object, name, receiver);
        if (typeof name !== 'string') return value;
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            calls.push(`${prefix}${name}`);
            return Reflect.apply(value, object, args);
          };
        }
        return typeof value === 'object' && value !== null ? counting(value, `${name}.`) : value;
      },
    });
  return { store: counting(store, 'store.'), counted };
}
