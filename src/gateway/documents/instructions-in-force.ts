/**
 * The buyer's `ControlKeys` as one decision: which documents the gateway may send about a purchase order.
 * Every path that would send one — the accept or reject of the order job, a change notice, a status detail,
 * a ship notice, an invoice or credit memo issued by the sync, the reconciliation or an operator, a resend —
 * asks `instructionsInForce`, so no path can forget an instruction. The buyer's word wins over every
 * setting of ours (`invoices.send`, `confirmDetails`, …).
 *
 * A line's own instruction overrides the header's. A ConfirmationRequest speaks for the whole order, so one
 * line that allows none withholds it; a ship notice names lines, so it leaves out those that allow none; an
 * invoice bills a whole print order, so one of its lines that may not be invoiced withholds it.
 */
import type { ControlKeys, OrderItem } from '../../cxml/index.ts';

/** What the decision reads: the header's keys and each line's (a stored PO's request is one). */
export interface InstructedRequest {
  readonly controlKeys?: ControlKeys;
  readonly items: readonly Pick<OrderItem, 'lineNumber' | 'controlKeys'>[];
}

/** One instruction as the buyer gave it, and where: the order's header or a line. */
export interface InstructionGiven {
  element: 'OCInstruction' | 'ASNInstruction' | 'InvoiceInstruction' | 'TemporaryPrice';
  value: string;
  /** `order` for the header, else the line's number. */
  at: 'order' | number;
}

export interface InstructionsInForce {
  /** A ConfirmationRequest may be sent (no line's OCInstruction in force is `notAllowed`). */
  confirmation: boolean;
  /** Ship notices wait until a confirmation was delivered (an OCInstruction `requiredBeforeASN` in force). */
  confirmationBeforeShipNotice: boolean;
  /** A ShipNoticeRequest may name these lines (none has ASNInstruction `notAllowed` in force). */
  shipNotice: boolean;
  /** These lines may be invoiced or credited (none is ERS, `notAllowed` or at a temporary price). */
  invoice: boolean;
  /** Every instruction the buyer gave that restricts a document, header first, for people to read. */
  restrictions: InstructionGiven[];
}

interface LineKeys {
  lineNumber: number | undefined;
  oc: ControlKeys['ocInstruction'];
  asn: ControlKeys['asnInstruction'];
  invoice: ControlKeys['invoiceInstruction'];
  temporaryPrice: boolean;
}

/** A line's instructions in force: each of its own, else the header's. */
function keysOfLine(header: ControlKeys | undefined, line: ControlKeys | undefined, lineNumber?: number) {
  return {
    lineNumber,
    oc: line?.ocInstruction ?? header?.ocInstruction,
    asn: line?.asnInstruction ?? header?.asnInstruction,
    invoice: line?.invoiceInstruction ?? header?.invoiceInstruction,
    temporaryPrice: line?.temporaryPrice ?? header?.temporaryPrice ?? false,
  } satisfies LineKeys;
}

function forbidsInvoice(keys: LineKeys): boolean {
  return keys.invoice === 'isERS' || keys.invoice === 'notAllowed' || keys.temporaryPrice;
}

function restrictionsOf(keys: ControlKeys | undefined, at: InstructionGiven['at']): InstructionGiven[] {
  if (keys === undefined) return [];
  const out: InstructionGiven[] = [];
  if (keys.ocInstruction === 'notAllowed' || keys.ocInstruction === 'requiredBeforeASN') {
    out.push({ element: 'OCInstruction', value: keys.ocInstruction, at });
  }
  if (keys.asnInstruction === 'notAllowed') out.push({ element: 'ASNInstruction', value: 'notAllowed', at });
  if (keys.invoiceInstruction === 'isERS' || keys.invoiceInstruction === 'notAllowed') {
    out.push({ element: 'InvoiceInstruction', value: keys.invoiceInstruction, at });
  }
  if (keys.temporaryPrice === true) out.push({ element: 'TemporaryPrice', value: 'yes', at });
  return out;
}

/**
 * Which documents the buyer allows for `request`, over the lines `lines` names (a print order's, a
 * shipment's, a single line's; every line when left out). A PO without lines (a delete) is judged by its
 * header.
 *
 * @example
 * instructionsInForce({ controlKeys: { invoiceInstruction: 'isERS' }, items: [{ lineNumber: 1 }] }).invoice; // false
 */
