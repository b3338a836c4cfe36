/**
 * Stands in for the `is-unsafe` package in the Worker's build (wrangler.toml's `[alias]`). fast-xml-parser
 * imports it only to judge the values of entities a document declares in its DOCTYPE, and none ever gets
 * that far in punchgate: the markup guard refuses every DOCTYPE internal subset, and the codec parses with
 * `processEntities` off. The package's rules for six other languages were 17 KiB of the minified bundle.
 * Were it ever asked, it calls every value unsafe, so the entity is blocked.
 */

/** The contexts fast-xml-parser names when it asks; their rules are not needed to refuse everything. */
export const HTML = Object.freeze({ name: 'html' });
export const XML = Object.freeze({ name: 'xml' });

export function isUnsafe(_value: string, _contexts?: readonly unknown[]): boolean {
  return true;
}
