/**
 * cXML sent as MIME `multipart/related` (cXML User's Guide, "Attachment Transmission"): the cXML document is
 * one part (the one the `start` parameter names, else the first) and the files it refers to by `cid:` URLs
 * are the others. The multipart framing is read by `@remix-run/multipart-parser` (web APIs only, so it runs
 * on Workers as on Node); what it leaves to its callers is done here: finding the cXML part, and decoding
 * each part's Content-Transfer-Encoding strictly, so a part that is not what its header says is refused
 * by name instead of being stored as garbage.
 *
 * Pure module: bytes and header text in, parts or a `CxmlError` out.
 */
import { MultipartParseError, type MultipartPart, parseMultipart } from '@remix-run/multipart-parser';
import { base64ToBytes } from '../kernel/base64.ts';
import { CxmlError } from './error.ts';
import type { AttachmentReference } from './request-types.ts';

/** A MIME body as its Content-Type announces it. */
export interface MultipartFraming {
  /** `multipart/related` as buyers send it (any `multipart/*` is read the same way). */
  readonly mediaType: string;
  readonly boundary: string;
  /** The Content-ID of the cXML part (the `start` parameter, brackets removed), when given. */
  readonly start?: string;
}

/** A part of the message other than the cXML document, decoded. */
export interface MimeAttachment {
  /** Its place in the message, from 1 (the cXML part counts). */
  readonly position: number;
  /** Its Content-ID without the angle brackets: what a `cid:` URL names. */
  readonly contentId?: string;
  /** The media type its Content-Type header names, lower-cased; `application/octet-stream` when none. */
  readonly contentType: string;
  /** The file name its Content-Disposition (or Content-Type `name`) gives. */
  readonly filename?: string;
  readonly content: Uint8Array;
}

/** A multipart message read whole: the cXML document's bytes and every other part. */
export interface CxmlMessage {
  readonly cxml: Uint8Array;
  readonly attachments: readonly MimeAttachment[];
}

/** More parts than any PO carries; a message with more is refused before they cost anything. */
const MAX_PARTS = 100;

/** A part's header block, Content-ID and file names included, is a few hundred bytes. */
const MAX_PART_HEADER_BYTES = 16 * 1024;

/**
 * One parameter of a header value (`boundary`, `start`, `name`), unquoted; undefined when absent.
 *
 * @example
 * headerParameter('multipart/related; boundary="b1"; start="<po@x>"', 'start'); // '<po@x>'
 */
function headerParameter(value: string, name: string): string | undefined {
  const pattern = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    if (match[1]?.toLowerCase() !== name) continue;
    const found = match[2] === undefined ? (match[3] ?? '').trim() : match[2].replace(/\\(.)/g, '$1');
    return found;
  }
  return undefined;
}

/** `<id@host>` or `cid:id@host` as the bare Content-ID both stand for. */
function contentIdOf(value: string): string {
  const trimmed = value.trim().replace(/^cid:/i, '');
  const bare = trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1) : trimmed;
  // A cid: URL is URL-encoded (RFC 2392); a Content-ID header is not.
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

/**
 * The framing a request's Content-Type announces: undefined for anything but `multipart/*` (a plain cXML
 * document, whatever its XML media type), and a `CxmlError` for a multipart type without a boundary.
 *
 * @example
 * multipartFraming('multipart/related; boundary=b1; type="text/xml"'); // { mediaType: 'multipart/related', boundary: 'b1' }
 */
export function multipartFraming(contentType: string | undefined): MultipartFraming | undefined {
  if (contentType === undefined) return undefined;
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (!mediaType.startsWith('multipart/')) return undefined;
  const boundary = headerParameter(contentType, 'boundary');
  if (boundary === undefined || boundary === '' || boundary.length > 200) {
    throw new CxmlError('bad_mime', `The ${mediaType} Content-Type has no usable boundary parameter`);
  }
  const start = headerParameter(contentType, 'start');
  return { mediaType, boundary, ...(start !== undefined && start !== '' && { start: contentIdOf(start) }) };
}

