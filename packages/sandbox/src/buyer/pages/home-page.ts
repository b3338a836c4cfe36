/**
 * The simulator's home: pick a procurement-system profile and a user and punch out; the requisitions so
 * far; the order-status documents that arrived; and the endpoints to put into the gateway config.
 */
import { html } from 'hono/html';
import type { InboundDocument } from '../buyer-store.ts';
import { fullName } from '../demo-users.ts';
import type { BuyerProfile } from '../profiles.ts';
import type { Requisition } from '../requisition.ts';
import type { SimulatorContext } from '../simulator-context.ts';
import { findProfile, findUser, requisitionUrl } from '../simulator-context.ts';
import { type Html, layout } from './layout.ts';
import { requisitionState, testPill } from './requisition-state.ts';

function profileChoice(profile: BuyerProfile, checked: boolean): Html {
  const credentials =
    profile.protocol === 'oci'
      ? `${profile.loginFields.username}=${profile.username} · PO from ${profile.cxml.from.map((c) => `${c.domain} ${c.identity}`).join(', ')}`
      : `From ${profile.cxml.from.map((c) => `${c.domain} ${c.identity}`).join(', ')} · ${profile.cxml.userAgent}`;
  return html`<label class="choice"><input type="radio" name="profile" value="${profile.id}"${checked ? html` checked` : ''} required>
<span><strong>${profile.name}</strong> <span class="badge ${profile.protocol}">${profile.protocol === 'oci' ? 'OCI' : 'cXML'}</span>
<small>${profile.summary}</small>
<small>Gateway buyer <code>${profile.gatewayBuyerId}</code> · ${credentials}</small></span></label>`;
}

function requisitionRows(ctx: SimulatorContext, requisitions: readonly Requisition[]): Html {
  if (requisitions.length === 0) {
    return html`<p class="muted">No requisitions yet. Choose a profile and a user above and punch out.</p>`;
  }
  return html`<table aria-labelledby="requisitions-heading">
<thead><tr><th scope="col">Requisition</th><th scope="col">Profile</th><th scope="col">User</th><th scope="col" class="num">Lines</th><th scope="col">Purchase order</th><th scope="col">State</th></tr></thead>
<tbody>${requisitions.map((r) => {
    const user = findUser(ctx, r.userId);
    const state = requisitionState(r);
    return html`<tr><td><a href="${requisitionUrl(ctx, r.id)}">${r.id}</a></td><td>${findProfile(ctx, r.profileId)?.name ?? r.profileId}</td><td>${user === undefined ? r.userId : fullName(user)}</td><td class="num">${r.lines.length}</td><td>${r.order?.orderID ?? '—'}</td><td><span class="pill ${state.tone}">${state.label}</span>${testPill(r)}</td></tr>`;
  })}</tbody></table>`;
}

function inboundRows(ctx: SimulatorContext, documents: readonly InboundDocument[]): Html {
  if (documents.length === 0)
    return html`<p class="muted">Nothing has arrived at the order-status endpoint yet.</p>`;
  return html`<table>
<caption>Order-status inbox (newest first)</caption>
<thead><tr><th scope="col">Received</th><th scope="col">Document</th><th scope="col">Order</th><th scope="col">Answered</th></tr></thead>
<tbody>${documents.map(
    (d) =>
      html`<tr><td class="mono">${d.at}</td><td>${d.title}</td><td>${
        d.requisitionId === undefined
          ? (d.orderID ?? '—')
          : html`<a href="${requisitionUrl(ctx, d.requisitionId)}">${d.orderID}</a>`
      }</td><td><span class="pill ${d.code >= 200 && d.code < 300 ? 'good' : 'bad'}">${d.code} ${d.text}</span>${
        d.detail === '' ? '' : html` <span class="muted">${d.detail}</span>`
      }</td></tr>`,
  )}</tbody></table>`;
}

