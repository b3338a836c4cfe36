/**
 * The frame of every operator console page: one inline stylesheet allowed by its hash, no script (but the
 * copy buttons' one, by its hash, on the pages that have them), no external asset, and `frame-ancestors 'none'` (unlike the punch-out pages, which procurement systems
 * frame, nothing has a reason to frame the console, and a framed console could be clickjacked into an
 * action). A skip link, one h1 per page, labelled fields and a visible focus ring keep it usable with a
 * keyboard and a screen reader.
 */
import type { Context } from 'hono';
import { cspSourceHash } from '../../../web/csp-hash.ts';
import { type HtmlValue, html, type SafeHtml, trustedHtml } from '../../http/html.ts';
import type { PageStatus } from '../../http/send-page.ts';

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;font-size:16px}
body{margin:0;background:#f5f6f8;line-height:1.45}
.skip{position:absolute;left:-999px;top:0;background:#fff;color:#1f3a5f;padding:.5rem 1rem;z-index:2}
.skip:focus{left:1rem}
header{background:#1f3a5f;color:#fff;padding:.6rem 1.25rem;display:flex;flex-wrap:wrap;gap:1rem;justify-content:space-between;align-items:center}
header a{color:#fff}
header nav ul{list-style:none;margin:0;padding:0;display:flex;gap:1.25rem;flex-wrap:wrap}
header nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header form{margin:0}
header button{background:transparent;color:#fff;border-color:#fff}
main{max-width:78rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.75rem 0 .5rem}
table{width:100%;border-collapse:collapse;background:#fff;margin:.5rem 0}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border-bottom:1px solid #d5dae1;padding:.4rem .5rem;text-align:left;vertical-align:top}
td.num,th.num{text-align:right}
tr.deviation td{background:#fff3cd}
.deviation-note{font-weight:600;color:#8a4b00}
button,.button{font:inherit;padding:.4rem .85rem;border-radius:.35rem;border:1px solid #1f3a5f;background:#fff;color:#1f3a5f;cursor:pointer;text-decoration:none;display:inline-block}
button.primary{background:#1f3a5f;color:#fff}
button.danger{background:#8b1c13;border-color:#8b1c13;color:#fff}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
label{display:block;font-weight:600;margin-bottom:.2rem}
input,select,textarea{font:inherit;padding:.35rem;border:1px solid #8a94a6;border-radius:.25rem;background:#fff}
textarea{width:100%;max-width:40rem;min-height:5rem}
form.search{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-end;background:#fff;border:1px solid #d5dae1;padding:.75rem;border-radius:.35rem}
.field{display:flex;flex-direction:column}
.notice{background:#fff8e1;border:1px solid #f0c36d;padding:.75rem 1rem;border-radius:.35rem;margin:1rem 0}
.error{background:#fdecea;border:1px solid #e57373;padding:.75rem 1rem;border-radius:.35rem;margin:1rem 0}
.ok{background:#e8f5e9;border:1px solid #81c784;padding:.75rem 1rem;border-radius:.35rem;margin:1rem 0}
.muted{color:#4f596b;font-size:.92rem}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.75rem;margin:0;padding:0}
.figures div{background:#fff;border:1px solid #d5dae1;border-radius:.35rem;padding:.6rem .8rem}
.figures dt{font-size:.9rem;color:#4f596b}
.figures dd{margin:0;font-size:1.3rem;font-weight:600}
pre{background:#fff;border:1px solid #d5dae1;padding:.75rem;overflow:auto;max-height:40rem;white-space:pre-wrap;word-break:break-all;font-size:.85rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;border:1px solid #d5dae1;padding:.75rem;margin:.5rem 0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;align-items:flex-end;margin:.5rem 0}
form.actions{background:#fff;border:1px solid #d5dae1;border-radius:.35rem;padding:.6rem .8rem}
`;

/**
 * What a copy button does (`copyButton`): copies its field's text, and says so on the button. The field is
 * a read-only text area an operator can also select by hand, so the page works where the script cannot
 * (the Clipboard API needs HTTPS or localhost; `execCommand` is the fallback elsewhere). One listener for
 * the page, since the CSP allows no inline event handler.
 */
const COPY_SCRIPT = `document.addEventListener('click',function(e){var b=e.target.closest&&e.target.closest('button[data-copy]');if(!b)return;var f=document.getElementById(b.getAttribute('data-copy'));if(!f)return;f.select();var said=function(t){b.textContent=t;};if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(f.value).then(function(){said('Copied');},function(){said('Selected: press Ctrl+C');});}else{said(document.execCommand('copy')?'Copied':'Selected: press Ctrl+C');}});`;

let styleHash: Promise<string> | undefined;
let copyScriptHash: Promise<string> | undefined;

/**
 * The console's Content-Security-Policy: its stylesheet by hash, no script but the copy buttons' (by its
 * hash, only on a page that has them), nothing else from anywhere.
 */
async function consoleCsp(copyButtons: boolean): Promise<string> {
  styleHash ??= cspSourceHash(STYLE);
  copyScriptHash ??= cspSourceHash(COPY_SCRIPT);
  return [
    "default-src 'none'",
    `style-src ${await styleHash}`,
    `script-src ${copyButtons ? await copyScriptHash : "'none'"}`,
    "img-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The console's sections, each a page that exists; `current` marks the one shown. */
type Section = 'overview' | 'orders' | 'buyers' | 'refusals';

const NAV: ReadonlyArray<{ section: Section; label: string; href: string }> = [
  { section: 'overview', label: 'Overview', href: '/admin/' },
  { section: 'orders', label: 'Purchase orders', href: '/admin/ui/orders' },
  { section: 'buyers', label: 'Buyers', href: '/admin/ui/buyers' },
  { section: 'refusals', label: 'Refusals', href: '/admin/ui/refusals' },
];

export interface ConsolePage {
  title: string;
  body: SafeHtml;
  /** The signed-in frame (navigation and sign-out) when set; the sign-in page has none. */
  signedIn?: { csrf: string; section?: Section };
  /** The page has copy buttons (`copyButton`): their script comes with it, allowed by its hash. */
  copyButtons?: boolean;
}

/**
 * A read-only text area holding `text`, and a button that copies it (the page needs `copyButtons`). `id`
 * must be unique on the page.
 */
export function copyableText(id: string, label: string, text: string, rows: number): SafeHtml {
  return html`<label for="${id}">${label}</label>
<textarea id="${id}" readonly rows="${rows}" spellcheck="false">${text}</textarea>
<p><button type="button" data-copy="${id}">Copy</button></p>`;
}

function navigation(signedIn: NonNullable<ConsolePage['signedIn']>): SafeHtml {
  const items = NAV.map(
    (n) =>
      html`<li><a href="${n.href}"${n.section === signedIn.section ? trustedHtml(' aria-current="page"') : ''}>${n.label}</a></li>`,
  );
  return html`<nav aria-label="Console"><ul>${items}</ul></nav>
<form method="post" action="/admin/ui/sign-out"><input type="hidden" name="csrf" value="${signedIn.csrf}"><button type="submit">Sign out</button></form>`;
}

function renderConsolePage(page: ConsolePage): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${page.title} · punchgate console</title>
<style>${trustedHtml(STYLE)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><strong>punchgate console</strong>${page.signedIn === undefined ? '' : navigation(page.signedIn)}</header>
<main id="main" tabindex="-1">
<h1>${page.title}</h1>
${page.body}
</main>
${page.copyButtons === true ? html`<script>${trustedHtml(COPY_SCRIPT)}</script>` : ''}
</body>
</html>`.value;
}

/** Sends a console page with its CSP, no-store (every page shows buyers' orders) and no framing. */
export async function sendConsolePage(
  c: Context,
  page: ConsolePage,
  status: PageStatus = 200,
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  c.header('Content-Security-Policy', await consoleCsp(page.copyButtons === true));
  c.header('Cache-Control', 'no-store');
  c.header('X-Frame-Options', 'DENY');
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.html(renderConsolePage(page), status);
}

/** A short paragraph of a kind (`notice`, `error`, `ok`) announced to screen readers. */
export function message(kind: 'notice' | 'error' | 'ok', text: HtmlValue): SafeHtml {
  const role = kind === 'error' ? 'alert' : 'status';
  return html`<p class="${kind}" role="${role}">${text}</p>`;
}
