/**
 * What an OCI buyer's procurement team is given to connect (the console's onboarding text): the punch-in
 * URL and its fields, where HOOK_URL may point, the charset and version, and how purchase orders come
 * (cXML OrderRequests, if this buyer sends them). Never the password.
 */
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { cxmlHeaderLines, orderStatusLine } from '../punchout/onboarding-text.ts';

export function ociOnboarding(ctx: GatewayContext, buyer: ResolvedBuyer): string {
  if (buyer.protocol !== 'oci') throw new TypeError(`buyer ${buyer.id} does not punch out with OCI`);
  const orders =
    buyer.from.length === 0
      ? ['Purchase orders (cXML OrderRequest): not set up (no From credentials configured for this buyer).']
      : [
          `Purchase orders (cXML OrderRequest, HTTP POST): ${ctx.publicUrl}/cxml`,
          ...cxmlHeaderLines(ctx, buyer.from),
          orderStatusLine(buyer),
        ];
  return [
    `SAP OCI ${buyer.ociVersion} catalog for ${buyer.name ?? buyer.id}`,
    `Punch-in URL (HTTP POST, or GET): ${ctx.publicUrl}/oci/${encodeURIComponent(buyer.id)}`,
    'Fields:',
    `  ${buyer.loginFields.username}=${buyer.username}`,
    `  ${buyer.loginFields.password}=the password agreed with us (sent to you separately; never written here)`,
    `  HOOK_URL=your return URL, on one of these hosts: ${buyer.hookUrlHosts.join(', ')}${buyer.allowSapEvent ? ' (SAPEVENT: URLs accepted)' : ''}`,
    '  optional: FUNCTION=DETAIL|DETAILADD|SOURCING|VALIDATE|BACKGROUND_SEARCH with PRODUCTID, SEARCHSTRING, QUANTITY',
    `Charset: ${buyer.charset}`,
    '',
    ...orders,
  ].join('\n');
}
