/**
 * The charges a PO carries: its header Shipping and Tax (a cXML cart quoted them and the buyer's system
 * kept them), or, for an OCI buyer, the lines naming its charge part numbers (`chargeLines`), which the
 * cart sent as items because OCI has no charge fields. Such a line is the PO's charge, never a product to
 * print: the intake leaves it out of the print order (`isChargeLine`) and the invoice bills it.
 */
import type { Money } from '../../cxml/index.ts';
import {
  addDecimals,
  type Decimal,
  formatDecimal,
  multiplyDecimals,
  readDecimal,
} from '../../kernel/decimal.ts';
import { lineAmount } from '../../kernel/money.ts';
import type { PurchaseOrder } from '../../store/types.ts';
import type { ResolvedBuyer } from '../deps.ts';
import type { PoCharges } from '../invoices/invoice-figures.ts';
import { exactPriceBasis } from '../punchout/pricing.ts';
import { poDocument } from './po-record.ts';

type ChargeKind = 'shipping' | 'tax';

/** Which charge a PO line is by its SupplierPartID: an OCI buyer's charge part number; undefined otherwise. */
export function chargeLineKind(buyer: ResolvedBuyer, supplierPartID: string): ChargeKind | undefined {
  if (buyer.protocol !== 'oci') return undefined;
  const partId = supplierPartID.trim();
  if (partId === '') return undefined;
  if (buyer.chargeLines.shipping?.partId === partId) return 'shipping';
  if (buyer.chargeLines.tax?.partId === partId) return 'tax';
  return undefined;
}

const lenient = { barePoint: true, exponent: true, signed: true } as const;

function amount(quantity: string, unitPrice: string): Decimal | undefined {
  const q = readDecimal(quantity.trim(), lenient);
  const p = readDecimal(unitPrice.trim(), lenient);
  return q === undefined || p === undefined ? undefined : multiplyDecimals(q, p);
}

/**
 * The PO's Shipping and Tax (header first, else its charge lines) and the sum of its produced lines, each
 * as an invoice bills it: quantity × price ÷ its PriceBasisQuantity, rounded once to the currency's minor
 * units. `taxesShipping`: the storefront's rules taxed the cart's shipping, so the PO's Tax holds its tax.
 */
export function poChargesOf(po: PurchaseOrder, buyer: ResolvedBuyer, taxesShipping = false): PoCharges {
  const { request, lines } = poDocument(po);
  const fromLines = (kind: ChargeKind): Money | undefined => {
    const items = request.items.filter((item) => chargeLineKind(buyer, item.supplierPartID) === kind);
    const amounts = items.map((item) => amount(item.quantity, item.unitPrice.value));
    const [first] = items;
    if (first === undefined || amounts.some((a) => a === undefined)) return undefined;
    const total = addDecimals(amounts.filter((a): a is Decimal => a !== undefined));
    return { value: formatDecimal(total), currency: first.unitPrice.currency };
  };
  const money = (charge: Money | undefined): Money | undefined =>
    charge === undefined ? undefined : { value: charge.value, currency: charge.currency };
  const shipping = money(request.shipping) ?? fromLines('shipping');
  const tax = money(request.tax) ?? fromLines('tax');
  const linesTotal = addDecimals(
    lines.flatMap((line) => {
      const q = readDecimal(line.quantity.trim(), lenient);
      const p = readDecimal(line.unitPrice.value.trim(), lenient);
      if (q === undefined || p === undefined) return [];
      return [lineAmount(q, p, exactPriceBasis(line.priceBasis), line.unitPrice.currency)];
    }),
  );
  return {
    ...(shipping !== undefined && { shipping }),
    ...(tax !== undefined && { tax }),
    linesTotal: formatDecimal(linesTotal),
    ...(taxesShipping && { taxesShipping }),
  };
}
