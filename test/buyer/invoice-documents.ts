/**
 * Hand-written InvoiceDetailRequests for the buyer simulator's tests, modelled on InvoiceDetail.dtd
 * 1.2.071 (the tests validate them with libxml2), written here rather than with the gateway's builder so
 * the simulator's check is tested against documents of its own. The defaults bill fake-gateway's PO-1001:
 * line 1 500 × BC-STD at 0.09 = 45.00, line 2 250 × FLY-A5 at 0.35 = 87.50; 8.25 % tax, 9.95 shipping,
 * 5.00 discount, net 30 days.
 */
import { NOW } from './fake-gateway.ts';

export interface InvoiceLineSpec {
  readonly invoiceLineNumber?: number;
  readonly lineNumber: number;
  readonly quantity: string;
  readonly unitPrice: string;
  readonly subtotal: string;
  readonly unitOfMeasure?: string;
  readonly supplierPartID?: string;
  /** Written as the line's Tax (with isTaxInLine when `taxInLine`). */
  readonly tax?: string;
}

export interface InvoiceSpec {
  readonly invoiceID?: string;
  readonly payloadID?: string;
  readonly orderID?: string;
  readonly orderPayloadID?: string;
  readonly purpose?: string;
  readonly operation?: string;
  readonly invoiceDate?: string;
  readonly currency?: string;
  /** Currency of the summary's DueAmount only, to test a mismatch there. */
  readonly dueCurrency?: string;
  readonly taxInLine?: boolean;
  readonly paymentTermDays?: number;
  readonly creditedInvoiceID?: string;
  /** A header invoice: InvoiceDetailHeaderOrder, no lines (credit memos). */
  readonly headerOrder?: boolean;
  readonly lines?: readonly InvoiceLineSpec[];
  readonly subtotal?: string;
  readonly tax?: string;
  readonly shipping?: string;
  readonly discount?: string;
  readonly gross?: string;
  readonly net?: string;
  readonly due?: string;
  readonly sharedSecret?: string;
  readonly comments?: string;
}

export const CARD_INVOICE_LINE: InvoiceLineSpec = {
  lineNumber: 1,
  quantity: '500',
  unitPrice: '0.09',
  subtotal: '45.00',
  supplierPartID: 'BC-STD',
  tax: '3.71',
};

export const FLYER_INVOICE_LINE: InvoiceLineSpec = {
  lineNumber: 2,
  quantity: '250',
  unitPrice: '0.35',
  subtotal: '87.50',
  supplierPartID: 'FLY-A5',
  tax: '7.22',
};

const TIMESTAMP = NOW.toISOString().replace(/\.\d{3}Z$/, '+00:00');

function cents(value: number): string {
  return value.toFixed(2);
}

function tax(amount: string, currency: string, taxable?: string): string {
  return `<Tax><Money currency="${currency}">${amount}</Money><Description xml:lang="en">Sales tax</Description><TaxDetail purpose="tax" category="sales" percentageRate="8.25">${
    taxable === undefined
      ? ''
      : `<TaxableAmount><Money currency="${currency}">${taxable}</Money></TaxableAmount>`
  }<TaxAmount><Money currency="${currency}">${amount}</Money></TaxAmount></TaxDetail></Tax>`;
}

function line(spec: InvoiceLineSpec, index: number, currency: string, taxInLine: boolean): string {
  const money = (value: string) => `<Money currency="${currency}">${value}</Money>`;
  return `<InvoiceDetailItem invoiceLineNumber="${spec.invoiceLineNumber ?? index + 1}" quantity="${spec.quantity}">
<UnitOfMeasure>${spec.unitOfMeasure ?? 'EA'}</UnitOfMeasure>
<UnitPrice>${money(spec.unitPrice)}</UnitPrice>
<InvoiceDetailItemReference lineNumber="${spec.lineNumber}">${
    spec.supplierPartID === undefined
      ? ''
      : `<ItemID><SupplierPartID>${spec.supplierPartID}</SupplierPartID></ItemID>`
  }<Description xml:lang="en">Line ${spec.lineNumber}</Description></InvoiceDetailItemReference>
<SubtotalAmount>${money(spec.subtotal)}</SubtotalAmount>
${taxInLine && spec.tax !== undefined ? tax(spec.tax, currency, spec.subtotal) : ''}
</InvoiceDetailItem>`;
}

