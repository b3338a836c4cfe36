/**
 * The PunchOutOrderMessage: the cart punchgate hands back to the buyer through the user's browser.
 * Because it travels through the browser, its Header never carries a SharedSecret. Each line's
 * SupplierPartID is the product SKU and SupplierPartAuxiliaryID punchgate's own stable line reference,
 * which the buyer returns unchanged in edit/inspect setup requests and in the OrderRequest.
 */
import {
  type ChargeInput,
  chargeElement,
  extrinsicElements,
  lineNumberAttribute,
  type MoneyInput,
  moneyElement,
  type PriceBasisInput,
  priceBasisElement,
  quantityAttribute,
} from './build-common-elements.ts';
import { formatMoney } from '../kernel/money.ts';
import { statusElement } from './build-response.ts';
import {
  buildCxmlDocument,
  type CxmlEnvelopeInput,
  envelopeLang,
  headerElement,
  languageTagAttribute,
  requireText,
} from './envelope.ts';
import type {
  Classification,
  CxmlHeader,
  DeploymentMode,
  Extrinsic,
  SetupOperation,
} from './request-types.ts';
import { el, type XmlElementSpec } from './xml-writer.ts';

export interface OrderMessageLine {
  readonly quantity: string | number;
  readonly lineNumber?: number;
  /** The product SKU. */
  readonly supplierPartID: string;
  /** punchgate's line reference: short, ASCII, stable across edits. */
  readonly supplierPartAuxiliaryID?: string;
  readonly unitPrice: MoneyInput;
  readonly description: string;
  /**
   * The language `description` (and `shortName`) is in, when not the document's `lang`: a line whose
   * product has a translation for the buyer's user goes out in it, labelled so.
   */
  readonly descriptionLang?: string;
  readonly shortName?: string;
  /** UN/CEFACT unit, e.g. `EA`, `PK`. */
  readonly unitOfMeasure: string;
  /** What `unitPrice` is for when not one unit, e.g. 1000 EA for a price per thousand. */
  readonly priceBasis?: PriceBasisInput;
  /** At least one; UNSPSC is what buyers (Coupa) require. */
  readonly classifications: readonly Classification[];
  readonly manufacturerPartID?: string;
  readonly manufacturerName?: string;
  /** A page about the item, e.g. the proof preview. */
  readonly url?: string;
  /** Days until delivery. */
  readonly leadTimeDays?: number;
  /** ItemDetail extrinsics, e.g. `designId`, `proofUrl`. */
  readonly extrinsics?: readonly Extrinsic[];
  /** The line's own tax, for buyers who take tax per line (the header's Tax still carries the sum). */
  readonly tax?: ChargeInput;
}

interface OrderMessageBase extends CxmlEnvelopeInput {
  /** From = the buyer's identity echoed, To, and Sender = punchgate; secrets are dropped. */
  readonly header: CxmlHeader;
  /** The setup request's BuyerCookie, exactly as received. */
  readonly buyerCookie: string;
  /** The highest operation the buyer may do on this cart later. */
  readonly operationAllowed: SetupOperation;
  readonly deploymentMode?: DeploymentMode;
  /** payloadID of the setup request this cart answers. */
  readonly inReplyTo?: string;
  /** Write non-ASCII as character references, for the `cxml-urlencoded` form field. */
  readonly asciiOnly?: boolean;
}

export interface OrderMessageInput extends OrderMessageBase {
  /** The sum of the lines: Shipping and Tax stand beside it, never in it, as buyers' cart checks expect. */
  readonly total: MoneyInput;
  readonly shipping?: ChargeInput;
  readonly tax?: ChargeInput;
  readonly items: readonly OrderMessageLine[];
}

export interface NoChangeOrderMessageInput extends OrderMessageBase {
  /** Currency of the zero Total the DTD still requires. */
  readonly currency: string;
}

const ZERO = { units: 0n, scale: 0 };

const OPERATIONS: ReadonlySet<string> = new Set<SetupOperation>(['create', 'edit', 'inspect']);

/**
 * One ItemIn: a cart line, or a confirmed line whose price is per a basis (a ConfirmationStatus can carry
 * a PriceBasisQuantity only inside an ItemIn). `field` names the line in a programming error.
 */
