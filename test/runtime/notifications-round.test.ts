/**
 * The notification step of the background round, through the host every runtime builds: an exception is
 * announced once per channel however many rounds find it open, a held invoice as a held invoice, many new
 * at once as one digest, within each channel's rate limit, a failed delivery again next round, and the
 * round's own troubles (overdue, the print service failing) too. No secret leaves in a message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../schemas/config.ts';
import { createMetrics } from '../../src/gateway/http/metrics.ts';
import type { NotificationChannel, OutgoingMessage } from '../../src/gateway/notifications/index.ts';
import { createGatewayHost, type GatewayHost } from '../../src/runtime/host.ts';
import type { Store } from '../../src/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import type { OrderState } from '../../src/store/types.ts';
import { type CapturingLogger, capturingLogger } from '../support/capturing-logger.ts';
import { resolveTestConfig, START, testConfig } from '../support/stack.ts';
import { createManualClock, type ManualClock } from '../store/manual-clock.ts';

const HOOK_URL = 'http://hooks.test/services/T000/B000/hook-secret-in-the-url';
const MINUTE = 60_000;

interface Harness {
  host: GatewayHost;
  store: Store;
  clock: ManualClock;
  logger: CapturingLogger;
  hooks: OutgoingMessage[];
  mails: OutgoingMessage[];
  /** The webhook receiver's answer from now on. */
  hookStatus: { value: number };
  /** The monotonic clock of the print-service metrics, in ms. */
  monotonic: { value: number };
  round(): Promise<void>;
  waitingPo(n: number, flags?: string[], lastError?: string, state?: OrderState): Promise<string>;
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.store.close();
  harness = undefined;
});

async function createHarness(
  notifications: GatewayConfigInput['notifications'],
  options: { store?: (store: Store) => Store } = {},
): Promise<Harness> {
  const clock = createManualClock(new Date(START));
  const logger = capturingLogger();
  const sqlite = createSqliteStore({ path: ':memory:', clock });
  const store = options.store?.(sqlite) ?? sqlite;
  const hooks: OutgoingMessage[] = [];
  const mails: OutgoingMessage[] = [];
  const hookStatus = { value: 200 };
  const monotonic = { value: 0 };
  const emailChannel = (): NotificationChannel => ({
    name: 'email',
    async send(message) {
      mails.push(message);
    },
  });
  const host = await createGatewayHost({
    config: resolveTestConfig(testConfig({ notifications })),
    store,
    logger,
    clock,
    metrics: createMetrics({ now: () => monotonic.value }),
    emailChannel,
    async fetch(input, init) {
      const url = input instanceof Request ? input.url : String(input);
      if (url !== HOOK_URL) return new Response(null, { status: 404 });
      hooks.push(JSON.parse(String(init?.body)) as OutgoingMessage);
      return new Response('ok', { status: hookStatus.value });
    },
    // The print service is away the whole time, and says not to retry soon.
    printFetchFor: () => async () =>
      new Response('down', { status: 503, headers: { 'Retry-After': '3600' } }),
  });
  let n = 0;
  return {
    host,
    store,
    clock,
    logger,
    hooks,
    mails,
    hookStatus,
    monotonic,
    async round() {
      await host.runBackgroundRound().catch(() => undefined);
    },
    async waitingPo(number, flags = [], lastError = 'the print order was refused', state = 'needs_operator') {
      n += 1;
      const { order } = await store.orders.accept({
        buyerId: 'acme',
        payloadId: `po-${number}-${n}@ariba.example`,
        orderId: `PO-${number}`,
        type: 'new',
        state,
        raw: '<cXML/>',
        document: {},
        answer: { code: 200, text: 'OK' },
        flags,
      });
      await store.orders.update(order.id, { lastError });
      return order.id;
    },
  };
}

const BOTH = {
  webhook: { url: HOOK_URL },
  email: { url: 'smtp://127.0.0.1:2525', from: 'punchgate@printshop.example', to: ['ops@printshop.example'] },
};

