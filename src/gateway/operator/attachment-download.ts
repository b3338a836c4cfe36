/**
 * A PO's attachments for operators: listed with what they are, and handed out as downloads. The bytes are
 * the buyer's, and the type their part declared is the buyer's word: a part declared `text/html` or
 * `image/svg+xml` served as such from the gateway's origin would run its script there, beside the console
 * and its session. So a download is always `Content-Disposition: attachment`, never sniffed, sandboxed by
 * CSP, and its Content-Type is the declared one only when that is an inert type; anything else is
 * `application/octet-stream`.
 */
import type { AttachmentFile, AttachmentInfo } from '../../store/types.ts';
import type { AttachmentView } from './admin-schemas.ts';

/** Types a browser shows or saves without running anything of the file's in the page's origin. */
const INERT_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'application/postscript',
  'application/zip',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/tiff',
  'image/webp',
  'text/plain',
  'text/csv',
]);

/** The Content-Type a download is served with: the declared type if inert, else a plain byte stream. */
function servedContentType(declared: string): string {
  return INERT_TYPES.has(declared) ? declared : 'application/octet-stream';
}

/** The file name a download is saved as: the buyer's, else one made of the PO and the part's place. */
function savedName(file: AttachmentInfo): string {
  return (
    file.filename ??
    `po-${file.poId}-part-${file.position}${file.contentType === 'application/pdf' ? '.pdf' : ''}`
  );
}

/**
 * `attachment` with the name twice: an ASCII stand-in for old clients and the exact name as RFC 6266's
 * `filename*` (UTF-8, percent-encoded), so a name with quotes, line breaks or non-ASCII letters can neither
 * break the header nor be lost.
 */
function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The download of a stored attachment.
 *
 * @example
 * const file = await ctx.store.attachments.get(poId, 2);
 * if (file) return attachmentResponse(file);
 */
export function attachmentResponse(file: AttachmentFile): Response {
  return new Response(file.content, {
    status: 200,
    headers: {
      'Content-Type': servedContentType(file.contentType),
      'Content-Length': String(file.content.length),
      'Content-Disposition': attachmentDisposition(savedName(file)),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'no-store',
    },
  });
}

/** An attachment as the admin API lists it, with the path of its download under `base`. */
export function attachmentView(file: AttachmentInfo, base: string): AttachmentView {
  return {
    position: file.position,
    contentId: file.contentId ?? null,
    filename: file.filename ?? null,
    contentType: file.contentType,
    size: file.size,
    download: `${base}/orders/${encodeURIComponent(file.poId)}/attachments/${file.position}`,
  };
}
