/**
 * SEARCHSTRING against a storefront's catalog, for BACKGROUND_SEARCH and SOURCING: the catalog page's
 * search, one matcher for both (../punchout/product-search.ts says what matches).
 */
export { searchProducts } from '../punchout/product-search.ts';