describe('the notification step of the background round', () => {
  it('announces a PO that needs an operator once per channel, however many rounds find it waiting', async () => {
    harness = await createHarness(BOTH);
    const id = await harness.waitingPo(1);
    for (let round = 0; round < 4; round++) {
      await harness.round();
      harness.clock.advance(MINUTE);
    }
    expect(harness.hooks.map((m) => [m.event, m.subject])).toStrictEqual([['po_needs_operator', `po:${id}`]]);
    expect(harness.mails.map((m) => [m.event, m.subject])).toStrictEqual([['po_needs_operator', `po:${id}`]]);
    expect(harness.hooks[0]?.text).toContain(
      'PO PO-1 of buyer acme needs an operator: the print order was refused',
    );
    expect(harness.hooks[0]?.text).toContain(`http://gateway.test/admin/ui/orders/${id}`);
  });

  it('announces a held invoice as a held invoice, not also as a PO needing an operator', async () => {
    harness = await createHarness(BOTH);
    const id = await harness.waitingPo(
      2,
      ['invoice_held'],
      'the print order charges 0.12 where the PO says 0.09',
    );
    await harness.round();
    await harness.round();
    expect(harness.hooks.map((m) => [m.event, m.subject])).toStrictEqual([['invoice_held', `po:${id}`]]);
    expect(harness.mails.map((m) => m.event)).toStrictEqual(['invoice_held']);
  });

  it('lists many new exceptions in one digest, and only what is new afterwards', async () => {
    harness = await createHarness({ ...BOTH, digestAfter: 3 });
    await harness.waitingPo(1);
    await harness.waitingPo(2, ['invoice_held']);
    await harness.waitingPo(3, ['document_dead']);
    await harness.round();
    expect(harness.hooks.map((m) => [m.event, m.exceptions.length])).toStrictEqual([['digest', 3]]);
    expect(harness.mails.map((m) => [m.event, m.exceptions.length])).toStrictEqual([['digest', 3]]);
    await harness.waitingPo(4);
    await harness.round();
    await harness.round();
    expect(harness.hooks.map((m) => m.event)).toStrictEqual(['digest', 'po_needs_operator']);
    expect(harness.hooks[1]?.text).toContain('PO PO-4');
  });

  it('keeps each channel within its rate limit and sends what waited once the hour allows', async () => {
    harness = await createHarness({ ...BOTH, webhook: { url: HOOK_URL, maxPerHour: 1 } });
    await harness.waitingPo(1);
    await harness.round();
    await harness.waitingPo(2);
    await harness.round();
    expect(harness.hooks.map((m) => m.exceptions[0]?.summary.slice(0, 7))).toStrictEqual(['PO PO-1']);
    expect(harness.mails).toHaveLength(2);
    expect(harness.logger.lines).toContainEqual({
      level: 'warn',
      message: 'notifications held back by the rate limit',
      fields: { channel: 'webhook', limit: 1 },
    });
    harness.clock.advance(61 * MINUTE);
    await harness.round();
    expect(harness.hooks.map((m) => m.exceptions[0]?.summary.slice(0, 7))).toStrictEqual([
      'PO PO-1',
      'PO PO-2',
    ]);
  });

  it('logs a failed delivery and sends the message again next round, once it is taken', async () => {
    harness = await createHarness({ webhook: { url: HOOK_URL } });
    await harness.waitingPo(1);
    harness.hookStatus.value = 500;
    await harness.round();
    await harness.round();
    expect(harness.hooks).toHaveLength(2);
    expect(harness.logger.lines).toContainEqual({
      level: 'warn',
      message: 'notification not delivered; tried again next round',
      fields: { channel: 'webhook', error: 'Error: the webhook answered HTTP 500' },
    });
    harness.hookStatus.value = 200;
    await harness.round();
    await harness.round();
    expect(harness.hooks).toHaveLength(3);
    expect(await harness.store.notifications.messagesSince('webhook', new Date(START))).toBe(1);
  });

  it('never puts a secret of the config in a message or a log line', async () => {
    harness = await createHarness({ webhook: { url: HOOK_URL, authorization: 'Bearer hook-bearer-secret' } });
    await harness.waitingPo(
      1,
      [],
      'the buyer sent acme-secret; admin token test-admin-token-0123456789abcdef',
    );
    await harness.round();
    const sent = JSON.stringify(harness.hooks);
    expect(harness.hooks).toHaveLength(1);
    expect(sent).toContain('[redacted]');
    for (const secret of [
      'acme-secret',
      'test-admin-token',
      'hook-bearer-secret',
      'hook-secret-in-the-url',
    ]) {
      expect(sent).not.toContain(secret);
      expect(harness.logger.text()).not.toContain(secret);
    }
  });

  it('announces the print service failing for the configured minutes once a day, whichever instance sees it', async () => {
    harness = await createHarness({ webhook: { url: HOOK_URL }, printServiceFailingMinutes: 10 });
    // Another instance (or this one restarted) on the same store: its own reading of when the outage began.
    const other = await createHarness(
      { webhook: { url: HOOK_URL }, printServiceFailingMinutes: 10 },
      { store: () => harness!.store },
    );
    // Monotonic clocks of two processes have nothing in common.
    other.monotonic.value = 987_654_321;
    for (const instance of [harness, other]) await instance.round();
    for (const instance of [harness, other]) {
      instance.monotonic.value += 11 * MINUTE;
      // Webhook registration is tried again a minute later (by the host's clock): a failed call in this outage.
      instance.clock.advance(2 * MINUTE);
    }
    other.monotonic.value += 5 * MINUTE;
    for (const instance of [harness, other, harness, other]) await instance.round();
    expect([...harness.hooks, ...other.hooks].map((m) => [m.event, m.subject])).toStrictEqual([
      ['print_service_failing', 'storefront:demo'],
    ]);
    expect(harness.hooks[0]?.text).toMatch(
      /Every call to the print service of storefront demo has failed for 1\d minutes/,
    );
    // The next day, still failing: announced again.
    other.clock.advance(24 * 60 * MINUTE);
    await other.round();
    expect(other.hooks.map((m) => m.event)).toStrictEqual(['print_service_failing']);
  });

  it('announces an overdue background round from the rounds that fail, once per outage', async () => {
    let failing = false;
    harness = await createHarness(
      { webhook: { url: HOOK_URL } },
      {
        store: (store) => ({
          ...store,
          jobs: {
            ...store.jobs,
            enqueue: (job) => (failing ? Promise.reject(new Error('disk full')) : store.jobs.enqueue(job)),
          },
        }),
      },
    );
    await harness.round();
    failing = true;
    for (let round = 0; round < 8; round++) {
      harness.clock.advance(MINUTE);
      await harness.round();
    }
    expect(harness.hooks.map((m) => m.event)).toStrictEqual(['background_round_overdue']);
    expect(harness.hooks[0]?.text).toContain(
      `No background round has completed since ${new Date(START).toISOString()}`,
    );
  });

  it('announces a buyer whose documents are refused repeatedly, once a day', async () => {
    harness = await createHarness({ webhook: { url: HOOK_URL }, refusalsPerHour: 3 });
    for (let n = 0; n < 3; n++) {
      await harness.store.refusals.add(
        {
          buyerId: 'coupa',
          channel: 'cxml',
          documentType: 'OrderRequest',
          payloadId: `refused-${n}@coupa.example`,
          clientAddress: '203.0.113.9',
          status: 409,
          answer: 'orderID PO-77 was ordered already',
          document: '<cXML/>',
          documentBytes: 7,
        },
        { perAddress: 100, total: 2000 },
      );
    }
    await harness.round();
    await harness.round();
    expect(harness.hooks.map((m) => [m.event, m.subject])).toStrictEqual([
      ['buyer_refused_repeatedly', 'buyer:coupa'],
    ]);
    expect(harness.hooks[0]?.text).toContain('3 documents of buyer coupa were refused within the last hour');
  });
});
