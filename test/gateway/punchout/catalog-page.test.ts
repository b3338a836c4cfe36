/**
 * The catalog page with more products than fit on one (issue 18): pages of CATALOG_PAGE_SIZE cards whose
 * links keep the session token, a search without case or accents, and products still found by SKU.
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedStorefront } from '../../../src/gateway/deps.ts';
import { GatewayError } from '../../../src/gateway/http/errors.ts';
import { findProductBySku, productBySku } from '../../../src/gateway/punchout/catalog.ts';
import { CATALOG_PAGE_SIZE } from '../../../src/gateway/punchout/catalog-page.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { findLinks } from '../../support/html-forms.ts';
import { designProduct, startUrlOf } from '../../support/punchout-flow.ts';
import {
  type BrowserResponse,
  createStack,
  GATEWAY_ORIGIN,
  type Stack,
  testConfig,
} from '../../support/stack.ts';

/** The test config's demo storefront with 120 more products after its three: 123, three pages. */
const EXTRA = 120;
const TOTAL = EXTRA + 3;

function bigCatalogConfig() {
  const config = testConfig();
  const [demo, ...others] = config.storefronts;
  if (demo === undefined) throw new Error('no demo storefront');
  const extra = Array.from({ length: EXTRA }, (_, i) => ({
    productId: 101,
    sku: `GEN-${String(i + 1).padStart(3, '0')}`,
    name: i === 0 ? 'Briefpapier für Müller' : `Generated product ${i + 1}`,
    description: i === 1 ? 'Heavy matte stock, ÉLÉGANT finish' : undefined,
    uom: 'EA',
    prices: [{ minQuantity: 1, unitPrice: 1 }],
  }));
  return { ...config, storefronts: [{ ...demo, products: [...demo.products, ...extra] }, ...others] };
}

async function openCatalog(): Promise<{ stack: Stack; catalog: BrowserResponse }> {
  const stack = await createStack(bigCatalogConfig());
  const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
  expect(catalog.status).toBe(200);
  return { stack, catalog };
}

const designLinks = (page: BrowserResponse) =>
  findLinks(page.text).filter((l) => l.text.startsWith('Design '));
const linkNamed = (page: BrowserResponse, text: string) => findLinks(page.text).find((l) => l.text === text);
/** The session's catalog URL without query: every page link must stay on it (the token is in the path). */
const catalogBase = (page: BrowserResponse) => page.url.replace(/\?.*$/, '');

