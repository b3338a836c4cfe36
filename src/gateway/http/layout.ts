/**
 * The frame of every page the gateway shows a buyer: no external assets, no cookies, one stylesheet and
 * at most one script, both inline and allowed by hash in the Content-Security-Policy, so a page works
 * inside a procurement system's iframe and nothing injected can run.
 */

import { cspSourceHash } from '../../web/csp-hash.ts';
import { type HtmlValue, html, type SafeHtml, trustedHtml } from './html.ts';

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433}
body{margin:0;background:#f5f6f8}
header{background:#1f3a5f;color:#fff;padding:.75rem 1.25rem;display:flex;justify-content:space-between;align-items:center}
header a{color:#fff}
main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem}
h1{font-size:1.4rem;margin:.5rem 0 1rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}
.card{background:#fff;border:1px solid #d5dae1;border-radius:.5rem;padding:1rem;display:flex;flex-direction:column;gap:.5rem}
.card img{max-width:100%;height:auto;align-self:center}
.price{font-weight:600}
table{width:100%;border-collapse:collapse;background:#fff}
th,td{border-bottom:1px solid #d5dae1;padding:.5rem;text-align:left;vertical-align:middle}
td.num,th.num{text-align:right}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
button,.button{font:inherit;padding:.45rem .9rem;border-radius:.35rem;border:1px solid #1f3a5f;background:#fff;color:#1f3a5f;cursor:pointer;text-decoration:none;display:inline-block}
button.primary,.button.primary{background:#1f3a5f;color:#fff}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
input[type=number]{width:6rem;font:inherit;padding:.3rem}
input[type=search]{font:inherit;padding:.3rem;min-width:14rem}
form.actions{align-items:center}
.notice{background:#fff8e1;border:1px solid #f0c36d;padding:.75rem 1rem;border-radius:.35rem}
.error{background:#fdecea;border:1px solid #e57373;padding:.75rem 1rem;border-radius:.35rem}
.muted{color:#5b6577;font-size:.9rem}
form.inline{display:inline}
`;

/** Submits the one form marked `data-autosubmit` as soon as the page loads; the button stays for no-script. */
const AUTOSUBMIT_SCRIPT = `document.addEventListener('DOMContentLoaded',function(){var f=document.querySelector('form[data-autosubmit]');if(f){f.submit();}});`;

let hashes: Promise<{ style: string; script: string }> | undefined;

function inlineHashes(): Promise<{ style: string; script: string }> {
  hashes ??= Promise.all([cspSourceHash(STYLE), cspSourceHash(AUTOSUBMIT_SCRIPT)]).then(
    ([style, script]) => ({
      style,
      script,
    }),
  );
  return hashes;
}

export interface PageSecurity {
  /** Hosts (with optional port) allowed to frame the page; the page's own origin is always allowed. */
  frameAncestors: readonly string[];
  /**
   * Origins forms may post to besides our own; `any` leaves form-action out, for the pages that post to
   * the buyer (browsers apply form-action to the redirects that follow the post as well).
   */
  formActions?: readonly string[] | 'any';
  /** Origins images may come from besides our own (the editor host's thumbnails). */
  imageOrigins?: readonly string[];
}

/** The Content-Security-Policy of a gateway page. */
export async function contentSecurityPolicy(security: PageSecurity): Promise<string> {
  const { style, script } = await inlineHashes();
  const ancestors = security.frameAncestors.length > 0 ? ` ${security.frameAncestors.join(' ')}` : '';
  return [
    "default-src 'none'",
    `style-src ${style}`,
    `script-src ${script}`,
    `img-src 'self' data:${(security.imageOrigins ?? []).map((o) => ` ${o}`).join('')}`,
    security.formActions === 'any'
      ? undefined
      : `form-action 'self'${(security.formActions ?? []).map((o) => ` ${o}`).join('')}`,
    `frame-ancestors 'self'${ancestors}`,
    "base-uri 'none'",
  ]
    .filter((directive) => directive !== undefined)
    .join('; ');
}

export interface PageOptions {
  /** The page's language (`<html lang>`); English unless a session or the browser says otherwise. */
  lang?: string;
  title: string;
  heading?: HtmlValue;
  body: SafeHtml;
  /** Includes the auto-submit script (transfer and return pages). */
  autoSubmit?: boolean;
  /** Shown at the top right, e.g. the buyer's name. */
  context?: string;
}

export function renderPage(options: PageOptions): string {
  const script = options.autoSubmit ? html`<script>${trustedHtml(AUTOSUBMIT_SCRIPT)}</script>` : '';
  return html`<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title}</title>
<style>${trustedHtml(STYLE)}</style>
${script}
</head>
<body>
<header><strong>${options.title}</strong><span>${options.context ?? ''}</span></header>
<main>
${options.heading === undefined ? '' : html`<h1>${options.heading}</h1>`}
${options.body}
</main>
</body>
</html>`.value;
}
