/**
 * Notes on the console's PO page: the PO's notes, and the form that adds one (`POST
 * /admin/ui/orders/:id/notes`, action-routes.ts). A note is allowed at any time and changes nothing else,
 * so its form carries no PO version and asks for no confirmation.
 */
import type { PurchaseOrder } from '../../../store/types.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { MAX_NOTE_LENGTH, type OrderNoteView } from '../admin-schemas.ts';
import { timeText } from './format.ts';

const notesPath = (order: PurchaseOrder) => `/admin/ui/orders/${encodeURIComponent(order.id)}/notes`;

/** The PO page's notes section: every note, oldest first, and the form for another. */
export function notesSection(order: PurchaseOrder, notes: readonly OrderNoteView[], csrf: string): SafeHtml {
  const list =
    notes.length === 0
      ? html`<p class="muted">No notes yet.</p>`
      : html`<table><caption>Operators' notes, oldest first (also in the timeline)</caption>
<thead><tr><th scope="col">Written</th><th scope="col">By</th><th scope="col">Note</th></tr></thead>
<tbody>${notes.map((n) => html`<tr><td>${timeText(n.createdAt)}</td><td>${n.author}</td><td>${n.text}</td></tr>`)}</tbody></table>`;
  return html`${list}<form method="post" action="${notesPath(order)}" class="actions"><input type="hidden" name="csrf" value="${csrf}">
<div class="field"><label for="note-text">Note (kept with the PO; changes nothing else)</label><textarea id="note-text" name="text" maxlength="${MAX_NOTE_LENGTH}" required></textarea></div>
<button type="submit">Add note</button></form>`;
}
