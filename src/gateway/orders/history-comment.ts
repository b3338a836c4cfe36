/**
 * The print order's history comments. The first is a job ticket: what the platform has no field for — the
 * PO number, each design's quantity, product and unit price, ship-to, requested delivery dates, the buyer's
 * contact and comments — and every difference from the punch-out cart, so the people producing the order
 * see at a glance what was bought. Later ones note changes the buyer sent.
 */
import type { Address, Distribution, Extrinsic } from '../../cxml/index.ts';
import type { AttachmentInfo, PurchaseOrder } from '../../store/types.ts';
import { instructionEffects } from '../documents/instructions-in-force.ts';
import type { Mismatch, OwnerGroup, PoDocument, PoLine, StoredRequest } from './po-record.ts';
import { lineSku, poDocument, storedRequest } from './po-record.ts';
import { linesWithoutShipTo } from './ship-to.ts';

function formatAddress(address: Address): string {
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

/** One accounting object as people read it: `Cost Center 0610 (Marketing), G/L Account 6300100 — 35.40 EUR`. */
export function accountingText(distribution: Distribution): string {
  const segments = distribution.segments.map((segment) => {
    const described = segment.description.trim() === '' ? '' : ` (${segment.description})`;
    return `${segment.name || 'segment'} ${segment.id}${described}`;
  });
  const charge =
    distribution.charge === undefined
      ? ''
      : ` — ${distribution.charge.value} ${distribution.charge.currency}`;
  return `${segments.join(', ') || distribution.accountingName}${charge}`;
}

export function extrinsicsText(extrinsics: readonly Extrinsic[]): string {
  return extrinsics.map((extrinsic) => `${extrinsic.name}: ${extrinsic.value}`).join(' · ');
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

function contactText(contact: StoredRequest['contacts'][number]): string {
  const role = contact.role === undefined ? '' : ` (${contact.role})`;
  const emails = contact.emails.map((email) => `<${email}>`);
  return [`${contact.name}${role}`, ...emails, contact.phone].filter(Boolean).join(', ');
}

/** The order-wide part of the ticket: whose order, where it goes, by when, whom to call. */
function headerLines(order: PurchaseOrder, request: StoredRequest, buyerName: string): string[] {
  const out = [`Purchase order ${order.orderId} — JOB TICKET`];
  const dated = request.orderDate === undefined ? '' : `, order date ${request.orderDate.raw}`;
  out.push(`Buyer: ${buyerName}${dated} (cXML payloadID ${order.payloadId})`);
  if (request.shipTo !== undefined) out.push(`Ship to: ${formatAddress(request.shipTo)}`);
  if (request.requestedDeliveryDate !== undefined) {
    out.push(`Requested delivery: ${request.requestedDeliveryDate.raw}`);
  }
  for (const contact of request.contacts) out.push(`Buyer contact: ${contactText(contact)}`);
  // The print shop must know what the buyer will not accept: no confirmation, no ship notice, no invoice.
  for (const effect of instructionEffects(request)) out.push(`Buyer's instruction: ${effect}`);
  if (request.shipping !== undefined) {
    out.push(
      `Shipping: ${request.shipping.description} ${request.shipping.value} ${request.shipping.currency}`,
    );
  }
  return out;
}

/** ` per 1000 EA` for a line priced per more than one unit (PriceBasisQuantity), else nothing. */
function perBasis(line: PoLine): string {
  const basis = line.priceBasis;
  return basis === undefined ? '' : ` per ${basis.quantity} ${basis.unitOfMeasure}`.trimEnd();
}

/** One line of the ticket: the quantity first, as the press needs it, then what identifies the line. */
function designLines(line: PoLine, productName: string | undefined): string[] {
  const product = productName ?? line.description;
  const price = `unit price ${line.unitPrice.value} ${line.unitPrice.currency}${perBasis(line)}`;
  const ref = line.lineRef === undefined ? 'no punch-out cart line' : `line ref ${line.lineRef}`;
  const out = line.asIs
    ? [
        `${line.lineNumber}. QUANTITY ${line.quantity} ${line.unitOfMeasure} — ${product} (product ${line.designId}, as it is, no design)`,
        `   SKU ${lineSku(line)} · ${price} · ${ref} · the item of product ${line.designId} in this print order`,
      ]
    : [
        `${line.lineNumber}. QUANTITY ${line.quantity} ${line.unitOfMeasure} — ${product} (design ${line.designId})`,
        `   SKU ${lineSku(line)} · ${price} · ${ref} · proof: the item of design ${line.designId} in this print order`,
      ];
  const details: string[] = [];
  if (line.requestedDeliveryDate !== undefined) details.push(`deliver by ${line.requestedDeliveryDate}`);
  if (line.shipTo !== undefined) details.push(`ship to ${formatAddress(line.shipTo)}`);
  if (line.comments.trim() !== '') details.push(`note: ${line.comments.trim()}`);
  if (details.length > 0) out.push(`   ${details.join(' · ')}`);
  for (const distribution of line.distribution ?? []) {
    out.push(`   accounting: ${accountingText(distribution)}`);
  }
  if (line.extrinsics !== undefined && line.extrinsics.length > 0) {
    out.push(`   buyer's line fields: ${extrinsicsText(line.extrinsics)}`);
  }
  return out;
}

/** A size as people read it: bytes, KB or MB (1,024 each). */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The files that came with the PO, by name: the print service's interface takes no files, so the people
 * producing the order learn here that there is artwork or a spec to fetch from the gateway.
 */
function attachmentLines(order: PurchaseOrder, attachments: readonly AttachmentInfo[]): string[] {
  if (attachments.length === 0) return [];
  const out = [
    '',
    `ATTACHMENTS (${attachments.length}) — waiting in the punchgate gateway, not in this print order (the print service takes no files): download them in the gateway console, purchase order record ${order.id}:`,
  ];
  for (const a of attachments) {
    out.push(`  - ${a.filename ?? `part ${a.position}`} (${a.contentType}, ${sizeText(a.size)})`);
  }
  return out;
}

/**
 * The job ticket of one owner group's print order, its first history entry: what the print service has no
 * field for (quantities, prices, ship-to, dates, contact, the files that came with the PO) written for the
 * people who produce the order, with every difference from the punch-out cart at the end.
 *
 * @example
 * await api.setStatus(printOrderId, { order_status: order.status, comments: printOrderComment(po, group, names) });
 */
export function printOrderComment(
  order: PurchaseOrder,
  group: OwnerGroup,
  names: {
    buyer: string;
    product: (sku: string) => string | undefined;
    /** The PO's attachments (`store.attachments.list`). */
    attachments: readonly AttachmentInfo[];
  },
  // The job passes the document it parsed when it started: the record it holds here is a later read.
  document: PoDocument = poDocument(order),
): string {
  const { request } = document;
  const noun = group.lines.some((line) => line.asIs) ? 'line' : 'design';
  const count = `${group.lines.length} ${noun}${group.lines.length === 1 ? '' : 's'}`;
  const lines = [...headerLines(order, request, names.buyer), '', `${count} to print:`];
  for (const line of group.lines) lines.push(...designLines(line, names.product(lineSku(line))));
  if (request.comments.trim() !== '') lines.push('', `Buyer comments: ${request.comments.trim()}`);
  lines.push(...attachmentLines(order, names.attachments));
  const refs = new Set(group.lines.flatMap((line) => line.lineRef ?? []));
  const mismatches = document.mismatches.filter((m) => refs.has(m.lineRef));
  if (mismatches.length > 0) {
    lines.push('', 'CHECK — differs from the punch-out cart:');
    for (const m of mismatches) lines.push(`  ${describeMismatch(m)}`);
  }
  const unaddressed = linesWithoutShipTo(request, group.lines);
  if (unaddressed.length > 0) {
    lines.push(
      '',
      `CHECK — no usable ship-to address for line${unaddressed.length === 1 ? '' : 's'} ${unaddressed.join(', ')}: get it from the buyer before shipping.`,
    );
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
      `  ${line.lineNumber}. ${line.lineRef ?? '-'} ${line.supplierPartID}: ${line.quantity} ${line.unitOfMeasure} at ${line.unitPrice.value} ${line.unitPrice.currency}${perBasis(line)}`,
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
