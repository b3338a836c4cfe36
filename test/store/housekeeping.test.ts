/**
 * `purgeExpired`'s own rules; what each purge deletes is pinned per adapter by the Store contract suite.
 */
import { describe, expect, it } from 'vitest';
import { HOUSEKEEPING_ROWS_PER_KIND, purgeExpired } from '../../src/store/housekeeping.ts';
import { createTestStore } from '../support/test-store.ts';
import { createManualClock } from './manual-clock.ts';
import { at, TEST_RETENTION as retention, T0 } from './store-suite.ts';

describe('purgeExpired', () => {
  it('answers zero counts on an empty store', async () => {
    const store = createTestStore({ clock: createManualClock(T0) });
    expect(await purgeExpired(store, T0, retention)).toStrictEqual({
      expiredSessions: 0,
      staleCartLines: 0,
      finishedJobs: 0,
      deliveredMessages: 0,
      processedEvents: 0,
      idleGuessCounters: 0,
      refusals: 0,
      moreDue: false,
    });
  });

  it(`deletes at most ${HOUSEKEEPING_ROWS_PER_KIND} rows per kind unless told otherwise`, async () => {
    const store = createTestStore({ clock: createManualClock(T0) });
    for (let i = 0; i <= HOUSEKEEPING_ROWS_PER_KIND; i++) {
      const event = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
      await store.events.markProcessed(event.id);
    }
    const now = at(8 * 86_400_000);
    const first = await purgeExpired(store, now, retention);
    expect(first).toMatchObject({ processedEvents: HOUSEKEEPING_ROWS_PER_KIND, moreDue: true });
    expect(await purgeExpired(store, now, retention)).toMatchObject({ processedEvents: 1, moreDue: false });
  });

  it('refuses a negative or missing retention and a row bound that is not a positive integer', async () => {
    const store = createTestStore({ clock: createManualClock(T0) });
    await expect(purgeExpired(store, T0, { ...retention, staleCartLineDays: -1 })).rejects.toThrow(
      new RangeError('housekeeping staleCartLineDays must be a number of days, 0 or more, got -1'),
    );
    await expect(
      purgeExpired(store, T0, { ...retention, finishedJobDays: undefined as unknown as number }),
    ).rejects.toThrow(
      new RangeError('housekeeping finishedJobDays must be a number of days, 0 or more, got undefined'),
    );
    await expect(purgeExpired(store, T0, retention, { maxRowsPerKind: 0 })).rejects.toThrow(
      new RangeError('housekeeping maxRowsPerKind must be a positive integer, got 0'),
    );
  });
});
