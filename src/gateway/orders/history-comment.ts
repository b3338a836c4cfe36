/**
 * The print order's history comment: what the platform has no field for — the PO number and lines with
 * their quantities and unit prices, ship-to, requested delivery dates, the buyer's comments — and every
 * difference from the punch-out cart, so the people producing the order see what was bought.
 */
import type { Address } from '../../cxml/index.ts';
import type { PurchaseOrder } from '../../store/types.ts';
import type { Mismatch, OwnerGroup, StoredRequest } from './po-record.ts';
import { poDocument, storedRequest } from './po-record.ts';

export function formatAddress(address: Address): string {
  const cityLine = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [
    address.name,
    ...address.deliverTo,
    ...address.street,
    cityLine,
    address.state,
    address.isoCountryCode ?? address.country,
    address.email,
    address.phone,
  ]
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .join(', ');
}

function describeMismatch(m: Mismatch): string {
  switch (m.field) {
    case 'quantity':
      return `line ${m.lineNumber} (${m.lineRef}): quantity ${m.po} on the PO, ${m.cart} in the punch-out cart`;
    case 'price':
      return `line ${m.lineNumber} (${m.lineRef}): unit price ${m.po} on the PO, ${m.cart} in the punch-out cart`;
    case 'sku':
      return `line ${m.lineNumber} (${m.lineRef}): SupplierPartID ${m.po} on the PO, ${m.cart} in the punch-out cart`;
    case 'already_ordered':
      return `line ${m.lineNumber} (${m.lineRef}): this design line was ${m.cart} before`;
  }
}

function headerLines(order: PurchaseOrder, request: StoredRequest): string[] {
  const out = [`Purchase order ${order.orderId} (cXML payloadID ${order.payloadId}), buyer ${order.buyerId}`];
  if (request.orderDate !== undefined) out.push(`Order date: ${request.orderDate.raw}`);
  if (request.requestedDeliveryDate !== undefined) {
    out.push(`Requested delivery: ${request.requestedDeliveryDate.raw}`);
  }
  if (request.shipTo !== undefined) out.push(`Ship to: ${formatAddress(request.shipTo)}`);
  if (request.shipping !== undefined) {
    out.push(
      `Shipping: ${request.shipping.description} ${request.shipping.value} ${request.shipping.currency}`,
    );
  }
  return out;
}

/**
 * The comment for the print order of one owner group.
 *
 * @example
 * await api.setStatus(printOrderId, { order_status: order.status, comments: printOrderComment(po, group) });
 */
export function printOrderComment(order: PurchaseOrder, group: OwnerGroup): string {
  const request = storedRequest(order);
  const lines = [...headerLines(order, request), 'Lines:'];
  for (const line of group.lines) {
    const parts = [
      `  ${line.lineNumber}. ${line.lineRef} ${line.supplierPartID} (design ${line.designId})`,
      `${line.quantity} ${line.unitOfMeasure} at ${line.unitPrice.value} ${line.unitPrice.currency}`,
    ];
    if (line.requestedDeliveryDate !== undefined) parts.push(`deliver by ${line.requestedDeliveryDate}`);
    if (line.shipTo !== undefined) parts.push(`ship to ${formatAddress(line.shipTo)}`);
    if (line.comments.trim() !== '') parts.push(`note: ${line.comments.trim()}`);
    lines.push(parts.join(' — '));
  }
  if (request.comments.trim() !== '') lines.push(`Buyer comments: ${request.comments.trim()}`);
  const refs = new Set(group.lines.map((line) => line.lineRef));
  const mismatches = poDocument(order).mismatches.filter((m) => refs.has(m.lineRef));
  if (mismatches.length > 0) {
    lines.push('CHECK — differs from the punch-out cart:');
    for (const m of mismatches) lines.push(`  ${describeMismatch(m)}`);
  }
  return lines.join('\n');
}

/** The note left on a print order when the buyer sends a change the gateway does not apply by itself. */
export function changeComment(update: PurchaseOrder): string {
  const request = storedRequest(update);
  const version = request.orderVersion === undefined ? '' : ` (orderVersion ${request.orderVersion})`;
  const lines = [
    `The buyer changed purchase order ${update.orderId}${version}, cXML payloadID ${update.payloadId}.`,
    'The change is not applied automatically: an operator must review it.',
  ];
  for (const line of poDocument(update).lines) {
    lines.push(
      `  ${line.lineNumber}. ${line.lineRef} ${line.supplierPartID}: ${line.quantity} ${line.unitOfMeasure} at ${line.unitPrice.value} ${line.unitPrice.currency}`,
    );
  }
  return lines.join('\n');
}

export function mismatchSummary(mismatches: readonly Mismatch[]): string[] {
  return mismatches.map(describeMismatch);
}

/** Room kept in every part of a split comment for its "(part i of n)" line. */
const PART_LABEL_ROOM = 32;

/** Cuts one line longer than `max` into pieces of at most `max` characters, at a space where there is one. */
function cutLine(line: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const at = space > max / 2 ? space : max;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^ /, '');
  }
  pieces.push(rest);
  return pieces;
}

/**
 * A history comment as the entries the print service is sent, each at most `max` characters: the comment
 * itself when it fits, else parts split at line breaks (a single over-long line at spaces), each labelled
 * "(part i of n)" so the people reading the history know there is more. Nothing is dropped: a service that
 * refuses a long body (413) after the order exists would otherwise leave its history without the PO.
 *
 * @example
 * historyEntries('Purchase order PO-1 …', 4000) // → ['Purchase order PO-1 …']
 */
export function historyEntries(comment: string, max: number): string[] {
  if (comment.length <= max) return [comment];
  const room = max - PART_LABEL_ROOM;
  const parts: string[] = [];
  let current = '';
  for (const line of comment.split('\n').flatMap((l) => cutLine(l, room))) {
    if (current !== '' && current.length + 1 + line.length > room) {
      parts.push(current);
      current = line;
    } else {
      current = current === '' ? line : `${current}\n${line}`;
    }
  }
  parts.push(current);
  return parts.map((part, i) => `(part ${i + 1} of ${parts.length})\n${part}`);
}