describe('the catalog page, paginated', () => {
  it('shows the first page: its products, where it stands and a link to the next page', async () => {
    const { catalog } = await openCatalog();
    expect(catalog.headers.get('Cache-Control')).toBe('no-store');
    expect(designLinks(catalog)).toHaveLength(CATALOG_PAGE_SIZE);
    expect(designLinks(catalog)[0]?.text).toBe('Design Business cards');
    expect(catalog.text).toContain(`Page 1 of 3 · products 1 to 48 of ${TOTAL}`);
    expect(linkNamed(catalog, 'Previous page')).toBeUndefined();
    expect(linkNamed(catalog, 'Next page')?.href).toBe(`${catalogBase(catalog)}?page=2`);
  });

  it('a middle page links both ways, and every link keeps the session token', async () => {
    const { stack, catalog } = await openCatalog();
    const middle = await stack.browse(linkNamed(catalog, 'Next page')?.href ?? '');
    expect(middle.status).toBe(200);
    expect(middle.headers.get('Cache-Control')).toBe('no-store');
    expect(middle.text).toContain(`Page 2 of 3 · products 49 to 96 of ${TOTAL}`);
    expect(designLinks(middle)[0]?.text).toBe('Design Generated product 46');
    expect(linkNamed(middle, 'Previous page')?.href).toBe(catalogBase(catalog));
    expect(linkNamed(middle, 'Next page')?.href).toBe(`${catalogBase(catalog)}?page=3`);
    for (const link of designLinks(middle))
      expect(link.href.startsWith(catalogBase(catalog).replace(/catalog$/, 'design/'))).toBe(true);
  });

  it('the last page has the rest and no next link; its products can be designed', async () => {
    const { stack, catalog } = await openCatalog();
    const last = await stack.browse(`${catalogBase(catalog)}?page=3`);
    expect(designLinks(last)).toHaveLength(TOTAL - 2 * CATALOG_PAGE_SIZE);
    expect(last.text).toContain(`Page 3 of 3 · products 97 to ${TOTAL} of ${TOTAL}`);
    expect(linkNamed(last, 'Next page')).toBeUndefined();
    expect(linkNamed(last, 'Previous page')?.href).toBe(`${catalogBase(catalog)}?page=2`);
    const cart = await designProduct(stack, last, `Generated product ${EXTRA}`);
    expect(cart.text).toContain(`GEN-${EXTRA}`);
  });

  it('a page past the last shows the last page and says so; a page that is no number shows the first', async () => {
    const { stack, catalog } = await openCatalog();
    const beyond = await stack.browse(`${catalogBase(catalog)}?page=99`);
    expect(beyond.status).toBe(200);
    expect(beyond.headers.get('Cache-Control')).toBe('no-store');
    expect(beyond.text).toContain('There is no page 99; this is the last page, 3.');
    expect(beyond.text).toContain('Page 3 of 3');
    for (const odd of ['0', '-1', 'abc', '2.5']) {
      const page = await stack.browse(`${catalogBase(catalog)}?page=${odd}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Page 1 of 3');
    }
  });

  it('a catalog that fits on one page shows no page links', async () => {
    const stack = await createStack();
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    expect(designLinks(catalog)).toHaveLength(3);
    expect(catalog.text).not.toContain('Catalog pages');
  });
});

describe('the catalog search', () => {
  it('has a labelled search field in a GET form to the same catalog', async () => {
    const { catalog } = await openCatalog();
    expect(catalog.text).toMatch(
      /<form class="actions" method="get" action="[^"]+\/catalog" role="search">\s*<label for="catalog-search">Search products<\/label>\s*<input id="catalog-search" type="search" name="q" value="">/,
    );
  });

  it('finds by name and by SKU without case, and by words without accents', async () => {
    const { stack, catalog } = await openCatalog();
    const search = async (q: string) => stack.browse(`${catalogBase(catalog)}?q=${encodeURIComponent(q)}`);

    const byName = await search('business');
    expect(designLinks(byName).map((l) => l.text)).toEqual(['Design Business cards']);
    expect(byName.text).toContain('1 product matches “business”.');
    expect(byName.headers.get('Cache-Control')).toBe('no-store');

    expect(designLinks(await search('fly-a5')).map((l) => l.text)).toEqual(['Design A5 flyer']);
    expect(designLinks(await search('MULLER briefpapier')).map((l) => l.text)).toEqual([
      'Design Briefpapier für Müller',
    ]);
    // The description counts too, folded the same way.
    expect(designLinks(await search('elegant')).map((l) => l.text)).toEqual(['Design Generated product 2']);
  });

  it('pages through many hits, the search kept in every page link', async () => {
    const { stack, catalog } = await openCatalog();
    const first = await stack.browse(`${catalogBase(catalog)}?q=generated`);
    expect(first.text).toContain(`${EXTRA - 1} products match “generated”.`);
    expect(designLinks(first)).toHaveLength(CATALOG_PAGE_SIZE);
    const next = linkNamed(first, 'Next page')?.href ?? '';
    expect(next).toBe(`${catalogBase(catalog)}?q=generated&page=2`);
    const second = await stack.browse(next);
    expect(second.text).toContain(`Page 2 of 3 · products 49 to 96 of ${EXTRA - 1}`);
    expect(linkNamed(second, 'Previous page')?.href).toBe(`${catalogBase(catalog)}?q=generated`);
    expect(second.text).toContain('value="generated"');
  });

  it('says so when nothing matches, with the way back to every product', async () => {
    const { stack, catalog } = await openCatalog();
    const none = await stack.browse(`${catalogBase(catalog)}?q=${encodeURIComponent('<b>nothing</b>')}`);
    expect(none.status).toBe(200);
    expect(none.text).toContain(
      'No product matches “&lt;b&gt;nothing&lt;/b&gt;”. Check the spelling, try fewer words, or show all products.',
    );
    expect(designLinks(none)).toHaveLength(0);
    expect(linkNamed(none, 'Show all products')?.href).toBe(catalogBase(catalog));
  });

  it('a search of only spaces or wildcards is the whole catalog', async () => {
    const { stack, catalog } = await openCatalog();
    const all = await stack.browse(`${catalogBase(catalog)}?q=${encodeURIComponent(' * ')}`);
    expect(all.text).toContain(`Page 1 of 3 · products 1 to 48 of ${TOTAL}`);
    expect(all.text).not.toContain('match');
  });
});

describe('OCI sessions', () => {
  const punchIn = (stack: Stack, params: Record<string, string>) =>
    stack.browse(
      `${GATEWAY_ORIGIN}/oci/sap1?${new URLSearchParams({
        USERNAME: 'sap1',
        PASSWORD: 'sap1-secret',
        HOOK_URL: 'https://srm.acme.example/sap/oci/return',
        ...params,
      })}`,
    );

  it('open the same paginated catalog', async () => {
    const stack = await createStack(bigCatalogConfig());
    const catalog = await punchIn(stack, {});
    expect(catalog.url).toMatch(/\/punchout\/s\/[^/]+\/catalog$/);
    expect(designLinks(catalog)).toHaveLength(CATALOG_PAGE_SIZE);
    expect(catalog.text).toContain(`Page 1 of 3 · products 1 to 48 of ${TOTAL}`);
  });

  it('SOURCING results come a page at a time, the search and the token kept in the links', async () => {
    const stack = await createStack(bigCatalogConfig());
    const first = await punchIn(stack, { FUNCTION: 'SOURCING', SEARCHSTRING: '*' });
    expect(first.url).toMatch(/\/oci\/s\/[^/]+\/search\?q=\*$/);
    expect(first.headers.get('Cache-Control')).toBe('no-store');
    expect(first.text).toContain(`${TOTAL} products match your search.`);
    expect(designLinks(first)).toHaveLength(CATALOG_PAGE_SIZE);
    const next = linkNamed(first, 'Next page')?.href ?? '';
    expect(next).toBe(`${first.url.replace('q=*', 'q=')}${encodeURIComponent('*')}&page=2`);
    const last = await stack.browse(next.replace('page=2', 'page=7'));
    expect(last.text).toContain('There is no page 7; this is the last page, 3.');
    expect(last.text).toContain(`Page 3 of 3 · products 97 to ${TOTAL} of ${TOTAL}`);
    expect(designLinks(last)).toHaveLength(TOTAL - 2 * CATALOG_PAGE_SIZE);
  });
});

describe('products by SKU', () => {
  const storefront = {
    products: [
      { productId: 1, sku: 'A', name: 'first A' },
      { productId: 2, sku: 'B', name: 'B' },
      { productId: 3, sku: 'A', name: 'second A' },
    ],
  } as unknown as ResolvedStorefront;

  it('finds the product of a SKU (the first, as the linear search did), or none', () => {
    expect(findProductBySku(storefront, 'B')?.productId).toBe(2);
    expect(findProductBySku(storefront, 'A')?.name).toBe('first A');
    expect(findProductBySku(storefront, 'a')).toBeUndefined();
    expect(productBySku(storefront, 'A').productId).toBe(1);
    expect(() => productBySku(storefront, 'Z')).toThrow(GatewayError);
    expect(() => productBySku(storefront, 'Z')).toThrow('This catalog has no product Z.');
  });
});
