/**
 * The purchase-order part of the requisition page: the order form (ship-to, bill-to, contact, comments)
 * before ordering; afterwards the gateway's answer, the supplier's confirmations and ship notices as they
 * arrive, and the demo's "advance print order" control when the demo provides it.
 */
import { html } from 'hono/html';
import { fullName } from '../demo-users.ts';
import { printOrderIds } from '../print-order-ids.ts';
import type { AddressSpec, BuyerProfile } from '../profiles.ts';
import type { ConfirmationView, PurchaseOrder, Requisition, ShipNoticeView } from '../requisition.ts';
import { findUser, requisitionUrl, type SimulatorContext } from '../simulator-context.ts';
import type { Html } from './layout.ts';
import { safeLink } from './lines-table.ts';

function address(spec: AddressSpec): Html {
  return html`<address>${spec.name}${spec.addressID === undefined ? '' : html` <span class="muted">(${spec.addressID})</span>`}<br>${spec.street.map(
    (street) => html`${street}<br>`,
  )}${spec.postalCode} ${spec.city}${spec.state === undefined ? '' : html`, ${spec.state}`}<br>${spec.country}</address>`;
}

function orderForm(ctx: SimulatorContext, requisition: Requisition, profile: BuyerProfile): Html {
  const user = findUser(ctx, requisition.userId);
  const empty = requisition.lines.length === 0;
  return html`<form method="post" action="${requisitionUrl(ctx, requisition.id)}/order">
<div class="grid">
<div><h3>Ship to</h3>${address(profile.shipTo)}</div>
<div><h3>Bill to</h3>${address(profile.billTo)}</div>
<div><h3>Requester</h3>${user === undefined ? requisition.userId : html`${fullName(user)}<br>${user.email}<br>${user.costCenter}`}</div>
</div>
<h3><label for="comments">Comments to the supplier</label></h3>
<textarea id="comments" name="comments" rows="2">Please deliver to the mail room.</textarea>
<div class="actions"><button class="primary" type="submit"${empty ? html` disabled` : ''}>Submit purchase order</button>
<span class="muted">Sends a cXML OrderRequest to <code>${ctx.gatewayUrl}/cxml</code>${
    profile.protocol === 'oci' ? ' (OCI has no order message; SAP sends its POs as cXML)' : ''
  }.</span></div>
</form>`;
}

function confirmationBlock(confirmation: ConfirmationView): Html {
  const tone = confirmation.type === 'reject' ? 'bad' : 'good';
  return html`<article>
<h3>Confirmation <span class="pill ${tone}">${confirmation.type}</span>${confirmation.operation === 'new' ? '' : html` <span class="muted">(${confirmation.operation})</span>`}</h3>
<dl class="facts">
<dt>Notice date</dt><dd class="mono">${confirmation.noticeDate}</dd>
${confirmation.confirmID === undefined ? '' : html`<dt>Supplier reference</dt><dd class="mono">${confirmation.confirmID}</dd>`}
${confirmation.comments === '' ? '' : html`<dt>Comments</dt><dd class="long">${confirmation.comments}</dd>`}
${confirmation.extrinsics.map((e) => html`<dt>${e.name}</dt><dd>${e.value}</dd>`)}
<dt>Received</dt><dd class="mono">${confirmation.receivedAt}</dd>
</dl>
${
  confirmation.items.length === 0
    ? ''
    : html`<table><caption>Confirmed lines</caption><thead><tr><th scope="col" class="num">Line</th><th scope="col" class="num">Qty</th><th scope="col">UOM</th><th scope="col">Status</th></tr></thead><tbody>${confirmation.items.map(
        (item) =>
          html`<tr><td class="num">${item.lineNumber}</td><td class="num">${item.quantity}</td><td>${item.unitOfMeasure}</td><td>${item.statuses.map(
            (s) =>
              html`<div><strong>${s.type}</strong> ${s.quantity}${s.shipmentDate === undefined ? '' : html` · ships ${s.shipmentDate}`}${
                s.deliveryDate === undefined ? '' : html` · delivery ${s.deliveryDate}`
              }${s.unitPrice === undefined ? '' : html` · price ${s.unitPrice}`}${s.comments === '' ? '' : html` · ${s.comments}`}</div>`,
          )}</td></tr>`,
      )}</tbody></table>`
}
</article>`;
}

