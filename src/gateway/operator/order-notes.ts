/**
 * Operators' notes on purchase orders: written from the admin API or the console at any time, kept with the
 * PO for good, shown in its timeline. A note changes nothing else about the PO (not its state, not its
 * `updatedAt`), so writing one never makes another operator's open action form stale.
 */
import type { OrderNote, PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { OrderNoteView, TimelineEntry } from './admin-schemas.ts';

/** Who wrote a note, as the note names it: the admin API, or the console session (as the audit log does). */
export const NOTE_AUTHORS = {
  api: 'admin API',
  console: (sid: string) => `console session ${sid}`,
} as const;

/** Keeps `text` (checked and trimmed by the caller) as a note on `order`. */
export async function addOrderNote(
  ctx: GatewayContext,
  order: PurchaseOrder,
  text: string,
  author: string,
): Promise<OrderNote> {
  const note = await ctx.store.orderNotes.add({ poId: order.id, text, author });
  // The text stays out of the log: it is the buyer's business, and the PO keeps it.
  ctx.logger.info('note added to a purchase order', { po: order.id, note: note.id, author });
  return note;
}

export function orderNoteView(note: OrderNote): OrderNoteView {
  return { id: note.id, text: note.text, author: note.author, createdAt: note.createdAt };
}

/** A note as a timeline entry: when, and who wrote what. */
export function noteTimelineEntry(note: OrderNote): TimelineEntry {
  return { at: note.createdAt, event: 'note', detail: `${note.author}: ${note.text}` };
}