/**
 * Reads a whole multipart message: the cXML part (the one `start` names, else the first) and every other
 * part as an attachment, each decoded. Refuses with a `CxmlError` `bad_mime` naming the part: framing that
 * cannot be read, a Content-ID two parts share, a transfer encoding that is unknown or a body that is not
 * what it says, a `start` no part carries, a cXML part that is not XML.
 *
 * @example
 * const { cxml, attachments } = readCxmlMessage(body, multipartFraming(contentType)!);
 * parseCxmlRequest(cxml);
 */
export function readCxmlMessage(body: Uint8Array, framing: MultipartFraming): CxmlMessage {
  const parts = readParts(body, framing, false);
  const at = cxmlPartIndex(parts, framing, true);
  const cxmlPart = parts[at] as ReadPart;
  const attachments = parts.filter((_, index) => index !== at).map(decodedAttachment);
  const seen = new Set<string>();
  for (const part of parts) {
    if (part.contentId === undefined) continue;
    if (seen.has(part.contentId)) {
      throw new CxmlError('bad_mime', `Two parts of the message have Content-ID <${part.contentId}>`);
    }
    seen.add(part.contentId);
  }
  return { cxml: decodedBody(cxmlPart, false), attachments };
}

/**
 * The cXML part as far as `head` (the first bytes of the message) holds it, decoded: what the route reads
 * the Header from before it knows the sender. Undefined when the cXML part does not begin in `head`.
 */
export function cxmlPartInHead(head: Uint8Array, framing: MultipartFraming): Uint8Array | undefined {
  // The head ends wherever the read stopped: closing the message there lets the parser hand over the part
  // it was in, cut short (and, should the cut fall in a boundary line, with that line's start as content).
  const closed = concat(head, new TextEncoder().encode(`\r\n--${framing.boundary}--\r\n`));
  let parts: ReadPart[];
  try {
    parts = readParts(closed, framing, true);
  } catch {
    return undefined;
  }
  const at = cxmlPartIndex(parts, framing, false);
  return at === undefined ? undefined : decodedBody(parts[at] as ReadPart, true);
}

/** A part as framed, its headers read and its body still encoded. */
interface ReadPart {
  readonly position: number;
  readonly contentId?: string;
  readonly contentType: string;
  readonly filename?: string;
  readonly encoding: string;
  readonly body: Uint8Array;
}

function readParts(body: Uint8Array, framing: MultipartFraming, cutShort: boolean): ReadPart[] {
  const message = withoutPreamble(body, framing);
  const parts: ReadPart[] = [];
  try {
    for (const part of parseMultipart(message, {
      boundary: framing.boundary,
      maxHeaderSize: MAX_PART_HEADER_BYTES,
      maxFileSize: message.byteLength,
      maxTotalSize: message.byteLength,
      maxParts: MAX_PARTS,
    })) {
      parts.push(readPart(part, parts.length + 1));
    }
  } catch (error) {
    if (error instanceof CxmlError) throw error;
    if (!(error instanceof MultipartParseError) && !(error instanceof TypeError)) throw error;
    // Parts before the fault were read whole; a cut-short head is expected to end in the middle of one.
    if (cutShort && parts.length > 0) return parts;
    throw new CxmlError('bad_mime', `The ${framing.mediaType} message cannot be read: ${error.message}`);
  }
  if (parts.length === 0) throw new CxmlError('bad_mime', `The ${framing.mediaType} message has no parts`);
  return parts;
}

/**
 * The message from its first boundary on: MIME allows a preamble before it (and mail-style writers send
 * a line break or a "This is a multi-part message" line), which the parser does not expect.
 */
