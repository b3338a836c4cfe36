/**
 * Sending the pages the OCI codec renders (transfer, VALIDATE answer, search results): the bytes in the
 * buyer's charset with a matching Content-Type, never cached (they hold prices and the buyer's HOOK_URL),
 * and a Content-Security-Policy of their own, because their one inline script is the codec's auto-submit
 * and they have no style. No `form-action`: the buyer's system redirects after receiving the cart, and
 * browsers apply form-action to those redirects too.
 */
import {
  charsetLabel,
  encodeHtml,
  OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE,
  type OciCharset,
} from '../../oci/index.ts';

export interface OciPageOptions {
  readonly charset: OciCharset;
  /** Hosts allowed to frame the page besides our own origin (the buyer's). */
  readonly frameAncestors: readonly string[];
  /** The page carries the codec's auto-submit script. */
  readonly autoSubmit: boolean;
}

/**
 * @example
 * return ociPageResponse(renderOciTransferForm(input), { charset, frameAncestors, autoSubmit: true });
 */
export function ociPageResponse(page: string, options: OciPageOptions): Response {
  const ancestors = options.frameAncestors.map((host) => ` ${host}`).join('');
  const policy = [
    "default-src 'none'",
    `script-src ${options.autoSubmit ? OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE : "'none'"}`,
    `frame-ancestors 'self'${ancestors}`,
    "base-uri 'none'",
  ].join('; ');
  // A copy typed over a plain ArrayBuffer, which is what BodyInit accepts.
  return new Response(new Uint8Array(encodeHtml(page, options.charset)), {
    status: 200,
    headers: {
      'Content-Type': `text/html; charset=${charsetLabel(options.charset)}`,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': policy,
    },
  });
}
