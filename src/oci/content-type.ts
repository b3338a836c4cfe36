/**
 * A Content-Type header split into its media type and parameters (RFC 9110 §8.3), enough to read the
 * multipart boundary and a charset. Parameter names are case-insensitive; values keep their case because a
 * boundary is case-sensitive.
 */

export interface ContentType {
  /** Lower-case `type/subtype`, or '' when the header is empty. */
  readonly mediaType: string;
  readonly params: ReadonlyMap<string, string>;
}

const PARAMETER = /;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;

export function parseContentType(header: string): ContentType {
  const semicolon = header.indexOf(';');
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  const params = new Map<string, string>();
  if (semicolon !== -1) {
    for (const match of header.slice(semicolon).matchAll(PARAMETER)) {
      const name = match[1]!.toLowerCase();
      const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
      if (!params.has(name)) params.set(name, value);
    }
  }
  return { mediaType, params };
}
