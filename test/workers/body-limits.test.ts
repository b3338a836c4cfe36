/**
 * Bodies bounded before they are read on Workers too: the Worker as wrangler builds it, under workerd
 * (Miniflare), answers a chunked body past the form limit with the 413 page once the limit is passed,
 * while the sender still had most of it to send, and passes a chunked form within the limit on whole.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ORIGIN } from '../support/stack.ts';
import { buildWorker, compatibilityDate } from './bundle-worker.ts';

const MiB = 1024 * 1024;
const ADMIN_TOKEN = 'worker-admin-token-0123456789abcdef';
const CHUNK = 64 * 1024;
/** What the sender would send, were it read on. */
const ENDLESS = 64 * MiB;

function countedBody(): { stream: ReadableStream<Uint8Array>; pulled(): number } {
  let pulled = 0;
  const filler = new Uint8Array(CHUNK).fill(0x61);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled += CHUNK;
        controller.enqueue(filler);
        if (pulled >= ENDLESS) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

describe('bodies bounded before they are read, on workerd', () => {
  let mf: Miniflare;

  beforeAll(async () => {
    const bundle = await buildWorker();
    mf = new Miniflare({
      modules: true,
      script: bundle.code,
      compatibilityDate: await compatibilityDate(),
      d1Databases: { DB: 'punchgate-body-limits' },
      bindings: {
        PUNCHGATE_SIGNING_KEY: 'worker-signing-key-0123456789abcdef',
        PUNCHGATE_ADMIN_TOKEN: ADMIN_TOKEN,
        SUPPLIER_SHARED_SECRET: 'supplier-secret',
        SHOP_API_KEY: 'shop-api-key',
        ACME_SHARED_SECRET: 'acme-secret',
        GLOBEX_OCI_PASSWORD: 'globex-password',
      },
    });
    await mf.ready;
  }, 300_000);

  afterAll(async () => {
    await mf?.dispose();
  });

  const post = (path: string, body: ReadableStream<Uint8Array>) =>
    mf.dispatchFetch(`${GATEWAY_ORIGIN}${path}`, {
      method: 'POST',
      body,
      duplex: 'half',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    } as never);

  it('a chunked sign-in that never ends: the 413 page, most of it never sent', async () => {
    const body = countedBody();
    const res = await post('/admin/ui/sign-in', body.stream);
    const page = await res.text();
    expect([res.status, page.slice(page.indexOf('<h1>'), page.indexOf('</main>'))]).toEqual([
      413,
      '<h1>Too large</h1>\n<p class="error" role="alert">The request body is larger than 64 KB; nothing was done with it.</p>\n',
    ]);
    // Miniflare's proxy and the sockets between take in a few MB before the answer is seen.
    expect(body.pulled()).toBeLessThan(ENDLESS / 4);
  });

  it('a chunked form within the limit reaches the sign-in whole', async () => {
    const form = new TextEncoder().encode(`token=${ADMIN_TOKEN}`);
    const res = await post(
      '/admin/ui/sign-in',
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(form.subarray(0, 10));
          controller.enqueue(form.subarray(10));
          controller.close();
        },
      }),
    );
    expect([res.status, res.headers.get('Location')]).toEqual([303, '/admin/']);
  });
});
