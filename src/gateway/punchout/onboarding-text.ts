/**
 * What both protocols' onboarding texts share (`PunchoutProtocol.onboarding`): credentials written as a
 * buyer's administrator types them, and the cXML purchase-order part, which OCI buyers use too. Never a
 * secret: a text that goes to another company says where the secret is agreed, not what it is.
 */
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';

export function credentialLines(credentials: readonly { domain: string; identity: string }[]): string[] {
  return credentials.map((c) => `  domain="${c.domain}" identity="${c.identity}"`);
}

/** The cXML Header a buyer's documents carry: From (the buyer), To (us), Sender (with the secret). */
export function cxmlHeaderLines(
  ctx: GatewayContext,
  from: readonly { domain: string; identity: string }[],
): string[] {
  return [
    'From credential (your identity; any one of):',
    ...credentialLines(from),
    'To credential (us):',
    ...credentialLines(ctx.config.supplier.credentials),
    'Sender credential: your own or your network’s, with the SharedSecret agreed with us (sent to you separately; never written here).',
  ];
}

export function orderStatusLine(buyer: ResolvedBuyer): string {
  return buyer.orderStatusUrl === undefined
    ? 'Order confirmations and ship notices: not sent (no order-status URL configured).'
    : `Order confirmations and ship notices are posted to: ${buyer.orderStatusUrl}`;
}
