/**
 * The cXML hand-back of a big cart: the `cxml-base64` field is built a chunk of bytes at a time (issue 18),
 * so a 1,000-line PunchOutOrderMessage with non-ASCII text must decode to exactly the XML that was built.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { utf8Base64 } from '../../../src/gateway/cxml/transfer.ts';
import { clickButton, designProduct, returnFormOf, startUrlOf } from '../../support/punchout-flow.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { createStack } from '../../support/stack.ts';

const reader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => ['ItemIn', 'Extrinsic', 'Classification'].includes(name),
});

/** The base64 field back to text, refusing any byte sequence that is not UTF-8. */
function decodeBase64Utf8(field: string): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(
    Uint8Array.from(atob(field), (c) => c.charCodeAt(0)),
  );
}

describe('utf8Base64', () => {
  it('is the base64 of the UTF-8 bytes, across chunk boundaries and multi-byte characters', () => {
    // 3-byte "€" and 2-byte "ü" land on every offset of the 8 KB chunks; one 4-byte emoji too.
    const text = `${'Müller-€ '.repeat(20_000)}🖨️ end`;
    const encoded = utf8Base64(text);
    expect(encoded).toBe(Buffer.from(text, 'utf8').toString('base64'));
    expect(decodeBase64Utf8(encoded)).toBe(text);
    expect(utf8Base64('')).toBe('');
  });
});

describe('a 1,000-line cart transfer', () => {
  it('round-trips: the decoded field is the whole message, non-ASCII text intact', async () => {
    const stack = await createStack();
    const cookie = 'Müller-€-cookie';
    const answer = await stack.postCxml(setupRequest({ buyerCookie: cookie }));
    const cart = await designProduct(stack, await stack.browse(startUrlOf(answer)), 'Business cards');
    const lineRef = /ref (L-[A-Z0-9]+)/.exec(cart.text)?.[1];
    const first = lineRef === undefined ? undefined : await stack.store.cart.get(lineRef);
    if (first === undefined) throw new Error('no cart line after the design');
    // 999 more lines of the same design, each with a non-ASCII description of its own.
    const { position: _p, state: _s, createdAt: _c, updatedAt: _u, ...line } = first;
    for (let i = 2; i <= 1_000; i++) {
      await stack.store.cart.add({ ...line, lineRef: `L-BIG${i}`, name: `Business cards Müller-€ ${i}` });
    }

    const transfer = await clickButton(
      stack,
      await stack.browse(cart.url),
      'Transfer cart to procurement system',
    );
    expect(transfer.status).toBe(200);
    const field = returnFormOf(transfer).fields.find(([name]) => name === 'cxml-base64');
    if (field === undefined) throw new Error('no cxml-base64 field');
    const xml = decodeBase64Utf8(field[1]);
    // What was built: encoding it again gives the very same field.
    expect(utf8Base64(xml)).toBe(field[1]);
    expect(xml.startsWith('<?xml')).toBe(true);
    expect(xml.trimEnd().endsWith('</cXML>')).toBe(true);

    const message = reader.parse(xml).cXML.Message.PunchOutOrderMessage;
    expect(message.BuyerCookie).toBe(cookie);
    const items = message.ItemIn as { ItemDetail: { Description: { '#text': string } } }[];
    expect(items).toHaveLength(1_000);
    expect(items[999]?.ItemDetail.Description['#text']).toBe('Business cards Müller-€ 1000');
    expect(items.filter((item) => item.ItemDetail.Description['#text'].includes('Müller-€'))).toHaveLength(
      999,
    );
  }, 60_000);
});
