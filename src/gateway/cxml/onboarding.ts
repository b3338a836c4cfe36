/**
 * What a cXML buyer's procurement team is given to connect (the console's onboarding text): the one URL
 * every cXML document goes to, the credentials expected in each part of the Header, where the cart may
 * return to, the test account and where order-status documents go. Never a secret.
 */
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { credentialLines, cxmlHeaderLines, orderStatusLine } from '../punchout/onboarding-text.ts';

export function cxmlOnboarding(ctx: GatewayContext, buyer: ResolvedBuyer): string {
  if (buyer.protocol !== 'cxml') throw new TypeError(`buyer ${buyer.id} does not punch out with cXML`);
  const test =
    buyer.test.credentials.length > 0
      ? [
          'Test account (deploymentMode="test"), From credential (any one of):',
          ...credentialLines(buyer.test.credentials),
        ]
      : buyer.test.fromProductionCredentials === 'refuse'
        ? ['Test documents (deploymentMode="test") with the production credentials: refused.']
        : ['Test documents (deploymentMode="test"): sent with the production credentials.'];
  return [
    `cXML punch-out for ${buyer.name ?? buyer.id}`,
    `URL of punch-out and purchase orders (PunchOutSetupRequest, OrderRequest; HTTP POST): ${ctx.publicUrl}/cxml`,
    ...cxmlHeaderLines(ctx, buyer.from),
    `BrowserFormPost URL: on one of these hosts: ${buyer.returnUrlHosts.join(', ')}`,
    `Cart returned as: cXML PunchOutOrderMessage, ${buyer.cartEncoding === 'base64' ? 'cxml-base64' : 'cxml-urlencoded'}`,
    ...test,
    orderStatusLine(buyer),
  ].join('\n');
}