function withoutPreamble(body: Uint8Array, framing: MultipartFraming): Uint8Array {
  const delimiter = new TextEncoder().encode(`--${framing.boundary}`);
  for (let at = indexOf(body, delimiter, 0); at !== -1; at = indexOf(body, delimiter, at + 1)) {
    if (at === 0 || body[at - 1] === 0x0a) return at === 0 ? body : body.subarray(at);
  }
  throw new CxmlError(
    'bad_mime',
    `The ${framing.mediaType} message has no part: its boundary "${framing.boundary}" does not occur in the body`,
  );
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (let at = haystack.indexOf(first as number, from); at !== -1 && at <= last; ) {
    let match = true;
    for (let i = 1; i < needle.length; i++) {
      if (haystack[at + i] !== needle[i]) {
        match = false;
        break;
      }
    }
    if (match) return at;
    at = haystack.indexOf(first as number, at + 1);
  }
  return -1;
}

function readPart(part: MultipartPart, position: number): ReadPart {
  let headers: Readonly<Record<string, string | undefined>>;
  try {
    headers = part.headers;
  } catch {
    throw new CxmlError('bad_mime', `Part ${position} of the message has headers that are not UTF-8`);
  }
  const contentTypeHeader = headers['content-type'] ?? '';
  const contentType = (contentTypeHeader.split(';')[0] ?? '').trim().toLowerCase();
  const contentId = headers['content-id'];
  const filename = filenameOf(part, contentTypeHeader);
  return {
    position,
    ...(contentId !== undefined && contentId.trim() !== '' && { contentId: contentIdOf(contentId) }),
    contentType: contentType === '' ? 'application/octet-stream' : contentType,
    ...(filename !== undefined && { filename }),
    encoding: (headers['content-transfer-encoding'] ?? '7bit').trim().toLowerCase(),
    body: part.bytes,
  };
}

function filenameOf(part: MultipartPart, contentType: string): string | undefined {
  let name: string | undefined;
  try {
    name = part.filename;
  } catch {
    name = undefined;
  }
  name ??= headerParameter(contentType, 'name');
  // Only the last path segment: some mail-style writers send the sender's whole local path.
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base === undefined || base === '' ? undefined : base;
}

/** Where the cXML part is among `parts`; `whole` says a `start` no part carries is an error, not "not yet". */
function cxmlPartIndex(parts: readonly ReadPart[], framing: MultipartFraming, whole: true): number;
function cxmlPartIndex(
  parts: readonly ReadPart[],
  framing: MultipartFraming,
  whole: boolean,
): number | undefined;
function cxmlPartIndex(
  parts: readonly ReadPart[],
  framing: MultipartFraming,
  whole: boolean,
): number | undefined {
  const at = framing.start === undefined ? 0 : parts.findIndex((part) => part.contentId === framing.start);
  if (at === -1) {
    if (!whole) return undefined;
    throw new CxmlError(
      'bad_mime',
      `The start parameter names <${framing.start}>, and no part of the message has that Content-ID`,
    );
  }
  const part = parts[at] as ReadPart;
  if (!isXml(part.contentType)) {
    throw new CxmlError(
      'bad_mime',
      `Part ${part.position}${describeId(part)} of the message is ${part.contentType}, not the cXML document: ` +
        'the cXML part (text/xml) goes first or is named by the start parameter',
    );
  }
  return at;
}

/** An XML media type, or none given (a part without Content-Type is tried as the document). */
function isXml(mediaType: string): boolean {
  return (
    mediaType === 'application/octet-stream' ||
    mediaType === 'text/xml' ||
    mediaType === 'application/xml' ||
    mediaType.endsWith('+xml')
  );
}

const describeId = (part: Pick<ReadPart, 'contentId'>) =>
  part.contentId === undefined ? '' : ` (Content-ID <${part.contentId}>)`;

function decodedAttachment(part: ReadPart): MimeAttachment {
  return {
    position: part.position,
    ...(part.contentId !== undefined && { contentId: part.contentId }),
    contentType: part.contentType,
    ...(part.filename !== undefined && { filename: part.filename }),
    content: decodedBody(part, false),
  };
}