/** Profiles with an invoice URL of their own take their invoices there, not at the order-status endpoint. */
function invoiceUrlSentence(ctx: SimulatorContext): Html | string {
  const own = ctx.profiles.filter((profile) => profile.invoicePath !== undefined);
  if (own.length === 0) return '';
  return html`; ${own.map(
    (profile, i) =>
      html`${i > 0 ? ', ' : ''}${profile.name} takes its invoices at <code>${ctx.publicUrl}${profile.invoicePath}</code> only`,
  )}`;
}

export function renderHomePage(ctx: SimulatorContext): Html {
  const body = html`<h1>Buyer simulator</h1>
<p class="lead">A small procurement system, like the punch-out testers integrators use. Pick how it should behave and who is shopping, punch out to the supplier's catalog (it opens in a frame, as in Ariba, Coupa or SAP SRM), bring the cart back, order it, and watch the supplier's confirmations, ship notices and invoices arrive. Every document exchanged is shown verbatim.</p>
<section class="card" aria-labelledby="start-heading">
<h2 id="start-heading">Start a requisition</h2>
<form method="post" action="${ctx.publicUrl}/requisitions">
<fieldset><legend>Procurement system</legend>
<div class="grid">${ctx.profiles.map((profile, index) => profileChoice(profile, index === 0))}</div></fieldset>
<fieldset><legend>User</legend>
<div class="grid">${ctx.users.map(
    (user, index) =>
      html`<label class="choice"><input type="radio" name="user" value="${user.id}"${index === 0 ? html` checked` : ''} required><span><strong>${fullName(user)}</strong><small>${user.email} · ${user.department} · ${user.costCenter}</small></span></label>`,
  )}</div></fieldset>
<fieldset><legend>Account</legend>
<label class="choice"><input type="checkbox" name="test" value="yes"><span><strong>Test account</strong><small>cXML profiles only: the punch-out and the PO are sent with <code>deploymentMode="test"</code>; the supplier keeps them apart from production (in the demo, on its test storefront)</small></span></label></fieldset>
<button class="primary" type="submit">Punch out</button>
</form>
</section>
<section class="card" aria-labelledby="requisitions-heading">
<h2 id="requisitions-heading">Requisitions</h2>
${requisitionRows(ctx, ctx.store.list())}
</section>
<section class="card" aria-labelledby="inbox-heading">
<h2 id="inbox-heading">Order-status endpoint</h2>
<p>Suppliers post ConfirmationRequest, ShipNoticeRequest and InvoiceDetailRequest documents to <code>${ctx.publicUrl}/order-status</code> (the buyer's <code>orderStatusUrl</code> in the gateway config)${invoiceUrlSentence(ctx)}.</p>
${inboundRows(ctx, ctx.store.inbound())}
</section>
<section class="card" aria-labelledby="endpoints-heading">
<h2 id="endpoints-heading">Endpoints used</h2>
<dl class="facts">
<dt>cXML requests to</dt><dd><code>${ctx.gatewayUrl}/cxml</code></dd>
<dt>OCI punch-in to</dt><dd><code>${ctx.gatewayUrl}/oci/{buyer}</code></dd>
<dt>Cart (BrowserFormPost)</dt><dd><code>${ctx.publicUrl}/requisitions/{id}/cart</code></dd>
<dt>Cart (OCI HOOK_URL)</dt><dd><code>${ctx.publicUrl}/requisitions/{id}/oci-cart</code></dd>
<dt>Order status</dt><dd><code>${ctx.publicUrl}/order-status</code></dd>
${ctx.profiles.map((profile) =>
  profile.invoicePath === undefined
    ? ''
    : html`<dt>Invoices (${profile.name})</dt><dd><code>${ctx.publicUrl}${profile.invoicePath}</code></dd>`,
)}
</dl>
</section>`;
  return layout({ title: 'Home', homeUrl: ctx.publicUrl, body });
}
