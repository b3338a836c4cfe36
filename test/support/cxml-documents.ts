/**
 * cXML requests for gateway tests, in the shape real buyers send (Ariba-like by default), with the parts
 * a test varies as options. The fixture trees cover the odd shapes; these cover the flows.
 */
import { escapeHtml as escapeXml } from '../../src/kernel/html-escape.ts';

export interface SetupOptions {
  operation?: 'create' | 'edit' | 'inspect';
  domain?: string;
  identity?: string;
  secret?: string;
  browserFormPost?: string;
  buyerCookie?: string;
  userEmail?: string;
  uniqueName?: string;
  selectedSku?: string;
  items?: { sku: string; lineRef?: string; quantity: number }[];
  payloadID?: string;
  deploymentMode?: 'production' | 'test';
}

export function setupRequest(options: SetupOptions = {}): string {
  const {
    operation = 'create',
    domain = 'NetworkID',
    identity = 'AN01000000001',
    secret = 'acme-secret',
    browserFormPost = 'https://buyer.example/punchout/return?req=1',
    buyerCookie = 'cookie-1',
    userEmail = 'jane.roe@acme.example',
    uniqueName = 'jroe',
    payloadID = `${Math.random().toString(36).slice(2)}@buyer.example`,
    deploymentMode = 'production',
  } = options;
  const items = (options.items ?? [])
    .map(
      (item, i) => `<ItemOut quantity="${item.quantity}" lineNumber="${i + 1}"><ItemID>
<SupplierPartID>${escapeXml(item.sku)}</SupplierPartID>${
        item.lineRef === undefined
          ? ''
          : `<SupplierPartAuxiliaryID>${escapeXml(item.lineRef)}</SupplierPartAuxiliaryID>`
      }
</ItemID></ItemOut>`,
    )
    .join('\n');
  const selected =
    options.selectedSku === undefined
      ? ''
      : `<SelectedItem><ItemID><SupplierPartID>${escapeXml(options.selectedSku)}</SupplierPartID></ItemID></SelectedItem>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.040/cXML.dtd">
<cXML payloadID="${escapeXml(payloadID)}" timestamp="2026-11-22T09:00:00-05:00" xml:lang="en-US">
<Header>
<From><Credential domain="${escapeXml(domain)}"><Identity>${escapeXml(identity)}</Identity></Credential></From>
<To><Credential domain="DUNS"><Identity>PRINTCO</Identity></Credential></To>
<Sender><Credential domain="${escapeXml(domain)}"><Identity>${escapeXml(identity)}</Identity><SharedSecret>${escapeXml(secret)}</SharedSecret></Credential><UserAgent>Buyer 14s2</UserAgent></Sender>
</Header>
<Request deploymentMode="${deploymentMode}">
<PunchOutSetupRequest operation="${operation}">
<BuyerCookie>${escapeXml(buyerCookie)}</BuyerCookie>
<Extrinsic name="UniqueName">${escapeXml(uniqueName)}</Extrinsic>
<Extrinsic name="UserEmail">${escapeXml(userEmail)}</Extrinsic>
<BrowserFormPost><URL>${escapeXml(browserFormPost)}</URL></BrowserFormPost>
<SupplierSetup><URL>http://gateway.test/cxml</URL></SupplierSetup>
${items}
${selected}
</PunchOutSetupRequest>
</Request>
</cXML>`;
}

export function profileRequest(identity = 'AN01000000001', secret = 'acme-secret'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<cXML payloadID="profile-1@buyer.example" timestamp="2026-11-22T09:00:00Z">
<Header>
<From><Credential domain="NetworkID"><Identity>${identity}</Identity></Credential></From>
<To><Credential domain="DUNS"><Identity>PRINTCO</Identity></Credential></To>
<Sender><Credential domain="NetworkID"><Identity>${identity}</Identity><SharedSecret>${secret}</SharedSecret></Credential><UserAgent>Buyer 14s2</UserAgent></Sender>
</Header>
<Request><ProfileRequest/></Request>
</cXML>`;
}