/**
 * A part's body with its Content-Transfer-Encoding undone. `cutShort`: the body ends where a read stopped,
 * so a last base64 quantum or quoted-printable escape may be incomplete, and is left off.
 */
function decodedBody(part: ReadPart, cutShort: boolean): Uint8Array {
  switch (part.encoding) {
    case '7bit':
    case '8bit':
    case 'binary':
      return part.body;
    case 'base64': {
      // Base64 is ASCII: any other byte decodes to U+FFFD, which the alphabet check then refuses.
      let text = new TextDecoder().decode(part.body);
      if (cutShort) {
        const compact = text.replace(/\s+/g, '');
        text = compact.slice(0, compact.length - (compact.length % 4));
      }
      const bytes = base64ToBytes(text);
      if (bytes === undefined) throw undecodable(part, 'is not valid base64');
      return bytes;
    }
    case 'quoted-printable': {
      const bytes = decodeQuotedPrintable(cutShort ? withoutCutEscape(part.body) : part.body);
      if (bytes === undefined) throw undecodable(part, 'is not valid quoted-printable');
      return bytes;
    }
    default:
      throw undecodable(
        part,
        `has Content-Transfer-Encoding "${part.encoding}"; base64, quoted-printable, 7bit, 8bit and binary are read`,
      );
  }
}

function undecodable(part: ReadPart, problem: string): CxmlError {
  const named = part.filename === undefined ? '' : ` "${part.filename}"`;
  return new CxmlError('bad_mime', `Part ${part.position}${describeId(part)}${named} ${problem}`);
}

/** A quoted-printable body cut short, without an `=` escape the cut split. */
function withoutCutEscape(body: Uint8Array): Uint8Array {
  const equals = body.lastIndexOf(0x3d);
  return equals !== -1 && equals >= body.length - 2 ? body.subarray(0, equals) : body;
}

const hexValue = (byte: number | undefined): number => {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
};

/**
 * Quoted-printable (RFC 2045 §6.7) decoded: `=XX` is the byte XX, `=` at the end of a line (after optional
 * trailing blanks) a soft line break. Undefined for an `=` that is neither.
 */
function decodeQuotedPrintable(body: Uint8Array): Uint8Array | undefined {
  const out = new Uint8Array(body.length);
  let length = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i] as number;
    if (byte !== 0x3d) {
      out[length++] = byte;
      continue;
    }
    const high = hexValue(body[i + 1]);
    const low = hexValue(body[i + 2]);
    if (high !== -1 && low !== -1) {
      out[length++] = (high << 4) | low;
      i += 2;
      continue;
    }
    let next = i + 1;
    while (body[next] === 0x20 || body[next] === 0x09) next++;
    if (next === body.length) break;
    if (body[next] === 0x0d && body[next + 1] === 0x0a) next++;
    if (body[next] !== 0x0a) return undefined;
    i = next;
  }
  return out.subarray(0, length);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

/**
 * Every `cid:` URL of `references` names one of `attachments`; else a `CxmlError` naming the first element
 * whose part the message lacks. Other URLs (a buyer's https link, a bare file name) are not parts of the
 * message and are left alone, as are parts nobody refers to.
 *
 * @example
 * assertReferencedPartsPresent(request.attachments, message.attachments);
 */
export function assertReferencedPartsPresent(
  references: readonly AttachmentReference[],
  attachments: readonly Pick<MimeAttachment, 'contentId'>[],
): void {
  const present = new Set(attachments.map((part) => part.contentId));
  for (const reference of references) {
    if (!/^cid:/i.test(reference.url)) continue;
    const id = contentIdOf(reference.url);
    if (!present.has(id)) {
      throw new CxmlError(
        'missing_field',
        `${reference.at}/URL names cid:${id}, and the message has no part with Content-ID <${id}>`,
      );
    }
  }
}
