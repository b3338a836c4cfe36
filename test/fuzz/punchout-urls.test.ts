import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPageAnswer } from '../support/answer-checks.ts';
import { capturingLogger } from '../support/capturing-logger.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { designProduct, startUrlOf } from '../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, testConfig } from '../support/stack.ts';
import { fuzzParameters, outcomeTally } from './fuzz-budget.ts';
import { HOSTILE_FRAGMENTS, mutateText, mutations, wellFormed } from './mutations.ts';

/** A live session with a cart line, and every kind of token for it: start, session, return. */
async function liveSession(stack: Awaited<ReturnType<typeof createStack>>) {
  const start = startUrlOf(await stack.postCxml(setupRequest()));
  const startToken = start.slice(start.lastIndexOf('/') + 1);
  const catalog = await stack.browse(start);
  const cart = await designProduct(stack, catalog, 'Business cards');
  const sessionToken = /\/punchout\/s\/([^/]+)\//.exec(cart.url)?.[1] ?? '';
  const lineRef = /\/cart\/([^/]+)\/quantity/.exec(cart.text)?.[1] ?? 'L1';
  const sid = (await stack.gateway.context.tokens.verify(sessionToken, 'session', stack.clock.now())).sid;
  const returnToken = await stack.gateway.context.tokens.sign(
    { sid, pur: 'return', ref: 'sku:BC-STD' },
    600,
    stack.clock.now(),
  );
  return { tokens: [startToken, sessionToken, returnToken], lineRef };
}

describe('fuzzing /punchout URLs: a redirect to our pages or the editor, or a clear page under 500', () => {
  it('random methods, tokens (valid, of another purpose, mutated, made up), paths, queries and forms', async () => {
    const logger = capturingLogger();
    const stack = await createStack(testConfig(), { gatewayDeps: { logger } });
    const tally = outcomeTally('/punchout URLs');
    let live = await liveSession(stack);
    let cases = 0;

    const hostile = fc.constantFrom(...HOSTILE_FRAGMENTS);
    const token = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 2 }).map((i) => live.tokens[i] ?? '') },
      fc
        .tuple(fc.integer({ min: 0, max: 2 }), mutations)
        .map(([i, m]) => mutateText(live.tokens[i] ?? '', m)),
      fc.string({ maxLength: 60 }),
      hostile,
      fc.constantFrom('', '.', '..', 'eyJhbGciOiJub25lIn0.eyJzaWQiOiJ4IiwicHVyIjoic2Vzc2lvbiJ9.'),
    );
    const rest = fc.oneof(
      fc.constantFrom('catalog', 'cart', 'design/BC-STD', 'design/NOPE', 'transfer', 'cancel'),
      fc.constantFrom('edit', 'quantity', 'remove').map((action) => `cart/${live.lineRef}/${action}`),
      fc
        .tuple(fc.string({ maxLength: 20 }), fc.constantFrom('edit', 'quantity', 'remove'))
        .map(([ref, action]) => `cart/${encodeURIComponent(wellFormed(ref))}/${action}`),
      hostile.map((h) => encodeURIComponent(wellFormed(h))),
    );
    const path = fc.oneof(
      token.map((t) => `/punchout/start/${t}`),
      { weight: 3, arbitrary: fc.tuple(token, rest).map(([t, r]) => `/punchout/s/${t}/${r}`) },
      { weight: 2, arbitrary: token.map((t) => `/punchout/return/${t}`) },
      fc.string({ maxLength: 30 }).map((s) => `/punchout/${s}`),
    );
    const queryValue = fc.oneof(
      fc.constantFrom('1', '100', '600', '0', '-1', '1e3', '99999999999999', 'https://evil.example/'),
      fc.string({ maxLength: 20 }),
      hostile,
    );
    const query = fc
      .array(
        fc.tuple(fc.constantFrom('productid', 'notice', 'cru', 'returnUrl', 'next', 'quantity'), queryValue),
        { maxLength: 3 },
      )
      .map((pairs) => new URLSearchParams(pairs.map(([k, v]) => [k, wellFormed(v)])).toString());
    const request = fc.record({
      // `route` takes the method the path's route answers, so most cases reach a handler.
      method: fc.oneof(
        { weight: 5, arbitrary: fc.constant('route') },
        { weight: 2, arbitrary: fc.constantFrom('GET', 'POST') },
        { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'HEAD') },
      ),
      path,
      query,
      body: fc.option(
        fc.oneof(
          queryValue.map((v) => `quantity=${encodeURIComponent(wellFormed(v))}`),
          fc.string({ maxLength: 100 }),
        ),
        { nil: undefined },
      ),
    });

    await fc.assert(
      fc.asyncProperty(request, async (generated) => {
        const routeMethod = /\/(quantity|remove|transfer|cancel)$/.test(generated.path) ? 'POST' : 'GET';
        const r = { ...generated, method: generated.method === 'route' ? routeMethod : generated.method };
        // A new session now and then: transfer and cancel close the one the tokens name.
        if (++cases % 40 === 0) live = await liveSession(stack);
        let url: URL;
        try {
          url = new URL(`${r.path}${r.query ? `?${r.query}` : ''}`, GATEWAY_ORIGIN);
        } catch {
          return;
        }
        const res = await stack.gateway.app.fetch(
          new Request(url, {
            method: r.method,
            ...(r.body !== undefined &&
              r.method !== 'GET' &&
              r.method !== 'HEAD' && {
                body: r.body,
                headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              }),
          }),
        );
        const status = r.method === 'HEAD' ? res.status : await checkPageAnswer(res);
        expect(status).toBeLessThan(500);
        tally(`HTTP ${status}`);
      }),
      fuzzParameters('punchoutUrls'),
    );
    tally.print();
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  }, 600_000);
});
