/**
 * `multipart/related` messages as buyers' systems send POs with attachments (cXML User's Guide,
 * "Attachment Transmission"): the cXML part first, each file a part with a Content-ID that the document
 * names as a `cid:` URL, written here byte by byte so a test controls every header and encoding.
 */

export interface MimePartIn {
  /** Header lines of the part, in order ("Content-Type: application/pdf"). */
  readonly headers: readonly string[];
  /** The part's body exactly as it goes on the wire (already encoded). */
  readonly body: string | Uint8Array;
}

export const BOUNDARY = '----=_Part_7_1804289383.1714730000000';

const encoder = new TextEncoder();
const bytesOf = (value: string | Uint8Array) => (typeof value === 'string' ? encoder.encode(value) : value);

/** The body of a multipart message: each part after a boundary line, the closing boundary last. */
export function multipartBody(
  parts: readonly MimePartIn[],
  options: { boundary?: string; preamble?: string } = {},
): Uint8Array {
  const boundary = options.boundary ?? BOUNDARY;
  const chunks: Uint8Array[] = [];
  if (options.preamble !== undefined) chunks.push(encoder.encode(options.preamble));
  for (const part of parts) {
    chunks.push(encoder.encode(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`));
    chunks.push(bytesOf(part.body));
    chunks.push(encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/** The request's Content-Type for `multipartBody`, with the cXML part's Content-ID as `start` when given. */
export function relatedContentType(options: { boundary?: string; start?: string } = {}): string {
  const start = options.start === undefined ? '' : `; start="<${options.start}>"`;
  return `multipart/related; boundary="${options.boundary ?? BOUNDARY}"; type="text/xml"${start}`;
}

/** The cXML part as buyers send it: UTF-8 text/xml, 8bit, with a Content-ID. */
export function cxmlPart(xml: string, contentId = 'cxml-po@buyer.example'): MimePartIn {
  return {
    headers: [
      'Content-Type: text/xml; charset=UTF-8',
      'Content-Transfer-Encoding: 8bit',
      `Content-ID: <${contentId}>`,
    ],
    body: xml,
  };
}

/** A file part in base64 wrapped at 76 characters, as mail-style MIME writers send it. */
export function base64Part(
  content: Uint8Array,
  options: { contentId: string; contentType?: string; filename?: string },
): MimePartIn {
  let binary = '';
  for (const byte of content) binary += String.fromCharCode(byte);
  const lines = btoa(binary).match(/.{1,76}/g) ?? [];
  return {
    headers: [
      `Content-Type: ${options.contentType ?? 'application/pdf'}${options.filename === undefined ? '' : `; name="${options.filename}"`}`,
      'Content-Transfer-Encoding: base64',
      `Content-ID: <${options.contentId}>`,
      ...(options.filename === undefined
        ? []
        : [`Content-Disposition: attachment; filename="${options.filename}"`]),
    ],
    body: lines.join('\r\n'),
  };
}

/**
 * A small PDF (one empty page) as a print buyer attaches one: the bytes a download must give back, with
 * bytes no text encoding survives (NUL, 0xFF, a lone CR) so a lossy step shows.
 */
export function samplePdf(note = 'artwork'): Uint8Array {
  const text = encoder.encode(
    `%PDF-1.4\n% ${note}\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n` +
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\n' +
      'trailer << /Root 1 0 R >>\n%%EOF\n',
  );
  const binary = [0x00, 0xff, 0x80, 0x0d, 0xe2, 0xe3, 0xcf, 0xd3];
  const pdf = new Uint8Array(text.length + binary.length);
  pdf.set(text, 0);
  pdf.set(binary, text.length);
  return pdf;
}
