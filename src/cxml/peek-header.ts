/**
 * The `<Header>` of a cXML document, read before the document is. Nobody is known until the Header's
 * credentials are checked, and a stranger's worst-case 1 MB document cost over half a second of markup
 * checks and parsing before that; the Header is a few hundred bytes at the start of every request. So the
 * gateway reads just the Header — found within the first `HEADER_SCAN_CHARS` characters, checked and
 * parsed on its own — authenticates the sender, and only then reads the whole document (whose Header it
 * checks again, so a document whose real Header differs from what the scan saw gains nothing).
 */
import { decodeCxmlInput } from './decode-input.ts';
import { CxmlError } from './error.ts';
import { guardMarkup } from './markup-guard.ts';
import { type CxmlParseOptions, resolveParseLimits } from './parse-options.ts';
import { readHeader } from './read-header.ts';
import type { CxmlHeader } from './request-types.ts';
import { assertPlainSharedSecrets } from './shared-secret.ts';
import { parseXmlTree } from './xml-tree.ts';

/**
 * How far into a document its Header must have ended: real Headers are well under 16 KB (Ariba's, with
 * three From, four To and two Sender credentials, about 2 KB); reading this much costs a few milliseconds.
 */
export const HEADER_SCAN_CHARS = 128 * 1024;

const HEADER_START = /<Header[\s>]/;
const HEADER_END = '</Header>';

/** A posted document decoded to text, and its Header read on its own. */
export interface PeekedDocument {
  header: CxmlHeader;
  /** The whole document as text, for `parseCxmlRequest` once the sender is known. */
  text: string;
  /** The request element named after the Header (`PunchOutSetupRequest`, …), if one is seen near it. */
  requestName?: string;
}

/** The first element inside `<Request>`, looked for just after the Header (comments may stand between). */
const REQUEST_NAME = /^\s*(?:<!--[\s\S]*?-->\s*)*<Request\b[^>]*>\s*(?:<!--[\s\S]*?-->\s*)*<([A-Za-z]+)/;

/**
 * The Header of a posted document (decoded and size-checked as `parseCxmlRequest` does), or a `CxmlError`
 * saying why it cannot be read.
 *
 * @example
 * const { header, text } = peekCxmlHeader(bytes);
 * const buyer = buyers.authenticate(header);
 * const request = parseCxmlRequest(text);
 */
export function peekCxmlHeader(input: string | Uint8Array, options?: CxmlParseOptions): PeekedDocument {
  const limits = resolveParseLimits(options);
  const text = decodeCxmlInput(input, limits.maxBytes);
  const head = text.slice(0, HEADER_SCAN_CHARS);
  const start = head.search(HEADER_START);
  const end = start === -1 ? -1 : head.indexOf(HEADER_END, start);
  if (start === -1) {
    throw new CxmlError('missing_field', `cXML has no Header in its first ${HEADER_SCAN_CHARS / 1024} KB`);
  }
  if (end === -1) {
    throw new CxmlError(
      'invalid_value',
      `The cXML Header does not end within the first ${HEADER_SCAN_CHARS / 1024} KB of the document`,
    );
  }
  const after = end + HEADER_END.length;
  const fragment = head.slice(start, after);
  guardMarkup(fragment, limits);
  assertPlainSharedSecrets(fragment);
  const requestName = REQUEST_NAME.exec(text.slice(after, after + 4096))?.[1];
  return {
    header: readHeader(parseXmlTree(fragment)),
    text,
    ...(requestName !== undefined && { requestName }),
  };
}

/**
 * The first bytes of a document cut after its last `>`, so a head read off the wire decodes: a cut through a
 * UTF-8 character would read as invalid UTF-8, and `>` is one byte in every encoding punchgate reads.
 *
 * @example
 * const peeked = peekCxmlHeader(wholeTags(firstBytes));
 */
export function wholeTags(bytes: Uint8Array): Uint8Array {
  return bytes.subarray(0, bytes.lastIndexOf(0x3e) + 1);
}
