/**
 * SEARCHSTRING against a storefront's catalog, for BACKGROUND_SEARCH and SOURCING: every word of the search
 * must occur in the product's name, description, SKU, material group or UNSPSC code, compared without case
 * and accents (`Grusskarten` does not find `Grußkarten`, but `buro` finds `Büro`). `*` is a wildcard SAP's
 * cross-catalog search sends on its own; a search of only wildcards lists the whole catalog.
 */

import type { ResolvedStorefront } from '../deps.ts';
import type { CatalogEntry } from '../punchout/catalog.ts';

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * @example
 * searchProducts(storefront, 'business matt'); // products whose texts contain both words
 */
export function searchProducts(storefront: ResolvedStorefront, searchString: string): CatalogEntry[] {
  const words = fold(searchString)
    .split(/[\s*]+/)
    .filter((word) => word !== '');
  return storefront.products.filter((product) => {
    const text = fold(
      [product.name, product.description, product.sku, product.matGroup, product.unspsc].join(' '),
    );
    return words.every((word) => text.includes(word));
  });
}
