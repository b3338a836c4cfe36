/**
 * Reading an OCI cart (SAP's "inbound section"): `NEW_ITEM-<FIELD>[n]` fields grouped by item number
 * (holes allowed, order by number), long text from `NEW_ITEM-LONGTEXT_<n>:132[]` and its variants, and the
 * `~` fields SAP expects echoed. PRICE is per PRICEUNIT units: it is kept as sent with PRICEUNIT as the
 * line's price basis, never divided down (SAP's four decimals would round a price per thousand).
 */
import { isDecimal } from './amount-text.ts';
import type { FormBody } from './form-body.ts';
import { formField } from './form-body.ts';
import type { OciBuyerProfile } from './profiles.ts';
import type { ClassificationValue, RequisitionLine } from './requisition.ts';

export interface OciCart {
  readonly lines: readonly RequisitionLine[];
  /** Problems a buyer's SAP would object to, in words. */
  readonly warnings: readonly string[];
}

const ITEM_FIELD = /^NEW_ITEM-([A-Z0-9_]+)\[(\d+)\]$/i;
const LONG_TEXT = /^NEW_ITEM[-_]LONGTEXT_(\d+):132(?:\[\d*\])?$/i;

function groupItems(body: Pick<FormBody, 'fields'>): Map<number, Map<string, string[]>> {
  const items = new Map<number, Map<string, string[]>>();
  const put = (index: number, field: string, value: string) => {
    const item = items.get(index) ?? new Map<string, string[]>();
    item.set(field, [...(item.get(field) ?? []), value]);
    items.set(index, item);
  };
  for (const [name, value] of body.fields) {
    const longText = LONG_TEXT.exec(name);
    if (longText !== null) {
      put(Number(longText[1]), 'LONGTEXT', value);
      continue;
    }
    const match = ITEM_FIELD.exec(name);
    if (match !== null) put(Number(match[2]), (match[1] ?? '').toUpperCase(), value);
  }
  return new Map([...items.entries()].sort(([a], [b]) => a - b));
}

function classificationsOf(get: (field: string) => string | undefined): ClassificationValue[] {
  const category = get('EXT_CATEGORY_ID');
  if (category !== undefined) return [{ domain: get('EXT_SCHEMA_TYPE') ?? 'UNSPSC', code: category }];
  const matGroup = get('MATGROUP');
  return matGroup === undefined ? [] : [{ domain: 'MATGROUP', code: matGroup }];
}

function readItem(index: number, item: Map<string, string[]>, warnings: string[]): RequisitionLine {
  const get = (field: string): string | undefined => {
    const value = item.get(field)?.[0]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const quantity = get('QUANTITY');
  const price = get('PRICE') ?? '0';
  const priceUnit = get('PRICEUNIT') ?? '1';
  if (quantity === undefined || !isDecimal(quantity))
    warnings.push(`Item ${index}: NEW_ITEM-QUANTITY is missing or not a number.`);
  if (!isDecimal(price))
    warnings.push(`Item ${index}: NEW_ITEM-PRICE "${price}" is not a number with a decimal point.`);
  if (get('CURRENCY') === undefined && get('PRICE') !== undefined)
    warnings.push(`Item ${index}: PRICE without CURRENCY.`);
  if (!isDecimal(priceUnit) || Number(priceUnit) <= 0)
    warnings.push(`Item ${index}: NEW_ITEM-PRICEUNIT "${priceUnit}" is not a number above zero.`);
  const perUnits = isDecimal(priceUnit) && Number(priceUnit) > 0 && Number(priceUnit) !== 1;
  const longText = (item.get('LONGTEXT') ?? []).join('\n').trim();
  const productId = get('EXT_PRODUCT_ID');
  const supplierPartID = get('VENDORMAT') ?? get('MANUFACTMAT') ?? productId ?? '';
  if (supplierPartID === '') warnings.push(`Item ${index}: no NEW_ITEM-VENDORMAT (supplier part number).`);
  const manufacturerPartID = get('MANUFACTMAT');
  const url = get('ATTACHMENT');
  const leadTime = get('LEADTIME');
  return {
    source: 'oci',
    supplierPartID,
    ...(productId !== undefined && { supplierPartAuxiliaryID: productId }),
    description: get('DESCRIPTION') ?? '',
    ...(longText !== '' && { longText }),
    quantity: quantity ?? '0',
    unitPrice: price,
    currency: get('CURRENCY') ?? '',
    unitOfMeasure: get('UNIT') ?? '',
    ...(perUnits && {
      priceBasis: { quantity: priceUnit, conversionFactor: '1', unitOfMeasure: get('UNIT') ?? '' },
    }),
    classifications: classificationsOf(get),
    ...(manufacturerPartID !== undefined && { manufacturerPartID }),
    ...(url !== undefined && { url }),
    ...(leadTime !== undefined && { leadTime }),
    extrinsics: [],
  };
}

/**
 * @example
 * const cart = readOciCart(await readFormBody(c.req.raw), SAP_PROFILE);
 * cart.lines.length === 0; // an empty transfer: the user cancelled
 */
export function readOciCart(body: Pick<FormBody, 'fields'>, profile: OciBuyerProfile): OciCart {
  const warnings: string[] = [];
  const lines = [...groupItems(body).entries()].map(([index, item]) => readItem(index, item, warnings));
  const expected: [string, string | undefined][] = [
    ['~OkCode', profile.okCode],
    ['~TARGET', profile.target],
    ['~CALLER', profile.caller],
    ['returntarget', profile.returnTarget],
  ];
  for (const [name, sent] of expected) {
    if (sent === undefined) continue;
    const echoed = formField(body, name);
    if (echoed === undefined) warnings.push(`${name} was sent at punch-in but not echoed with the cart.`);
    else if (echoed !== sent) warnings.push(`${name} came back as "${echoed}"; the punch-in sent "${sent}".`);
  }
  return { lines, warnings };
}