/** An InvoiceDetailRequest; figures left out are computed so that the document adds up. */
export function invoiceDocument(spec: InvoiceSpec = {}): string {
  const currency = spec.currency ?? 'USD';
  const taxInLine = spec.taxInLine ?? false;
  const lines = spec.headerOrder === true ? [] : (spec.lines ?? [CARD_INVOICE_LINE, FLYER_INVOICE_LINE]);
  const subtotal = spec.subtotal ?? cents(lines.reduce((sum, l) => sum + Number(l.subtotal), 0));
  const taxAmount =
    spec.tax ??
    (taxInLine
      ? cents(lines.reduce((sum, l) => sum + Number(l.tax ?? 0), 0))
      : cents(Math.round(Number(subtotal) * 8.25) / 100));
  const shipping = spec.shipping ?? '9.95';
  const discount = spec.discount ?? '5.00';
  const gross = spec.gross ?? cents(Number(subtotal) + Number(taxAmount) + Number(shipping));
  const net = spec.net ?? cents(Number(gross) - Number(discount));
  const due = spec.due ?? net;
  const money = (value: string, cur = currency) => `<Money currency="${cur}">${value}</Money>`;
  const orderInfo = `<InvoiceDetailOrderInfo><OrderReference orderID="${spec.orderID ?? 'PO-1001'}">${`<DocumentReference payloadID="${spec.orderPayloadID ?? 'po-payload@buyer.test'}"/>`}</OrderReference></InvoiceDetailOrderInfo>`;
  const order =
    spec.headerOrder === true
      ? `<InvoiceDetailHeaderOrder>${orderInfo}<InvoiceDetailOrderSummary invoiceLineNumber="1"><SubtotalAmount>${money(subtotal)}</SubtotalAmount><GrossAmount>${money(gross)}</GrossAmount><NetAmount>${money(net)}</NetAmount></InvoiceDetailOrderSummary></InvoiceDetailHeaderOrder>`
      : `<InvoiceDetailOrder>${orderInfo}
${lines.map((l, i) => line(l, i, currency, taxInLine)).join('\n')}
</InvoiceDetailOrder>`;
  const credited = spec.creditedInvoiceID;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/InvoiceDetail.dtd">
<cXML payloadID="${spec.payloadID ?? 'inv-1@printco.test'}" timestamp="${TIMESTAMP}" xml:lang="en">
<Header>
<From><Credential domain="DUNS"><Identity>PRINTCO</Identity></Credential></From>
<To><Credential domain="NetworkID"><Identity>AN01000000001</Identity></Credential></To>
<Sender><Credential domain="DUNS"><Identity>PRINTCO</Identity><SharedSecret>${spec.sharedSecret ?? 'printco-secret'}</SharedSecret></Credential><UserAgent>punchgate</UserAgent></Sender>
</Header>
<Request deploymentMode="test">
<InvoiceDetailRequest>
<InvoiceDetailRequestHeader invoiceID="${spec.invoiceID ?? 'INV-70001'}" purpose="${spec.purpose ?? 'standard'}" operation="${spec.operation ?? 'new'}" invoiceDate="${spec.invoiceDate ?? TIMESTAMP}">
<InvoiceDetailHeaderIndicator${spec.headerOrder === true ? ' isHeaderInvoice="yes"' : ''}/>
<InvoiceDetailLineIndicator${taxInLine ? ' isTaxInLine="yes"' : ''}/>
<InvoicePartner><Contact role="remitTo"><Name xml:lang="en">PrintCo Inc.</Name></Contact></InvoicePartner>
${credited === undefined ? '' : `<InvoiceIDInfo invoiceID="${credited}"/>`}
${spec.paymentTermDays === undefined ? '<PaymentTerm payInNumberOfDays="30"/>' : spec.paymentTermDays < 0 ? '' : `<PaymentTerm payInNumberOfDays="${spec.paymentTermDays}"/>`}
${spec.comments === undefined ? '' : `<Comments xml:lang="en">${spec.comments}</Comments>`}
</InvoiceDetailRequestHeader>
${order}
<InvoiceDetailSummary>
<SubtotalAmount>${money(subtotal)}</SubtotalAmount>
${tax(taxAmount, currency)}
<ShippingAmount>${money(shipping)}</ShippingAmount>
<GrossAmount>${money(gross)}</GrossAmount>
${discount === '0.00' ? '' : `<InvoiceDetailDiscount>${money(discount)}</InvoiceDetailDiscount>`}
<NetAmount>${money(net)}</NetAmount>
<DueAmount>${money(due, spec.dueCurrency ?? currency)}</DueAmount>
</InvoiceDetailSummary>
</InvoiceDetailRequest>
</Request>
</cXML>
`;
}
