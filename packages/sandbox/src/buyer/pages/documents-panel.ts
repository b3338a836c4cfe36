/**
 * Every document the requisition exchanged, verbatim and in order, for integrators learning the
 * protocols: what was sent where, what came back, and how it was carried (form field, charset).
 * Native `<details>` elements, so the list is keyboard-usable without a script.
 */
import { html } from 'hono/html';
import type { ExchangedDocument } from '../requisition.ts';
import type { Html } from './layout.ts';

function documentBlock(document: ExchangedDocument): Html {
  return html`<details>
<summary><span class="dir ${document.direction}">${document.direction === 'sent' ? 'SENT' : 'RECEIVED'}</span>${document.number}. ${document.title} <span class="muted mono">${document.at}</span></summary>
<div><p class="muted mono">${document.route}${document.note === undefined ? '' : html` · ${document.note}`}</p>
<pre>${document.body === '' ? '(empty body)' : document.body}</pre></div>
</details>`;
}

export function renderDocumentsPanel(documents: readonly ExchangedDocument[]): Html {
  return html`<section class="card" aria-labelledby="documents-heading">
<h2 id="documents-heading">Documents exchanged</h2>
${documents.length === 0 ? html`<p class="muted">None yet.</p>` : documents.map(documentBlock)}
</section>`;
}
