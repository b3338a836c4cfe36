import { describe, expect, it } from 'vitest';
import { CxmlError, type CxmlParseOptions, extrinsicValue, parseCxmlRequest } from '../../src/cxml/index.ts';
import { largeOrderRequest } from './large-order-request.ts';

const HEADER = `<Header>
  <From><Credential domain="NetworkID"><Identity>AN01000000001</Identity></Credential></From>
  <To><Credential domain="NetworkID"><Identity>AN02000000002</Identity></Credential></To>
  <Sender><Credential domain="NetworkID"><Identity>AN01000000001</Identity><SharedSecret>acme-secret</SharedSecret></Credential><UserAgent>Test</UserAgent></Sender>
</Header>`;

/** A PunchOutSetupRequest whose body is `inner` (BuyerCookie and BrowserFormPost included by default). */
function setupDocument(
  inner = '<BuyerCookie>c1</BuyerCookie><BrowserFormPost><URL>https://buyer.example/r</URL></BrowserFormPost>',
  prolog = '<?xml version="1.0" encoding="UTF-8"?>',
): string {
  return `${prolog}
<cXML payloadID="1@buyer.example" timestamp="2024-05-01T10:00:00+02:00">
${HEADER}
<Request><PunchOutSetupRequest operation="create">${inner}</PunchOutSetupRequest></Request>
</cXML>`;
}

