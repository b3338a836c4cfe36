import { describe, expect, it } from 'vitest';
import { setupRequest } from '../support/cxml-documents.ts';
import { clickButton, designProduct, startUrlOf } from '../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN } from '../support/stack.ts';

describe('GET /metrics', () => {
  it('counts cXML answers by kind and Status, sessions and returned carts, in Prometheus text', async () => {
    const stack = await createStack();
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    await stack.postCxml(setupRequest({ secret: 'wrong' }));
    await stack.postCxml('<html/>');
    const cart = await designProduct(stack, catalog, 'Business cards');
    await clickButton(stack, cart, 'Transfer cart to procurement system');

    const res = await stack.request(`${GATEWAY_ORIGIN}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE punchgate_cxml_requests_total counter');
    expect(text).toContain('punchgate_cxml_requests_total{kind="PunchOutSetupRequest",status="200"} 1');
    expect(text).toContain('punchgate_cxml_requests_total{kind="PunchOutSetupRequest",status="401"} 1');
    expect(text).toContain('punchgate_cxml_requests_total{kind="not_cxml",status="406"} 1');
    expect(text).toContain('punchgate_sessions_opened_total{protocol="cxml",operation="create"} 1');
    expect(text).toContain('punchgate_carts_returned_total{protocol="cxml",outcome="transferred"} 1');
    expect(text).not.toContain('acme-secret');
  });
});
