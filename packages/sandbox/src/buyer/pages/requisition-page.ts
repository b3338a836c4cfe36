/**
 * The requisition: who is buying with which profile, the latest notices, the catalog frame while a
 * punch-out is open, the lines, the purchase order with the supplier's documents, and every document
 * exchanged. The page lifts itself out of the catalog frame when a cart post lands there.
 */
import { html } from 'hono/html';
import { fullName } from '../demo-users.ts';
import type { Notice, Requisition } from '../requisition.ts';
import { findProfile, findUser, requisitionUrl, type SimulatorContext } from '../simulator-context.ts';
import { renderCatalogPanel } from './catalog-panel.ts';
import { renderDocumentsPanel } from './documents-panel.ts';
import { type Html, layout } from './layout.ts';
import { renderLinesTable } from './lines-table.ts';
import { renderOrderPanel } from './order-panel.ts';
import { requisitionState, testPill } from './requisition-state.ts';

function latestNotices(notices: readonly Notice[]): readonly Notice[] {
  const last = notices[notices.length - 1];
  return last === undefined ? [] : notices.filter((notice) => notice.at === last.at);
}

function noticeBlock(notice: Notice): Html {
  return html`<div class="notice ${notice.level}" role="${notice.level === 'error' ? 'alert' : 'status'}">${notice.text}</div>`;
}

export function renderRequisitionPage(
  ctx: SimulatorContext,
  requisition: Requisition,
  shownCatalog: number | undefined,
): Html {
  const profile = findProfile(ctx, requisition.profileId);
  const user = findUser(ctx, requisition.userId);
  const state = requisitionState(requisition);
  const base = requisitionUrl(ctx, requisition.id);
  if (profile === undefined) {
    return layout({
      title: `Requisition ${requisition.id}`,
      homeUrl: ctx.publicUrl,
      body: html`<h1>Requisition ${requisition.id}</h1><div class="notice error" role="alert">Its profile ${requisition.profileId} is no longer configured.</div>`,
    });
  }
  const userName = user === undefined ? requisition.userId : fullName(user);
  const punchOut =
    requisition.order === undefined
      ? html`<form class="inline" method="post" action="${base}/punchout"><input type="hidden" name="operation" value="create"><button class="primary" type="submit">${
          requisition.lines.length === 0 ? 'Punch out to the catalog' : 'Punch out to add items'
        }</button></form>`
      : '';
  const accepted =
    requisition.order !== undefined &&
    requisition.order.answer.code >= 200 &&
    requisition.order.answer.code < 300;
  const body = html`<h1>Requisition ${requisition.id} <span class="pill ${state.tone}">${state.label}</span>${testPill(requisition)}</h1>
<dl class="facts">
<dt>Procurement system</dt><dd>${profile.name} <span class="badge ${profile.protocol}">${profile.protocol === 'oci' ? 'OCI' : 'cXML'}</span> · gateway buyer <code>${profile.gatewayBuyerId}</code></dd>
<dt>Requester</dt><dd>${userName}${user === undefined ? '' : html` · ${user.email}`}</dd>
<dt>Created</dt><dd class="mono">${requisition.createdAt}</dd>
</dl>
${latestNotices(requisition.notices).map(noticeBlock)}
${renderCatalogPanel(ctx, requisition, profile, shownCatalog)}
<section class="card" aria-labelledby="lines-heading">
<h2 id="lines-heading">Cart</h2>
${renderLinesTable(ctx, requisition, profile)}
<div class="actions">${punchOut}</div>
</section>
${renderOrderPanel(ctx, requisition, profile)}
${renderDocumentsPanel(requisition.documents)}
${
  requisition.notices.length === 0
    ? ''
    : html`<section class="card" aria-labelledby="activity-heading"><h2 id="activity-heading">Activity</h2><ol class="timeline">${[
        ...requisition.notices,
      ]
        .reverse()
        .map((n) => html`<li><span class="mono muted">${n.at}</span> ${n.text}</li>`)}</ol></section>`
}
<noscript><p class="muted">If this page shows inside the catalog frame, <a href="${base}" target="_top">open the requisition in the whole window</a>.</p></noscript>`;
  return layout({
    title: `Requisition ${requisition.id}`,
    homeUrl: ctx.publicUrl,
    who: `${profile.name} · ${userName}`,
    body,
    breakout: true,
    ...(accepted && { poll: { url: `${base}/revision`, revision: requisition.revision } }),
  });
}
