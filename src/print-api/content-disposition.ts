/**
 * The file name of a Content-Disposition header (RFC 6266): `filename*` (RFC 8187 / 5987 extended value,
 * preferred) or `filename` (token or quoted-string). The result is reduced to a bare name, since the
 * service's word should never choose a directory on the caller's disk.
 */

// A parameter is `name=value` where value is a token or a quoted-string with backslash escapes.
const PARAMETER = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
const EXTENDED_VALUE = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/;

/**
 * @example
 * parseContentDispositionFilename('attachment; filename="order-12.zip"'); // 'order-12.zip'
 * parseContentDispositionFilename("attachment; filename*=UTF-8''na%C3%AFve.png"); // 'naïve.png'
 */
export function parseContentDispositionFilename(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  let plain: string | undefined;
  let extended: string | undefined;
  for (const match of `;${header}`.matchAll(PARAMETER)) {
    const name = match[1]!.toLowerCase();
    const raw = match[2]!.trim();
    if (name === 'filename*') extended ??= decodeExtendedValue(raw);
    else if (name === 'filename') plain ??= unquote(raw);
  }
  const chosen = extended ?? plain;
  return chosen === undefined ? undefined : bareName(chosen);
}

function unquote(raw: string): string {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    return raw.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return raw;
}

function decodeExtendedValue(raw: string): string | undefined {
  const match = EXTENDED_VALUE.exec(raw);
  if (!match) return undefined;
  const charset = match[1]!.toLowerCase();
  const encoded = match[2]!;
  try {
    if (charset === 'utf-8') return decodeURIComponent(encoded);
    if (charset === 'iso-8859-1') {
      // Each %XX is one Latin-1 byte, which is the code point of the same value.
      return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    }
  } catch {
    // A malformed escape: fall back to the plain filename parameter.
  }
  return undefined;
}

function bareName(name: string): string | undefined {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).trim();
  return base === '' || base === '.' || base === '..' ? undefined : base;
}
