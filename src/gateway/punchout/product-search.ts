/**
 * A search of a storefront's catalog, shared by the catalog page's `?q=` and OCI's SEARCHSTRING
 * (BACKGROUND_SEARCH, SOURCING): every word of the search must occur in the product's name, description
 * (its own or a translation's), SKU, material group or UNSPSC code, compared without case and accents (`Grusskarten` does not find
 * `Grußkarten`, but `buro` finds `Büro`). `*` is a wildcard SAP's cross-catalog search sends on its own; a
 * search of only wildcards or spaces lists the whole catalog. The products' texts are folded once per
 * storefront (`catalogIndex`), so a search only folds its own words.
 */

import type { ResolvedStorefront } from '../deps.ts';
import { type CatalogEntry, catalogIndex, foldForSearch } from './catalog.ts';

/** The search's words, folded; none for a search of only wildcards and spaces. */
export function searchWords(searchString: string): string[] {
  return foldForSearch(searchString)
    .split(/[\s*]+/)
    .filter((word) => word !== '');
}

/**
 * @example
 * searchProducts(storefront, 'business matt'); // products whose texts contain both words
 */
export function searchProducts(storefront: ResolvedStorefront, searchString: string): CatalogEntry[] {
  const words = searchWords(searchString);
  if (words.length === 0) return [...storefront.products];
  const { searchTexts } = catalogIndex(storefront);
  return storefront.products.filter((_, i) => words.every((word) => searchTexts[i]!.includes(word)));
}
