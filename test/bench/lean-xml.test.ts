import { describe, expect, it } from 'vitest';
import { LeanXmlError, parseLeanXml } from '../../bench/harness/lean-xml.ts';

const DOCUMENT = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.069/cXML.dtd">
<!-- a comment before the root -->
<cXML payloadID="1@b.example" xml:lang='en'>
  <Header><From><Credential domain="NetworkID"><Identity>AN01</Identity></Credential></From></Header>
  <Request><PunchOutSetupRequest operation="create">
    <BuyerCookie><![CDATA[<raw> & kept]]></BuyerCookie>
    <Extrinsic name="Note">Tom &amp; Jerry &lt;3 &#65;&#x42;</Extrinsic>
    <URL/>
  </PunchOutSetupRequest></Request>
</cXML>
`;

describe('parseLeanXml, the physical floor parse', () => {
  it('reads elements, attributes in either quote, text with entities decoded and CDATA as is', () => {
    const root = parseLeanXml(DOCUMENT);
    expect(root.name).toBe('cXML');
    expect(root.attributes).toEqual({ payloadID: '1@b.example', 'xml:lang': 'en' });
    const request = root.children[1]!.children[0]!;
    expect(request.attributes.operation).toBe('create');
    expect(request.children.map((child) => child.name)).toEqual(['BuyerCookie', 'Extrinsic', 'URL']);
    expect(request.children[0]!.text).toBe('<raw> & kept');
    expect(request.children[1]!.text).toBe('Tom & Jerry <3 AB');
    expect(root.children[0]!.children[0]!.children[0]!.children[0]!.text).toBe('AN01');
  });

  it.each([
    ['crossed tags', '<a><b></a></b>'],
    ['an unclosed element', '<a><b></b>'],
    ['a stray closing tag', '<a></a></b>'],
    ['a second root', '<a/><b/>'],
    ['text after the root', '<a/>text'],
    ['an unquoted attribute', '<a x=1/>'],
    ['an attribute twice', '<a x="1" x="2"/>'],
    ['< in an attribute value', '<a x="<"/>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a bare ampersand', '<a>Tom & Jerry</a>'],
    ['a DTD internal subset', '<!DOCTYPE a [<!ENTITY x "y">]><a/>'],
    ['a bad element name', '<1a/>'],
    ['no root at all', '  '],
  ])('refuses %s', (_, xml) => {
    expect(() => parseLeanXml(xml)).toThrow(LeanXmlError);
  });
});
