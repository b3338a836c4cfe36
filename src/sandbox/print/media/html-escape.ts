/** HTML escaping for everything the editor pages write: safe in text and in quoted attribute values. */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * @example
 * `<h1>${escapeHtml(product.name)}</h1>` // '<script>' comes out as '&lt;script&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}