function refusal(input: string | Uint8Array, options?: CxmlParseOptions): { code: string; message: string } {
  try {
    parseCxmlRequest(input, options);
  } catch (error) {
    if (error instanceof CxmlError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the document was accepted');
}

function setupRequest(input: string | Uint8Array) {
  const request = parseCxmlRequest(input);
  if (request.kind !== 'PunchOutSetupRequest') throw new Error(`parsed a ${request.kind}`);
  return request;
}

describe('size caps', () => {
  it('refuses bytes over the default 1 MiB before decoding them', () => {
    const bytes = new Uint8Array(1024 * 1024 + 1).fill(0x20);
    expect(refusal(bytes)).toEqual({
      code: 'too_large',
      message: 'Document is 1048577 bytes; the limit is 1048576 bytes',
    });
  });

  it('counts a string in UTF-8 bytes, not characters', () => {
    const euros = '€'.repeat(400_000); // 400,000 characters, 1,200,000 bytes
    expect(
      refusal(setupDocument(`<BuyerCookie>${euros}</BuyerCookie>`), { maxValueLength: 2_000_000 }),
    ).toEqual({
      code: 'too_large',
      message: `Document is ${1_200_000 + setupDocument('<BuyerCookie></BuyerCookie>').length} bytes; the limit is 1048576 bytes`,
    });
  });

  it('takes the byte cap as an option', () => {
    const document = setupDocument();
    expect(refusal(document, { maxBytes: 100 }).code).toBe('too_large');
    expect(parseCxmlRequest(document, { maxBytes: document.length }).kind).toBe('PunchOutSetupRequest');
  });

  it('refuses a text value over the value cap', () => {
    const document = setupDocument(
      `<BuyerCookie>${'x'.repeat(101)}</BuyerCookie><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>`,
    );
    expect(refusal(document, { maxValueLength: 100 })).toEqual({
      code: 'too_large',
      message: 'Text in <BuyerCookie> is longer than 100 characters',
    });
  });

  it('refuses an attribute value over the value cap', () => {
    const document = setupDocument(
      `<BuyerCookie>c</BuyerCookie><Extrinsic name="${'n'.repeat(101)}">v</Extrinsic><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>`,
    );
    expect(refusal(document, { maxValueLength: 100 })).toEqual({
      code: 'too_large',
      message: 'An attribute of <Extrinsic> is longer than 100 characters',
    });
  });

  it('refuses CDATA over the value cap', () => {
    const document = setupDocument(
      `<BuyerCookie><![CDATA[${'x'.repeat(101)}]]></BuyerCookie><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>`,
    );
    expect(refusal(document, { maxValueLength: 100 })).toEqual({
      code: 'too_large',
      message: 'CDATA in <BuyerCookie> is longer than 100 characters',
    });
  });

  it('accepts nesting up to the depth cap and refuses one level more', () => {
    // cXML > Request > PunchOutSetupRequest > Extrinsic is depth 4.
    const nested = (depth: number) =>
      setupDocument(
        `<BuyerCookie>c</BuyerCookie>${'<Extrinsic name="e">'.repeat(depth)}x${'</Extrinsic>'.repeat(depth)}<BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>`,
      );
    expect(parseCxmlRequest(nested(6), { maxDepth: 9 }).kind).toBe('PunchOutSetupRequest');
    expect(refusal(nested(7), { maxDepth: 9 })).toEqual({
      code: 'too_deep',
      message: 'Elements are nested deeper than 9 levels at <Extrinsic>',
    });
  });

  it('refuses invalid options as a programming error', () => {
    expect(() => parseCxmlRequest(setupDocument(), { maxBytes: 0 })).toThrow(TypeError);
    expect(() => parseCxmlRequest(setupDocument(), { maxDepth: 1.5 })).toThrow(TypeError);
  });
});

describe('hostile documents are refused by the scan, before any tree is built', () => {
  it('stops at an entity declaration even when a depth bomb follows it', () => {
    const document = `<!DOCTYPE cXML [<!ENTITY a "b">]><cXML>${'<a>'.repeat(200_000)}`;
    expect(refusal(document).code).toBe('entity_forbidden');
  });

  it('stops a depth bomb at the cap instead of parsing 100,000 levels', () => {
    const document = `<cXML payloadID="1" timestamp="t">${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</cXML>`;
    expect(refusal(document)).toEqual({
      code: 'too_deep',
      message: 'Elements are nested deeper than 100 levels at <a>',
    });
  });

  it('refuses an entity declaration outside a DOCTYPE', () => {
    expect(refusal('<!ENTITY x "y"><cXML/>').code).toBe('entity_forbidden');
  });

  it('accepts a DOCTYPE whose internal subset is empty, with or without spaces', () => {
    const prolog =
      '<?xml version="1.0"?>\n<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd" [ ]>';
    expect(setupRequest(setupDocument(undefined, prolog)).buyerCookie).toBe('c1');
  });

  it('refuses an internal subset with any declaration, not only entities', () => {
    const prolog = '<!DOCTYPE cXML [<!ELEMENT cXML ANY>]>';
    expect(refusal(setupDocument(undefined, prolog))).toEqual({
      code: 'entity_forbidden',
      message: 'DOCTYPE has an internal subset; punchgate accepts no DTD declarations',
    });
  });
});

describe('malformed markup', () => {
  it.each([
    ['text before the root', 'hello <cXML/>', 'Text outside the root element at line 1'],
    ['a second root', '<cXML/><cXML/>', '<cXML> at line 1 follows the root element'],
    ['an unclosed comment', '<cXML><!-- never closed </cXML>', 'Comment at line 1 is not closed'],
    ['a stray <', '<cXML>a < b</cXML>', 'Tag at line 1 has no name'],
    [
      'a DOCTYPE after the root',
      '<cXML><!DOCTYPE cXML></cXML>',
      'DOCTYPE at line 1 is not at the start of the document',
    ],
    ['a closing tag with nothing open', '</cXML>', '</cXML> at line 1 closes nothing'],
    ['an empty document', '   ', 'Document has no root element'],
    ['CDATA outside the root', '<![CDATA[x]]><cXML/>', 'CDATA section at line 1 is outside the root'],
    ['a tag cut off', '<cXML payloadID="1"', '<cXML> at line 1 is not closed'],
    ['mismatched tags', '<cXML>\n<Header>\n</cXML>', '</cXML> at line 3 closes <Header>'],
  ])('refuses %s', (_case, document, message) => {
    expect(refusal(document)).toEqual({ code: 'malformed', message });
  });

  it('refuses UTF-16 bytes', () => {
    expect(refusal(new Uint8Array([0xff, 0xfe, 0x3c, 0x00])).code).toBe('malformed');
  });

  it('accepts a > inside an attribute value', () => {
    const document = setupDocument(
      '<BuyerCookie>c</BuyerCookie><Extrinsic name="a>b">v</Extrinsic><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>',
    );
    expect(extrinsicValue(setupRequest(document).extrinsics, 'a>b')).toBe('v');
  });
});

describe('envelope rules', () => {
  it('refuses a Request holding two documents', () => {
    const document = setupDocument().replace('</Request>', '<ProfileRequest/></Request>');
    expect(refusal(document)).toEqual({
      code: 'invalid_value',
      message: 'Request holds 2 documents (PunchOutSetupRequest, ProfileRequest); cXML allows one',
    });
  });

  it('refuses an empty Request', () => {
    const document = setupDocument().replace(/<Request>.*<\/Request>/, '<Request/>');
    expect(refusal(document)).toEqual({ code: 'no_request', message: 'Request element is empty' });
  });

  it('refuses a document without payloadID', () => {
    expect(refusal(setupDocument().replace('payloadID="1@buyer.example"', ''))).toEqual({
      code: 'missing_field',
      message: 'cXML has no payloadID attribute',
    });
  });

  it('keeps a timestamp it cannot read as raw text without an instant', () => {
    const request = setupRequest(
      setupDocument().replace('2024-05-01T10:00:00+02:00', '2019-06-20UTC12:52:15+00:00'),
    );
    expect(request.timestamp).toEqual({
      raw: '2019-06-20UTC12:52:15+00:00',
      date: undefined,
      assumedUtc: false,
      dateOnly: false,
    });
  });
});

describe('text decoding', () => {
  it('decodes the predefined entities and character references, and leaves other names alone', () => {
    const request = setupRequest(
      setupDocument(
        '<BuyerCookie>a&amp;b&lt;c&gt;&quot;&apos;&#233;&#xE9;&nbsp;</BuyerCookie><BrowserFormPost><URL>https://b.example/?a=1&amp;b=2</URL></BrowserFormPost><Extrinsic name="R&amp;D">x &#x1F5A8;</Extrinsic>',
      ),
    );
    expect(request.buyerCookie).toBe(`a&b<c>"'éé&nbsp;`);
    expect(request.browserFormPost).toBe('https://b.example/?a=1&b=2');
    expect(request.extrinsics).toEqual([{ name: 'R&D', value: 'x 🖨' }]);
  });

  it('unwraps CDATA literally, in the cookie and in ordinary values', () => {
    const request = setupRequest(
      setupDocument(
        '<BuyerCookie> <![CDATA[a &amp; <b>]]> </BuyerCookie><Extrinsic name="x"><![CDATA[1 < 2]]></Extrinsic><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>',
      ),
    );
    expect(request.buyerCookie).toBe(' a &amp; <b> ');
    expect(extrinsicValue(request.extrinsics, 'x')).toBe('1 < 2');
  });

  it('drops a comment inside the cookie but keeps the text around it', () => {
    const request = setupRequest(
      setupDocument(
        '<BuyerCookie>ab<!-- note -->cd</BuyerCookie><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>',
      ),
    );
    expect(request.buyerCookie).toBe('abcd');
  });

  /** A setup document as bytes whose BuyerCookie is `cookie` (each `#` one byte 0xFC), after `prolog`. */
  function setupBytes(cookie: string, prolog: string): Uint8Array {
    const [before = '', after = ''] = setupDocument(
      '<BuyerCookie>COOKIE</BuyerCookie><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>',
      prolog,
    ).split('COOKIE');
    const encoder = new TextEncoder();
    const parts = cookie.split('#').map((part) => [...encoder.encode(part)]);
    const cookieBytes = parts.flatMap((part, i) => (i === 0 ? part : [0xfc, ...part]));
    return new Uint8Array([...encoder.encode(before), ...cookieBytes, ...encoder.encode(after)]);
  }

  it('reads a Latin-1 document without a declaration (invalid UTF-8, no UTF-8 sequence) as windows-1252', () => {
    expect(setupRequest(setupBytes('M#ller', '')).buyerCookie).toBe('Müller');
  });

  it('refuses a document declared UTF-8 with an invalid byte instead of reading it as another charset', () => {
    expect(() => setupRequest(setupBytes('M#ller', '<?xml version="1.0" encoding="UTF-8"?>'))).toThrow(
      /^Document is declared UTF-8, but byte 0xFC at offset \d+ is not valid UTF-8; send it as UTF-8 or declare its encoding \(ISO-8859-1, windows-1252\)$/,
    );
  });

  it('refuses a document without a declaration that mixes UTF-8 with an invalid byte: "Müller-€" is never mangled', () => {
    expect(() => setupRequest(setupBytes('Müller-€#', ''))).toThrow(
      /^Document has no encoding declaration \(so is UTF-8\), but byte 0xFC at offset \d+ is not valid UTF-8/,
    );
  });

  it('refuses an invalid byte after a UTF-8 byte order mark', () => {
    const bytes = setupBytes('M#ller', '');
    expect(() => setupRequest(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]))).toThrow(
      /^Document begins with a UTF-8 byte order mark, but byte 0xFC at offset \d+ is not valid UTF-8/,
    );
  });

  it('echoes a UTF-8 BuyerCookie "Müller-€" exactly', () => {
    expect(setupRequest(setupBytes('Müller-€', '<?xml version="1.0" encoding="UTF-8"?>')).buyerCookie).toBe(
      'Müller-€',
    );
  });

  it('ignores the declared encoding of text that is already a string', () => {
    const document = setupDocument(
      '<BuyerCookie>Zoë</BuyerCookie><BrowserFormPost><URL>https://b.example/</URL></BrowserFormPost>',
      '<?xml version="1.0" encoding="ISO-8859-1"?>',
    );
    expect(setupRequest(document).buyerCookie).toBe('Zoë');
  });
});

describe('a large purchase order', () => {
  it('parses 1,000 lines (about 650 KB) with every line intact', () => {
    const document = largeOrderRequest(1000);
    expect(new TextEncoder().encode(document).length).toBeGreaterThan(500_000);
    const request = parseCxmlRequest(document);
    if (request.kind !== 'OrderRequest') throw new Error(`parsed a ${request.kind}`);
    expect(request.items).toHaveLength(1000);
    expect(request.total).toEqual({ value: '12500.00', currency: 'EUR' });
    expect(request.items[999]).toMatchObject({
      lineNumber: 1000,
      quantity: '2',
      supplierPartID: 'FLY-A5',
      supplierPartAuxiliaryID: 'L-001000',
      description: 'Print item 1000, 350 g matt',
      comments: 'Line 1000',
    });
  });
});
