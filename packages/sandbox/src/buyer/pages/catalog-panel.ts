/**
 * The supplier's catalog inside the requisition, in an iframe as procurement systems embed it. cXML: the
 * frame opens the StartPage the gateway answered (a one-time URL, so it is shown only right after the
 * punch-out). OCI: the page posts the punch-in fields into the frame from the browser.
 */
import { html } from 'hono/html';
import type { BuyerProfile } from '../profiles.ts';
import { ociPunchInUrl } from '../punchout.ts';
import type { PunchoutSession, Requisition } from '../requisition.ts';
import { requisitionUrl, type SimulatorContext } from '../simulator-context.ts';
import type { Html } from './layout.ts';

function closeForm(ctx: SimulatorContext, requisition: Requisition): Html {
  return html`<form class="inline" method="post" action="${requisitionUrl(ctx, requisition.id)}/close-catalog"><button type="submit">Close the catalog</button></form>`;
}

function frame(ctx: SimulatorContext, profile: BuyerProfile, session: PunchoutSession): Html {
  const name = `catalog-${session.number}`;
  if (profile.protocol === 'oci') {
    return html`<form method="post" action="${ociPunchInUrl(ctx, profile)}" target="${name}" accept-charset="${profile.charset.toUpperCase()}" data-autosubmit>
${(session.punchInFields ?? []).map(([field, value]) => html`<input type="hidden" name="${field}" value="${value}">`)}
<p class="muted">The browser posts the OCI punch-in into the frame below. <button type="submit">Open the catalog</button></p>
</form>
<iframe name="${name}" title="Supplier catalog (punch-out ${session.number})"></iframe>`;
  }
  return html`<iframe name="${name}" title="Supplier catalog (punch-out ${session.number})" src="${session.startPageUrl ?? 'about:blank'}"></iframe>`;
}

/**
 * @param shown the punch-out number in the page URL (`?catalog=n`): the frame is shown for that session
 *   only, so reloading the page later does not reuse a one-time StartPage.
 */
export function renderCatalogPanel(
  ctx: SimulatorContext,
  requisition: Requisition,
  profile: BuyerProfile,
  shown: number | undefined,
): Html | string {
  const open = [...requisition.punchouts].reverse().find((p) => p.state === 'open');
  if (open === undefined) return '';
  const where =
    profile.protocol === 'oci'
      ? html`The cart comes back as <code>NEW_ITEM-*</code> fields posted to the HOOK_URL <code>${requisitionUrl(ctx, requisition.id)}/oci-cart</code>.`
      : html`The cart comes back as a PunchOutOrderMessage posted to the BrowserFormPost URL <code>${requisitionUrl(ctx, requisition.id)}/cart</code>.`;
  if (open.number !== shown) {
    const action = `${requisitionUrl(ctx, requisition.id)}/punchout`;
    return html`<section class="card" aria-labelledby="catalog-heading">
<h2 id="catalog-heading">Catalog session ${open.number} is open</h2>
<p>It was opened at <span class="mono">${open.startedAt}</span> (${open.operation}) and has not returned a cart. ${
      profile.protocol === 'cxml'
        ? 'Its StartPage was a one-time link, so reopening starts a new session.'
        : ''
    }</p>
<div class="actions"><form class="inline" method="post" action="${action}"><input type="hidden" name="operation" value="${open.operation}"><button class="primary" type="submit">Punch out again</button></form>${closeForm(ctx, requisition)}</div>
</section>`;
  }
  return html`<section class="card catalog" aria-labelledby="catalog-heading">
<h2 id="catalog-heading">Supplier catalog · punch-out ${open.number} (${open.operation})</h2>
<p class="muted">The gateway's catalog runs in this frame. ${where}</p>
${frame(ctx, profile, open)}
<div class="actions">${closeForm(ctx, requisition)}</div>
</section>`;
}
