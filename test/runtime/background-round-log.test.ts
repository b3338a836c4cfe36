/**
 * What `punchgate serve` logs when a background round fails: the step it was in, the error, and for
 * anything but the store being away its stack, so a programming error can be found from the one line. Never
 * a field the error carries besides its name, message and stack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeGateway, type NodeGateway } from '../../src/runtime/gateway-node.ts';
import type { Store } from '../../src/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { StoreError } from '../../src/store/store-error.ts';
import { type CapturingLogger, capturingLogger } from '../support/capturing-logger.ts';
import { resolveTestConfig, testConfig } from '../support/stack.ts';

const SECRET = 'pipo-token-that-must-not-be-logged';

/** A SQLite store whose `jobs.enqueue` (the first store call of every round) throws `failure()`. */
function storeFailingToEnqueue(failure: () => unknown): Store {
  const store = createSqliteStore({ path: ':memory:' });
  return {
    ...store,
    jobs: {
      ...store.jobs,
      enqueue: async () => {
        throw failure();
      },
    },
  };
}

describe('a failed background round on Node', () => {
  let node: NodeGateway | undefined;

  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  async function firstRoundFailure(store: Store): Promise<CapturingLogger> {
    const logger = capturingLogger();
    node = await createNodeGateway(resolveTestConfig(testConfig()), { logger, store });
    node.startBackground({ tickMs: 60_000 });
    await expect
      .poll(() => logger.lines.filter((line) => line.message === 'background round failed').length)
      .toBe(1);
    return logger;
  }

  it('names the step and logs the stack of a programming error, none of its other fields', async () => {
    const logger = await firstRoundFailure(
      storeFailingToEnqueue(() =>
        Object.assign(new TypeError("Cannot read properties of undefined (reading 'id')"), {
          token: SECRET,
        }),
      ),
    );

    const failed = logger.lines.find((line) => line.message === 'background round failed');
    expect(failed).toMatchObject({
      level: 'error',
      fields: {
        step: 'orders.scheduleReconcile',
        error: "TypeError: Cannot read properties of undefined (reading 'id')",
      },
    });
    expect(failed?.fields.stack).toMatch(
      /^TypeError: Cannot read properties of undefined \(reading 'id'\)\n/,
    );
    expect(failed?.fields.stack).toMatch(/\n +at .*background-round-log\.test\.ts:\d+:\d+/);
    // The webhook registration queues the reconciliation poll too: its warning names its step the same way.
    const webhooks = logger.lines.find((line) => line.message === 'print service webhooks not registered');
    expect(webhooks?.fields).toMatchObject({ step: 'webhooks', stack: expect.stringContaining('TypeError') });
    expect(logger.text()).not.toContain(SECRET);
  });

  it('logs the store being away with its step and message, without a stack', async () => {
    const logger = await firstRoundFailure(
      storeFailingToEnqueue(
        () =>
          new StoreError('unavailable', 'PostgreSQL: terminating connection due to administrator command'),
      ),
    );

    const failed = logger.lines.find((line) => line.message === 'background round failed');
    expect(failed?.fields).toEqual({
      step: 'orders.scheduleReconcile',
      error: 'StoreError: PostgreSQL: terminating connection due to administrator command',
    });
  });

  it('follows a stack into its cause', async () => {
    const logger = await firstRoundFailure(
      storeFailingToEnqueue(
        () => new StoreError('invalid', 'the job could not be read', { cause: new RangeError('bad row') }),
      ),
    );

    const failed = logger.lines.find((line) => line.message === 'background round failed');
    expect(failed?.fields.stack).toMatch(
      /^StoreError: the job could not be read\n[\s\S]*\ncaused by: RangeError: bad row\n/,
    );
  });
});