function shipNoticeBlock(notice: ShipNoticeView, lines: Requisition['lines']): Html {
  return html`<article>
<h3>Ship notice <span class="mono">${notice.shipmentID}</span> <span class="pill good">shipped</span></h3>
<dl class="facts">
<dt>Carrier</dt><dd>${notice.carriers.length === 0 ? '—' : notice.carriers.map((c, i) => html`${i > 0 ? ', ' : ''}${c.name} <span class="muted">(${c.domain})</span>`)}</dd>
<dt>Tracking</dt><dd>${
    notice.tracking.length === 0
      ? '—'
      : notice.tracking.map(
          (t, i) =>
            html`${i > 0 ? ', ' : ''}<span class="mono">${t.number}</span>${t.url === undefined ? '' : html` ${safeLink(t.url, 'track')}`}`,
        )
  }</dd>
${notice.serviceLevel === undefined ? '' : html`<dt>Service</dt><dd>${notice.serviceLevel}</dd>`}
<dt>Shipment date</dt><dd class="mono">${notice.shipmentDate ?? '—'}</dd>
${notice.deliveryDate === undefined ? '' : html`<dt>Delivery date</dt><dd class="mono">${notice.deliveryDate}</dd>`}
<dt>Notice date</dt><dd class="mono">${notice.noticeDate}</dd>
${notice.comments === '' ? '' : html`<dt>Comments</dt><dd class="long">${notice.comments}</dd>`}
<dt>Received</dt><dd class="mono">${notice.receivedAt}</dd>
</dl>
${
  notice.items.length === 0
    ? html`<p>No lines listed: the whole order shipped.</p>`
    : html`<table><caption>Shipped lines</caption><thead><tr><th scope="col" class="num">Line</th><th scope="col">Part number</th><th scope="col">Description</th><th scope="col" class="num">Qty</th><th scope="col">UOM</th></tr></thead><tbody>${notice.items.map(
        (item) => {
          // A ship notice names lines by the PO's lineNumber; ItemID is optional there.
          const line = lines[Number(item.lineNumber) - 1];
          return html`<tr><td class="num">${item.lineNumber}</td><td class="mono">${item.supplierPartID ?? line?.supplierPartID ?? '—'}</td><td>${line?.description ?? ''}</td><td class="num">${item.quantity}</td><td>${item.unitOfMeasure}</td></tr>`;
        },
      )}</tbody></table>`
}
</article>`;
}

function answerPill(order: PurchaseOrder): Html {
  const { code, text, detail } = order.answer;
  if (code === 0 && text === 'Sending') return html`<span class="pill wait">sending…</span>`;
  const tone = code >= 200 && code < 300 ? 'good' : 'bad';
  return html`<span class="pill ${tone}">${code === 0 ? 'no cXML answer' : `${code} ${text}`}</span>${
    detail === '' ? '' : html` <span class="muted">${detail}</span>`
  }`;
}

function orderStatus(ctx: SimulatorContext, requisition: Requisition, order: PurchaseOrder): Html {
  const accepted = order.answer.code >= 200 && order.answer.code < 300;
  const ids = printOrderIds(order);
  const base = requisitionUrl(ctx, requisition.id);
  const waiting =
    accepted && order.confirmations.length === 0 && order.shipNotices.length === 0
      ? html`<p class="muted">Waiting for the supplier's ConfirmationRequest and ShipNoticeRequest at <code>${ctx.publicUrl}/order-status</code>. This page reloads when one arrives.</p>`
      : '';
  return html`<dl class="facts">
<dt>Purchase order</dt><dd class="mono">${order.orderID}</dd>
<dt>payloadID</dt><dd class="mono">${order.payloadID}</dd>
<dt>Ordered</dt><dd class="mono">${order.orderDate}</dd>
<dt>Gateway answer</dt><dd>${answerPill(order)}${order.attempts > 1 ? html` <span class="muted">after ${order.attempts} attempts</span>` : ''}</dd>
${ids.length === 0 ? '' : html`<dt>Supplier order</dt><dd class="mono">${ids.join(', ')}</dd>`}
</dl>
${
  accepted
    ? ''
    : html`<form method="post" action="${base}/order"><div class="actions"><button class="primary" type="submit">Send the OrderRequest again (same payloadID)</button></div></form>`
}
${
  accepted && ctx.advanceOrder !== undefined && order.shipNotices.length === 0
    ? html`<form method="post" action="${base}/advance"><div class="actions"><button type="submit"${ids.length === 0 ? html` disabled` : ''}>Advance print order: merge files and ship</button><span class="muted">${
        ids.length === 0
          ? 'Demo control: available once the supplier’s confirmation names its print order.'
          : 'Demo control: asks the sandbox print service to finish the order, so the ship notice arrives.'
      }</span></div></form>`
    : ''
}
${waiting}
${order.confirmations.map(confirmationBlock)}
${order.shipNotices.map((notice) => shipNoticeBlock(notice, requisition.lines))}`;
}

export function renderOrderPanel(
  ctx: SimulatorContext,
  requisition: Requisition,
  profile: BuyerProfile,
): Html {
  return html`<section class="card" aria-labelledby="order-heading">
<h2 id="order-heading">Purchase order</h2>
${requisition.order === undefined ? orderForm(ctx, requisition, profile) : orderStatus(ctx, requisition, requisition.order)}
</section>`;
}
