/**
 * A requisition line as a cXML `<ItemOut>`, for the purchase order and for edit/inspect setup requests.
 * cXML requires the ItemIn detail to come back unchanged in the ItemOut (User's Guide: "ItemDetail data
 * … must not be removed when converting from ItemIn to ItemOut"), so every field the catalog sent is
 * echoed, in the DTD's order: UnitPrice, Description, UnitOfMeasure, Classification+, ManufacturerPartID,
 * ManufacturerName, URL, LeadTime, Extrinsic*.
 */
import { el, type XmlElementSpec } from 'punchgate/cxml';
import type { RequisitionLine } from './requisition.ts';

/** What an OCI line has instead of a cXML classification: its UNSPSC, else its material group. */
function classificationElements(line: RequisitionLine): XmlElementSpec[] {
  if (line.classifications.length === 0) return [el('Classification', { domain: 'UNSPSC' })];
  return line.classifications.map((c) => el('Classification', { domain: c.domain }, c.code));
}

export interface ItemOutOptions {
  readonly lineNumber: number;
  readonly lang: string;
  /** The unit to write (SAP maps its internal units back to ISO codes in a PO). */
  readonly unitOfMeasure?: string;
  /** Line comments (the OCI long text in SAP's purchase orders). */
  readonly comments?: string;
}

/**
 * The cart's price basis repeated, so the PO quotes the price as the catalog did (45.20 per 1,000 EA). A
 * basis in the line's own unit is written in the unit the PO uses for the line.
 */
function priceBasisElement(line: RequisitionLine, options: ItemOutOptions): XmlElementSpec | undefined {
  const basis = line.priceBasis;
  if (basis === undefined) return undefined;
  const unit =
    basis.unitOfMeasure === '' || basis.unitOfMeasure === line.unitOfMeasure
      ? (options.unitOfMeasure ?? line.unitOfMeasure)
      : basis.unitOfMeasure;
  return el(
    'PriceBasisQuantity',
    { quantity: basis.quantity, conversionFactor: basis.conversionFactor },
    el('UnitOfMeasure', {}, unit),
  );
}

export function itemOutElement(line: RequisitionLine, options: ItemOutOptions): XmlElementSpec {
  const hasLeadTime = line.leadTime !== undefined && /^\d+$/.test(line.leadTime);
  return el(
    'ItemOut',
    { quantity: line.quantity, lineNumber: options.lineNumber },
    el(
      'ItemID',
      {},
      el('SupplierPartID', {}, line.supplierPartID),
      line.supplierPartAuxiliaryID !== undefined &&
        el('SupplierPartAuxiliaryID', {}, line.supplierPartAuxiliaryID),
    ),
    el(
      'ItemDetail',
      {},
      el('UnitPrice', {}, el('Money', { currency: line.currency }, line.unitPrice)),
      el(
        'Description',
        { 'xml:lang': options.lang },
        line.description,
        line.shortName !== undefined && el('ShortName', {}, line.shortName),
      ),
      el('UnitOfMeasure', {}, options.unitOfMeasure ?? line.unitOfMeasure),
      priceBasisElement(line, options),
      classificationElements(line),
      line.manufacturerPartID !== undefined && el('ManufacturerPartID', {}, line.manufacturerPartID),
      line.manufacturerName !== undefined &&
        el('ManufacturerName', { 'xml:lang': options.lang }, line.manufacturerName),
      line.url !== undefined && el('URL', {}, line.url),
      hasLeadTime && el('LeadTime', {}, line.leadTime),
      line.extrinsics.map((extrinsic) => el('Extrinsic', { name: extrinsic.name }, extrinsic.value)),
    ),
    options.comments !== undefined &&
      options.comments !== '' &&
      el('Comments', { 'xml:lang': options.lang }, options.comments),
  );
}
