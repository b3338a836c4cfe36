/**
 * Reading an HTML form post the way a procurement system's receiving end must: urlencoded bodies are
 * decoded from their bytes, because URLSearchParams and Request.formData() read every `%XX` as UTF-8 and
 * would turn a Latin-1 `%FC` (ü) from an ISO-8859-1 catalog page into U+FFFD. The charset is the one the
 * Content-Type names, else UTF-8 when every value is valid UTF-8, else ISO-8859-1. Multipart posts are
 * read with formData(). Field names are compared without regard to ASCII case.
 */

type FormCharset = 'UTF-8' | 'ISO-8859-1';

export interface FormBody {
  /** Every field in arrival order, names as sent. */
  readonly fields: readonly (readonly [string, string])[];
  readonly charset: FormCharset;
  /** How the charset was chosen, shown to integrators. */
  readonly charsetReason: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function percentDecode(input: Uint8Array): Uint8Array {
  const output = new Uint8Array(input.length);
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i] ?? 0;
    if (byte === 0x2b) {
      output[length++] = 0x20;
      continue;
    }
    if (byte === 0x25 && i + 2 < input.length) {
      const hex = String.fromCharCode(input[i + 1] ?? 0, input[i + 2] ?? 0);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        output[length++] = Number.parseInt(hex, 16);
        i += 2;
        continue;
      }
    }
    output[length++] = byte;
  }
  return output.subarray(0, length);
}

function splitUrlencoded(bytes: Uint8Array): [Uint8Array, Uint8Array][] {
  const pairs: [Uint8Array, Uint8Array][] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x26, start);
    if (end === -1) end = bytes.length;
    if (end > start) {
      const pair = bytes.subarray(start, end);
      const equals = pair.indexOf(0x3d);
      pairs.push(
        equals === -1
          ? [percentDecode(pair), new Uint8Array(0)]
          : [percentDecode(pair.subarray(0, equals)), percentDecode(pair.subarray(equals + 1))],
      );
    }
    start = end + 1;
  }
  return pairs;
}

function decodeLatin1(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

function tryUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function declaredCharset(contentType: string): FormCharset | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  if (match === null) return undefined;
  const label = (match[1] ?? '').toLowerCase();
  if (label === 'utf-8' || label === 'utf8') return 'UTF-8';
  if (['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'windows-1252', 'cp1252'].includes(label))
    return 'ISO-8859-1';
  return undefined;
}

/** Decodes urlencoded bytes; exported for tests that post raw Latin-1 bytes. */
export function decodeUrlencoded(bytes: Uint8Array, contentType = ''): FormBody {
  const pairs = splitUrlencoded(bytes);
  const declared = declaredCharset(contentType);
  if (declared === 'ISO-8859-1') {
    return {
      fields: pairs.map(([name, value]) => [decodeLatin1(name), decodeLatin1(value)]),
      charset: 'ISO-8859-1',
      charsetReason: 'named by the Content-Type',
    };
  }
  const utf8 = pairs.map(([name, value]) => [tryUtf8(name), tryUtf8(value)] as const);
  if (utf8.every(([name, value]) => name !== undefined && value !== undefined)) {
    return {
      fields: utf8.map(([name, value]) => [name ?? '', value ?? '']),
      charset: 'UTF-8',
      charsetReason: declared === 'UTF-8' ? 'named by the Content-Type' : 'every value is valid UTF-8',
    };
  }
  return {
    fields: pairs.map(([name, value]) => [decodeLatin1(name), decodeLatin1(value)]),
    charset: 'ISO-8859-1',
    charsetReason: 'some bytes are not valid UTF-8, so the post was read as ISO-8859-1',
  };
}

/** Reads the form fields of a POST request. */
export async function readFormBody(request: Request): Promise<FormBody> {
  const contentType = request.headers.get('content-type') ?? '';
  if (/^multipart\/form-data/i.test(contentType)) {
    const data = await request.formData();
    const fields: [string, string][] = [];
    for (const [name, value] of data.entries()) if (typeof value === 'string') fields.push([name, value]);
    return { fields, charset: 'UTF-8', charsetReason: 'multipart/form-data, read as UTF-8' };
  }
  return decodeUrlencoded(new Uint8Array(await request.arrayBuffer()), contentType);
}

const foldAscii = (name: string): string => name.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The first value of a field, the name compared without regard to ASCII case. */
export function formField(body: Pick<FormBody, 'fields'>, name: string): string | undefined {
  const wanted = foldAscii(name);
  return body.fields.find(([fieldName]) => foldAscii(fieldName) === wanted)?.[1];
}
