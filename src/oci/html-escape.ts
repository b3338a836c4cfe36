/**
 * Escaping for text and double-quoted attribute values in the pages this codec renders.
 *
 * CR and LF become character references too: the HTML parser turns a raw CR LF in an attribute into LF,
 * but leaves `&#13;&#10;` alone, so multi-line long texts reach the buyer exactly as built.
 */

const REPLACEMENTS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '\r': '&#13;',
  '\n': '&#10;',
};

/** Escapes `& < > " '` and line breaks, safe for element text and any quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'\r\n]/g, (c) => REPLACEMENTS[c]!);
}
