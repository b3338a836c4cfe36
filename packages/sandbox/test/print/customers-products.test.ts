import { Customer, Rendering } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { errorOf, makeHarness } from './sandbox-harness.ts';

const RENDERINGS_404 = { status: 404, message: 'Product renderings not the service.' };
const RENDERING_404 = { status: 404, message: 'Product rendering not the service.' };

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

describe('sandbox customers', () => {
  it('E10 GET customer answers the Customer object', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/customer/201');
    expect(res.status).toBe(200);
    const customer = (await res.json()) as Customer;
    expect(Customer.safeParse(customer).success).toBe(true);
    expect(customer).toEqual({
      storefront: 'Demo Print Shop',
      id: 201,
      first_name: 'Jane',
      last_name: 'Buyer',
      email: 'jane.buyer@example.com',
      username: 'jane.buyer',
      receive_marketing_emails: true,
      last_logged_in_on: '2025-03-03T08:01:00.000Z',
      created_on: '2025-01-06T09:15:00.000Z',
      last_updated_on: '2025-01-06T09:15:00.000Z',
      company: 'Acme Corp',
      organization: 'Acme Corp',
      user_groups: ['Procurement'],
      tax_exempt: false,
    });
  });

  it('E10 an unknown customer, a bad id or a customer of another license is 404', async () => {
    const h = makeHarness();
    for (const id of ['999', 'abc', '221']) {
      expect(await errorOf(await h.call('GET', `/api/v2/customer/${id}`)), id).toEqual({
        status: 404,
        message: 'Customer not found.',
      });
    }
  });
});

describe('sandbox product renderings', () => {
  it('E11 R11 renderings list the photo-merge renderings of a product or of a customized copy', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/product/101/renderings');
    expect(res.status).toBe(200);
    const list = (await res.json()) as Rendering[];
    expect(list).toEqual([
      { id: 1, name: 'On a desk' },
      { id: 2, name: 'In a card holder' },
    ]);
    for (const r of list) expect(Rendering.safeParse(r).success).toBe(true);
    expect(await (await h.call('GET', '/api/v2/product/3001/renderings')).json()).toEqual(list);
  });

  it('X13 R11 a product without renderings, unknown, of another license or with a bad id is 404', async () => {
    const h = makeHarness();
    for (const path of [
      '103/renderings',
      '99999/renderings',
      '121/renderings',
      'abc/renderings',
      '103/renderings/1',
    ]) {
      expect(await errorOf(await h.call('GET', `/api/v2/product/${path}`)), path).toEqual(RENDERINGS_404);
    }
  });

  it('E12 R11 a rendering is an image/png attachment', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/product/101/renderings/2');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename=rendering-101-2.png');
    const png = new Uint8Array(await res.arrayBuffer());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(pngSize(png)).toEqual([800, 600]);
    const copy = await h.call('GET', '/api/v2/product/3001/renderings/2');
    expect(copy.headers.get('Content-Disposition')).toBe('attachment; filename=rendering-3001-2.png');
    expect(new Uint8Array(await copy.arrayBuffer())).not.toEqual(png);
  });

  it('X14 a rendering id unknown for the product is 404 "Product rendering not the service."', async () => {
    const h = makeHarness();
    for (const id of ['3', '99', 'abc']) {
      expect(await errorOf(await h.call('GET', `/api/v2/product/101/renderings/${id}`)), id).toEqual(
        RENDERING_404,
      );
    }
  });
});
