/**
 * The store tests and benchmarks run on when the store itself is not what they test: SQLite in process
 * memory (`path: ':memory:'`), the same SQL store a gateway runs on, gone when closed. Each call is a
 * database of its own.
 */
import type { Clock } from '../../src/store/clock.ts';
import type { Store } from '../../src/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';

/**
 * An empty, migrated store in memory on `clock`.
 *
 * @example
 * ```ts
 * const store = createTestStore({ clock: createManualClock(T0) });
 * ```
 */
export function createTestStore(options: { clock: Clock }): Store {
  return createSqliteStore({ path: ':memory:', clock: options.clock });
}
