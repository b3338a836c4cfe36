/**
 * /readyz writes to the store: a store that answers reads but refuses writes (a read-only file or replica,
 * a full or failing disk) cannot take a punch-out or a PO, so the instance is not ready.
 */
import { describe, expect, it } from 'vitest';
import { WRITE_CHECK_HEARTBEAT } from '../../../src/gateway/app/readiness.ts';
import { createSqliteStore } from '../../../src/store/sqlite.ts';
import { StoreError } from '../../../src/store/store-error.ts';
import { createStack, GATEWAY_ORIGIN, testConfig } from '../../support/stack.ts';

describe('GET /readyz and store writes', () => {
  it('is ready while the store takes the write check, 503 with the reason once it refuses writes', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    let readOnly = false;
    const stack = await createStack(testConfig(), {
      store: {
        ...store,
        heartbeat: {
          ...store.heartbeat,
          beat: (name, at) =>
            readOnly
              ? Promise.reject(new StoreError('unavailable', 'attempt to write a readonly database'))
              : store.heartbeat.beat(name, at),
        },
      },
    });
    const readyz = async () => {
      const res = await stack.request(`${GATEWAY_ORIGIN}/readyz`);
      return { status: res.status, body: await res.json() };
    };

    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await store.heartbeat.last(WRITE_CHECK_HEARTBEAT)).toEqual(stack.clock.now());

    readOnly = true;
    expect(await readyz()).toEqual({
      status: 503,
      body: { status: 'unavailable', reasons: ['the store does not accept writes'] },
    });

    readOnly = false;
    expect((await readyz()).status).toBe(200);
    await store.close();
  });
});
