/**
 * The Buyers page's onboarding section of a buyer: the text to give its procurement team (the protocol's
 * `onboarding`: URLs, credentials or fields, never a secret) in a read-only field with a copy button. The
 * config file stays the one place a buyer is set up; the console only shows what it says.
 */
import type { GatewayContext } from '../../context.ts';
import type { ResolvedBuyer } from '../../deps.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { copyableText } from './layout.ts';

export function onboardingSection(ctx: GatewayContext, buyer: ResolvedBuyer): SafeHtml {
  const text = ctx.protocolOf(buyer).onboarding(ctx, buyer);
  const rows = Math.min(24, text.split('\n').length + 1);
  return html`<section aria-label="Onboarding ${buyer.name ?? buyer.id}">
${copyableText(`onboarding-${buyer.id}`, `What to give the procurement team of ${buyer.name ?? buyer.id}`, text, rows)}
<p class="muted">The secret (SharedSecret or password) is agreed separately and lives only in the config file; change the buyer there, not here.</p>
</section>`;
}