export function itemInElement(
  line: OrderMessageLine,
  index: number,
  lang: string,
  field = `items[${index}]`,
): XmlElementSpec {
  if (line.classifications.length === 0) throw new TypeError(`${field} needs at least one classification`);
  if (
    line.leadTimeDays !== undefined &&
    (!Number.isSafeInteger(line.leadTimeDays) || line.leadTimeDays < 0)
  ) {
    throw new TypeError(`${field}.leadTimeDays must be a whole number of days, got ${line.leadTimeDays}`);
  }
  return el(
    'ItemIn',
    {
      quantity: quantityAttribute(line.quantity, `${field}.quantity`),
      lineNumber: lineNumberAttribute(line.lineNumber, `${field}.lineNumber`),
    },
    el(
      'ItemID',
      {},
      el('SupplierPartID', {}, requireText(line.supplierPartID, `${field}.supplierPartID`)),
      line.supplierPartAuxiliaryID !== undefined &&
        el('SupplierPartAuxiliaryID', {}, line.supplierPartAuxiliaryID),
    ),
    el(
      'ItemDetail',
      {},
      el('UnitPrice', {}, moneyElement(line.unitPrice, `${field}.unitPrice`)),
      el(
        'Description',
        {
          'xml:lang':
            line.descriptionLang === undefined
              ? lang
              : languageTagAttribute(line.descriptionLang, `${field}.descriptionLang`),
        },
        line.shortName !== undefined && el('ShortName', {}, line.shortName),
        requireText(line.description, `${field}.description`),
      ),
      el('UnitOfMeasure', {}, requireText(line.unitOfMeasure, `${field}.unitOfMeasure`)),
      priceBasisElement(line.priceBasis, `${field}.priceBasis`, lang),
      line.classifications.map((classification) =>
        el(
          'Classification',
          { domain: requireText(classification.domain, `${field} classification domain`) },
          requireText(classification.code, `${field} classification code`),
        ),
      ),
      line.manufacturerPartID !== undefined && el('ManufacturerPartID', {}, line.manufacturerPartID),
      line.manufacturerName !== undefined &&
        el('ManufacturerName', { 'xml:lang': lang }, line.manufacturerName),
      line.url !== undefined && el('URL', {}, line.url),
      line.leadTimeDays !== undefined && el('LeadTime', {}, String(line.leadTimeDays)),
      extrinsicElements(line.extrinsics),
    ),
    chargeElement('Tax', line.tax, lang),
  );
}

function messageDocument(
  input: OrderMessageBase,
  status: XmlElementSpec | undefined,
  headerParts: readonly (XmlElementSpec | undefined)[],
  items: readonly XmlElementSpec[],
): string {
  if (!OPERATIONS.has(input.operationAllowed)) {
    throw new TypeError(`operationAllowed must be create, edit or inspect, got "${input.operationAllowed}"`);
  }
  const message = el(
    'Message',
    {
      deploymentMode: input.deploymentMode === 'test' ? 'test' : undefined,
      inReplyTo: input.inReplyTo,
    },
    status,
    el(
      'PunchOutOrderMessage',
      {},
      el('BuyerCookie', {}, input.buyerCookie),
      el('PunchOutOrderMessageHeader', { operationAllowed: input.operationAllowed }, headerParts),
      items,
    ),
  );
  return buildCxmlDocument(input, 'cXML', [headerElement(input.header, false), message], {
    ascii: input.asciiOnly === true,
  });
}

/**
 * The cart as a PunchOutOrderMessage. An empty `items` list on `create` means the user cancelled;
 * on `edit` it would delete the buyer's lines, so a cancel there is `buildNoChangeOrderMessage`.
 *
 * @example
 * buildOrderMessage({
 *   payloadID, timestamp, header, buyerCookie: session.buyerCookie, operationAllowed: 'edit',
 *   total: { value: '59.00', currency: 'EUR' },
 *   items: [{ quantity: 1, supplierPartID: 'BC-STD', supplierPartAuxiliaryID: 'L-7K2M9Q',
 *     unitPrice: { value: '59.00', currency: 'EUR' }, description: 'Business cards', unitOfMeasure: 'PK',
 *     classifications: [{ domain: 'UNSPSC', code: '82121500' }] }],
 * });
 */
export function buildOrderMessage(input: OrderMessageInput): string {
  const lang = envelopeLang(input);
  return messageDocument(
    input,
    undefined,
    [
      el('Total', {}, moneyElement(input.total, 'total')),
      chargeElement('Shipping', input.shipping, lang),
      chargeElement('Tax', input.tax, lang),
    ],
    input.items.map((line, index) => itemInElement(line, index, lang)),
  );
}

/**
 * The "session ended, nothing changed" message: Status 204 No Content with an empty cart, which a
 * buyer reads as "keep the lines you have". This is the only safe cancel for an `edit` session.
 *
 * @example
 * buildNoChangeOrderMessage({ payloadID, timestamp, header, buyerCookie, operationAllowed: 'edit', currency: 'EUR' });
 */
export function buildNoChangeOrderMessage(input: NoChangeOrderMessageInput): string {
  const lang = envelopeLang(input);
  return messageDocument(
    input,
    statusElement({ code: 204, text: 'No Content' }, lang),
    [
      el(
        'Total',
        {},
        moneyElement({ value: formatMoney(ZERO, input.currency), currency: input.currency }, 'currency'),
      ),
    ],
    [],
  );
}