export function instructionsInForce(
  request: InstructedRequest,
  lines?: readonly number[],
): InstructionsInForce {
  const header = request.controlKeys;
  const scoped =
    lines === undefined ? request.items : request.items.filter((item) => lines.includes(item.lineNumber));
  const keys =
    scoped.length === 0
      ? [keysOfLine(header, undefined)]
      : scoped.map((item) => keysOfLine(header, item.controlKeys, item.lineNumber));
  // Confirmations speak for the whole order, whatever the scope asked about.
  const all = request.items.map((item) => keysOfLine(header, item.controlKeys, item.lineNumber));
  const everyLine = all.length === 0 ? [keysOfLine(header, undefined)] : all;
  const confirmation = everyLine.every((k) => k.oc !== 'notAllowed');
  return {
    confirmation,
    confirmationBeforeShipNotice: confirmation && keys.some((k) => k.oc === 'requiredBeforeASN'),
    shipNotice: keys.every((k) => k.asn !== 'notAllowed'),
    invoice: !keys.some(forbidsInvoice),
    restrictions: [
      ...restrictionsOf(header, 'order'),
      ...request.items.flatMap((item) => restrictionsOf(item.controlKeys, item.lineNumber)),
    ],
  };
}

/** An instruction as people read it: `InvoiceInstruction isERS (order)`, `ASNInstruction notAllowed (line 2)`. */
export function describeInstruction(given: InstructionGiven): string {
  const where = given.at === 'order' ? 'order' : `line ${given.at}`;
  const element = given.element === 'TemporaryPrice' ? 'InvoiceInstruction TemporaryPrice' : given.element;
  return `${element} ${given.value} (${where})`;
}

const KIND_ELEMENTS: Record<'confirmation' | 'ship_notice' | 'invoice', InstructionGiven['element'][]> = {
  confirmation: ['OCInstruction'],
  ship_notice: ['ASNInstruction'],
  invoice: ['InvoiceInstruction', 'TemporaryPrice'],
};

/**
 * Why a document of `kind` is not sent, naming the buyer's instructions that forbid it; undefined when
 * `instructions` allow it.
 */
export function withheldBecause(
  instructions: InstructionsInForce,
  kind: 'confirmation' | 'ship_notice' | 'invoice',
): string | undefined {
  const allowed =
    kind === 'confirmation'
      ? instructions.confirmation
      : kind === 'ship_notice'
        ? instructions.shipNotice
        : instructions.invoice;
  if (allowed) return undefined;
  const named = instructions.restrictions
    .filter((given) => KIND_ELEMENTS[kind].includes(given.element))
    .filter((given) => given.element !== 'OCInstruction' || given.value === 'notAllowed')
    .map(describeInstruction);
  const what = {
    confirmation: 'no ConfirmationRequest',
    ship_notice: 'no ShipNoticeRequest',
    invoice: 'no invoice or credit memo',
  }[kind];
  return `the buyer's OrderRequest allows ${what}: ${named.join(', ')}`;
}

/**
 * The instructions in force for people (PO page, admin API, job ticket): what each restriction means for
 * the documents of this order. Empty when the buyer gave none.
 */
export function instructionEffects(request: InstructedRequest): string[] {
  const { restrictions } = instructionsInForce(request);
  return [...restrictions.map(effectOf), ...lineExceptions(request)];
}

/** What one restricting instruction means for the order's documents. */
function effectOf(given: InstructionGiven): string {
  const named = describeInstruction(given);
  const ofLine = given.at === 'order' ? '' : ' for the print order of this line';
  switch (given.element) {
    case 'OCInstruction':
      return given.value === 'notAllowed'
        ? `${named}: no order confirmation is sent; what one would say goes to an operator`
        : `${named}: a ship notice goes out only after a confirmation was delivered`;
    case 'ASNInstruction':
      return `${named}: no ship notice names ${given.at === 'order' ? 'any line' : 'this line'}`;
    case 'InvoiceInstruction':
      return given.value === 'isERS'
        ? `${named}: evaluated receipt settlement — the buyer pays from its goods receipt, so no invoice or credit memo is sent${ofLine}`
        : `${named}: no invoice or credit memo is sent${ofLine}`;
    case 'TemporaryPrice':
      return `${named}: the price is temporary, so no invoice or credit memo is sent${ofLine}`;
  }
}

/** A line's own instruction that lifts a restriction of the header's, named so the order's is not misread. */
function lineExceptions(request: InstructedRequest): string[] {
  const header = request.controlKeys;
  if (header === undefined) return [];
  const out: string[] = [];
  for (const { lineNumber, controlKeys: own } of request.items) {
    const lifted = (element: string, value: string | undefined, restricted: boolean, permissive: boolean) => {
      if (restricted && permissive && value !== undefined) {
        out.push(`${element} ${value} (line ${lineNumber}): this line overrides the order's ${element}`);
      }
    };
    const oc = own?.ocInstruction;
    lifted(
      'OCInstruction',
      oc,
      header.ocInstruction !== undefined && header.ocInstruction !== 'allowed',
      oc === 'allowed',
    );
    const asn = own?.asnInstruction;
    lifted('ASNInstruction', asn, header.asnInstruction === 'notAllowed', asn === 'allowed');
    const invoice = own?.invoiceInstruction;
    lifted(
      'InvoiceInstruction',
      invoice,
      header.invoiceInstruction === 'isERS' || header.invoiceInstruction === 'notAllowed',
      invoice === 'isNotERS' || invoice === 'allowed',
    );
  }
  return out;
}
