/**
 * The frame of every simulator page: one inline stylesheet and one inline script, both allowed by hash
 * in the Content-Security-Policy, no external assets, no cookies. Values reach markup only through
 * hono's `html` template, which escapes every interpolation that is not itself markup.
 *
 * The script does three small things, switched by attributes so the page works without it:
 * `data-breakout` lifts a page that landed inside the catalog frame to the whole window,
 * `form[data-autosubmit]` posts the OCI punch-in into the frame, and `data-poll-url` reloads the page
 * when the requisition changes (order-status documents arriving).
 */
import { html, raw } from 'hono/html';
import { cspSourceHash } from 'punchgate/web/csp-hash';

export type Html = ReturnType<typeof html>;

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2430;--accent:#0b5d6b;--accent-2:#e7f3f5;--line:#d6dde4;--muted:#5a6675}
*{box-sizing:border-box}
body{margin:0;background:#f3f5f7;line-height:1.45}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.4rem .6rem;z-index:2}
header.bar{background:var(--accent);color:#fff;padding:.6rem 1.25rem;display:flex;gap:1rem;align-items:center;justify-content:space-between;flex-wrap:wrap}
header.bar a{color:#fff;text-decoration:none;font-weight:600}
header.bar .who{font-size:.9rem;opacity:.9}
main{max-width:72rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.45rem;margin:.6rem 0 .4rem}
h2{font-size:1.1rem;margin:0 0 .6rem}
h3{font-size:1rem;margin:.8rem 0 .4rem}
p.lead{color:var(--muted);margin:.2rem 0 1rem;max-width:52rem}
section.card{background:#fff;border:1px solid var(--line);border-radius:.5rem;padding:1rem 1.1rem;margin:1rem 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));gap:.8rem}
fieldset{border:0;padding:0;margin:0 0 1rem}
legend{font-weight:600;margin-bottom:.5rem}
label.choice{display:flex;gap:.6rem;align-items:flex-start;border:1px solid var(--line);border-radius:.45rem;padding:.7rem .8rem;background:#fff;cursor:pointer}
label.choice:has(input:checked){border-color:var(--accent);background:var(--accent-2)}
label.choice input{margin-top:.25rem}
.choice small{display:block;color:var(--muted);margin-top:.2rem}
.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:.05rem .45rem;border-radius:1rem;background:#e4e8ec;color:#26323f;vertical-align:middle}
.badge.cxml{background:#dceefc;color:#0b4a78}.badge.oci{background:#fdebd3;color:#7a4300}
.pill{display:inline-block;padding:.1rem .55rem;border-radius:1rem;font-size:.8rem;font-weight:600;background:#e4e8ec}
.pill.test{background:#e8e0f7;color:#4b2a8a}.pill.good{background:#dff3e4;color:#17602d}.pill.bad{background:#fbe1e1;color:#8a1c1c}.pill.wait{background:#fff2cc;color:#6b4e00}
table{width:100%;border-collapse:collapse;font-size:.92rem}
caption{text-align:left;font-weight:600;padding-bottom:.4rem}
th,td{border-bottom:1px solid var(--line);padding:.45rem .5rem;text-align:left;vertical-align:top}
th{background:#f7f9fa;font-weight:600}
td.num,th.num{text-align:right;white-space:nowrap}
tfoot td{font-weight:600;border-bottom:0}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
.mono{word-break:break-all}
pre{background:#0f1720;color:#e6edf3;padding:.8rem;border-radius:.4rem;overflow:auto;max-height:28rem;white-space:pre-wrap;word-break:break-all}
details{border:1px solid var(--line);border-radius:.4rem;margin:.4rem 0;background:#fff}
details>summary{cursor:pointer;padding:.5rem .7rem;font-weight:600}
details>div{padding:0 .7rem .7rem}
.dir{font-size:.75rem;font-weight:700;padding:.05rem .4rem;border-radius:.3rem;margin-right:.4rem}
.dir.sent{background:#dceefc;color:#0b4a78}.dir.received{background:#dff3e4;color:#17602d}
button,.button{font:inherit;padding:.45rem .95rem;border-radius:.35rem;border:1px solid var(--accent);background:#fff;color:var(--accent);cursor:pointer;text-decoration:none;display:inline-block}
button.primary,.button.primary{background:var(--accent);color:#fff}
button.small{padding:.2rem .55rem;font-size:.85rem}
button:disabled{opacity:.5;cursor:not-allowed}
button:focus-visible,a:focus-visible,input:focus-visible,textarea:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center;margin-top:.8rem}
form.inline{display:inline}
textarea{width:100%;font:inherit;padding:.4rem;border:1px solid var(--line);border-radius:.35rem}
.notice{border-radius:.4rem;padding:.6rem .8rem;margin:.4rem 0;border:1px solid}
.notice.info{background:#eef4fb;border-color:#b9d0ea}.notice.success{background:#e8f6ec;border-color:#a9d8b5}
.notice.warning{background:#fff8e1;border-color:#f0c36d}.notice.error{background:#fdecea;border-color:#e57373}
.catalog iframe{width:100%;height:44rem;border:1px solid var(--line);border-radius:.4rem;background:#fff}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.muted{color:var(--muted)}
.long{white-space:pre-wrap;color:var(--muted);font-size:.85rem}
address{font-style:normal}
article{border-top:1px solid var(--line);margin-top:.9rem;padding-top:.3rem}article table{margin-top:.6rem}
ol.timeline{list-style:none;padding:0;margin:0}ol.timeline li{padding:.3rem 0;border-bottom:1px dashed var(--line)}
`;

const SCRIPT = `(function(){var b=document.body;if(b.hasAttribute('data-breakout')&&window.top!==window.self){try{window.top.location.replace(window.location.href);}catch(e){}}var f=document.querySelector('form[data-autosubmit]');if(f){HTMLFormElement.prototype.submit.call(f);}var u=b.getAttribute('data-poll-url'),r=b.getAttribute('data-revision');if(u&&r){setInterval(function(){fetch(u,{cache:'no-store'}).then(function(x){return x.text();}).then(function(t){if(t.trim()!==r){window.location.reload();}}).catch(function(){});},3000);}})();`;

let hashes: Promise<{ style: string; script: string }> | undefined;

/**
 * The policy of every simulator page. Frames may load any http(s) page: the catalog is the gateway's,
 * and its editor may live on another host.
 */
export async function simulatorContentSecurityPolicy(): Promise<string> {
  hashes ??= Promise.all([cspSourceHash(STYLE), cspSourceHash(SCRIPT)]).then(([style, script]) => ({
    style,
    script,
  }));
  const { style, script } = await hashes;
  return [
    "default-src 'none'",
    `style-src ${style}`,
    `script-src ${script}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    'frame-src http: https:',
    "frame-ancestors 'self'",
    "base-uri 'none'",
  ].join('; ');
}

export interface LayoutInput {
  readonly title: string;
  /** Link target of the brand in the bar (the simulator's home). */
  readonly homeUrl: string;
  /** Right side of the bar, e.g. profile and user. */
  readonly who?: Html | string;
  readonly body: Html;
  /** Lift the page out of the catalog frame when it lands there. */
  readonly breakout?: boolean;
  /** Reload the page when this URL's text stops being `revision`. */
  readonly poll?: { readonly url: string; readonly revision: number };
}

export function layout(input: LayoutInput): Html {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title} · Buyer simulator</title>
<style>${raw(STYLE)}</style>
</head>
<body${input.breakout ? html` data-breakout` : ''}${
    input.poll ? html` data-poll-url="${input.poll.url}" data-revision="${input.poll.revision}"` : ''
  }>
<a class="skip" href="#main">Skip to content</a>
<header class="bar"><a href="${input.homeUrl}">Buyer simulator · procurement punch-out tester</a><span class="who">${input.who ?? ''}</span></header>
<main id="main">
${input.body}
</main>
<script>${raw(SCRIPT)}</script>
</body>
</html>`;
}
