/**
 * The one HTML escape for every page the gateway, the OCI codec and the sandbox render: safe in element
 * text and in any quoted attribute value (single, double, or a backtick that old IE took as a quote).
 *
 * CR and LF become character references too: the HTML parser turns a raw CR LF in an attribute into LF,
 * but leaves `&#13;&#10;` alone, so multi-line values (OCI long texts) reach the browser exactly as built;
 * in element text a reference renders as the character itself.
 */

const REPLACEMENTS: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '\r': '&#13;',
  '\n': '&#10;',
};

/**
 * @example
 * `<input value="${escapeHtml(name)}">`; // '<script>' comes out as '&lt;script&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`\r\n]/g, (c) => REPLACEMENTS[c]!);
}
