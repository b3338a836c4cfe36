/**
 * The requisition's lines as a procurement system lists them: part number, description, quantity, unit
 * price, unit, total, the supplier's auxiliary id (SupplierPartAuxiliaryID / EXT_PRODUCT_ID) and UNSPSC,
 * with per-line Edit and Inspect for cXML profiles (which reopen the whole cart, as Ariba does).
 */
import { html } from 'hono/html';
import { lineAmountText } from '../amount-text.ts';
import { priceBasisText } from '../price-basis.ts';
import { orderTotal } from '../build-order-request.ts';
import { type LineStatus, lineStatuses } from '../line-statuses.ts';
import type { BuyerProfile } from '../profiles.ts';
import type { CartCharge, Requisition, RequisitionLine } from '../requisition.ts';
import { requisitionUrl, type SimulatorContext } from '../simulator-context.ts';
import type { Html } from './layout.ts';

function unspscOf(line: RequisitionLine): string {
  return line.classifications.find((c) => c.domain.toUpperCase() === 'UNSPSC')?.code ?? '—';
}

/** Links only to http(s) pages: a catalog could send any URL, `javascript:` included. */
export function safeLink(url: string | undefined, label: string): Html | string {
  if (url === undefined || !/^https?:\/\//i.test(url)) return '';
  return html`<a href="${url}" target="_blank" rel="noopener noreferrer">${label}</a>`;
}

function descriptionCell(line: RequisitionLine): Html {
  const link = safeLink(line.url, 'View item page');
  return html`${line.description}${line.shortName === undefined ? '' : html`<div class="muted">${line.shortName}</div>`}${
    line.longText === undefined ? '' : html`<div class="long">${line.longText}</div>`
  }${link === '' ? '' : html`<div>${link}</div>`}`;
}

/** The price as quoted: `45.20 EUR`, and `per 1,000 EA` under it for a price of more than one unit. */
function priceCell(line: RequisitionLine): Html {
  return html`${line.unitPrice} ${line.currency}${
    line.priceBasis === undefined ? '' : html`<div class="muted">${priceBasisText(line.priceBasis)}</div>`
  }`;
}

function lineActions(
  ctx: SimulatorContext,
  requisition: Requisition,
  index: number,
  editable: boolean,
): Html | string {
  if (!editable) return '';
  const action = `${requisitionUrl(ctx, requisition.id)}/punchout`;
  const n = index + 1;
  return html`<form class="inline" method="post" action="${action}"><input type="hidden" name="operation" value="edit"><button class="small" type="submit" aria-label="Edit line ${n} in the catalog">Edit</button></form>
<form class="inline" method="post" action="${action}"><input type="hidden" name="operation" value="inspect"><button class="small" type="submit" aria-label="Inspect line ${n} in the catalog">Inspect</button></form>`;
}

const STATUS_TONE: Readonly<Record<string, string>> = { accept: 'good', reject: 'bad', backordered: 'wait' };

/** A line's status as the supplier's confirmations set it: the status, then its reason. */
function statusCell(status: LineStatus | undefined): Html {
  if (status === undefined) return html`<span class="muted">not confirmed</span>`;
  return html`<span class="pill ${STATUS_TONE[status.status] ?? ''}">${status.status}</span>${
    status.reason === '' ? '' : html`<div class="long">${status.reason}</div>`
  }`;
}

/** The carts' Shipping and Tax under the lines, each with its description; nothing without charges. */
function chargeRows(requisition: Requisition, trailing: number): Html | string {
  const { charges } = requisition;
  if (charges === undefined) return '';
  const rows: [string, CartCharge][] = [];
  if (charges.shipping !== undefined) rows.push(['Shipping', charges.shipping]);
  if (charges.tax !== undefined) rows.push(['Tax', charges.tax]);
  return html`<tr><td colspan="6">Lines</td><td class="num">${orderTotal(requisition.lines)} ${requisition.lines[0]?.currency ?? ''}</td><td colspan="${trailing}"></td></tr>${rows.map(
    ([label, charge]) =>
      html`<tr><td colspan="6">${label} (${charge.description})</td><td class="num">${charge.value} ${charge.currency}</td><td colspan="${trailing}"></td></tr>`,
  )}`;
}

export function renderLinesTable(
  ctx: SimulatorContext,
  requisition: Requisition,
  profile: BuyerProfile | undefined,
): Html {
  const { lines } = requisition;
  if (lines.length === 0) {
    return html`<p class="muted">No lines yet. Punch out to the supplier's catalog to add some.</p>`;
  }
  const editable = profile?.protocol === 'cxml' && requisition.order === undefined;
  const auxHeader = profile?.protocol === 'oci' ? 'EXT_PRODUCT_ID' : 'SupplierPartAuxiliaryID';
  const currency = lines[0]?.currency ?? '';
  // Once ordered, each line shows what the supplier's confirmations made of it.
  const statuses =
    requisition.order === undefined ? undefined : lineStatuses(requisition.order, lines.length);
  return html`<table>
<caption>Lines</caption>
<thead><tr><th scope="col" class="num">#</th><th scope="col">Part number</th><th scope="col">Description</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th><th scope="col">UOM</th><th scope="col" class="num">Total</th><th scope="col">${auxHeader}</th><th scope="col">UNSPSC</th>${
    editable ? html`<th scope="col">Catalog</th>` : ''
  }${statuses === undefined ? '' : html`<th scope="col">Supplier status</th>`}</tr></thead>
<tbody>${lines.map(
    (line, index) =>
      html`<tr><td class="num">${index + 1}</td><td class="mono">${line.supplierPartID}</td><td>${descriptionCell(line)}</td><td class="num">${line.quantity}</td><td class="num">${priceCell(line)}</td><td>${line.unitOfMeasure}</td><td class="num">${
        lineAmountText(line) ?? '—'
      } ${line.currency}</td><td class="mono">${line.supplierPartAuxiliaryID ?? '—'}</td><td class="mono">${unspscOf(line)}</td>${
        editable ? html`<td>${lineActions(ctx, requisition, index, editable)}</td>` : ''
      }${statuses === undefined ? '' : html`<td>${statusCell(statuses.get(String(index + 1)))}</td>`}</tr>`,
  )}</tbody>
<tfoot>${chargeRows(requisition, (editable ? 3 : 2) + (statuses === undefined ? 0 : 1))}<tr><td colspan="6">Total</td><td class="num">${orderTotal(lines, requisition.charges)} ${currency}</td><td colspan="${(editable ? 3 : 2) + (statuses === undefined ? 0 : 1)}"></td></tr></tfoot>
</table>`;
}
