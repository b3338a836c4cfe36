/**
 * Cheap before authenticated (issue 17, deliverable 4): `POST /cxml` reads the Header on its own and proves
 * the sender before the rest of the document costs anything, so a stranger's worst-case document is
 * refused by its Header alone; the whole document's Header is then checked again, so a Header hidden where
 * the scan looks first gains nothing; an upload cut off mid-body is no error of ours.
 */
import { describe, expect, it } from 'vitest';
import { HEADER_SCAN_CHARS, peekCxmlHeader } from '../../../src/cxml/index.ts';
import { PARSE_AT_ONCE_BYTES } from '../../../src/gateway/cxml/route.ts';
import { capturingLogger } from '../../support/capturing-logger.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { statusOf } from '../../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN } from '../../support/stack.ts';

const BOMB_DOCTYPE = '<!DOCTYPE cXML [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';

describe('peekCxmlHeader', () => {
  it('reads the Header and names the request after it, without reading the rest', () => {
    const document = setupRequest().replace('<BrowserFormPost>', '<Broken><BrowserFormPost>');
    const peeked = peekCxmlHeader(document);
    expect(peeked.header.from).toEqual([{ domain: 'NetworkID', identity: 'AN01000000001' }]);
    expect(peeked.header.sender.credentials[0]?.sharedSecret).toBe('acme-secret');
    expect(peeked.requestName).toBe('PunchOutSetupRequest');
    expect(peeked.text).toBe(document);
  });

  it('refuses a document whose Header does not end within the scan, or that has none there', () => {
    const longHeader = setupRequest().replace(
      '</From>',
      `</From>${'<Credential domain="x"><Identity>y</Identity></Credential>'.repeat(3000)}`,
    );
    expect(() => peekCxmlHeader(longHeader)).toThrow(
      `The cXML Header does not end within the first ${HEADER_SCAN_CHARS / 1024} KB of the document`,
    );
    expect(() => peekCxmlHeader('<cXML><Request/></cXML>')).toThrow('cXML has no Header in its first 128 KB');
  });
});

describe('POST /cxml authenticates on the Header before reading the document', () => {
  it("a stranger's document with an entity bomb is refused as unknown (401), never examined", async () => {
    const stack = await createStack();
    const stranger = setupRequest({ identity: 'NOBODY' }).replace('<cXML', `${BOMB_DOCTYPE}<cXML`);
    expect(statusOf(await stack.postCxml(stranger))).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'Unknown buyer: no account for From credential NetworkID/NOBODY.',
    });
    // The buyer's own document with the same DOCTYPE is read, and refused for it.
    const own = setupRequest().replace('<cXML', `${BOMB_DOCTYPE}<cXML`);
    expect(statusOf(await stack.postCxml(own)).code).toBe(406);
  });

  it('a stranger hears the same 401 whether the document is parsed at once (everyday size) or header-first', async () => {
    const stack = await createStack();
    const small = setupRequest({ identity: 'NOBODY' });
    const padded = small.replace('<BuyerCookie>', `<!-- ${'x'.repeat(PARSE_AT_ONCE_BYTES)} --><BuyerCookie>`);
    expect(new TextEncoder().encode(small).byteLength).toBeLessThanOrEqual(PARSE_AT_ONCE_BYTES);
    for (const document of [small, padded]) {
      expect(statusOf(await stack.postCxml(document))).toEqual({
        code: 401,
        text: 'Unauthorized',
        detail: 'Unknown buyer: no account for From credential NetworkID/NOBODY.',
      });
    }
    // The buyer's own, either size, is answered.
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(200);
    const ownPadded = setupRequest().replace(
      '<BuyerCookie>',
      `<!-- ${'x'.repeat(PARSE_AT_ONCE_BYTES)} --><BuyerCookie>`,
    );
    expect(statusOf(await stack.postCxml(ownPadded)).code).toBe(200);
  });

  it('a Header hidden before the real one (in a comment) authenticates nobody the real one does not', async () => {
    const stack = await createStack();
    const real = setupRequest({ secret: 'wrong-secret' });
    const decoy = /<Header>[\s\S]*<\/Header>/.exec(setupRequest())?.[0] ?? '';
    const document = real.replace('<Header>', `<!--${decoy}--><Header>`);
    expect(statusOf(await stack.postCxml(document))).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'Authentication failed: the Sender SharedSecret is not valid.',
    });
  });

  it('an upload cut off mid-body is answered 400 and logged as a refusal, not as a bug', async () => {
    const logger = capturingLogger();
    const stack = await createStack(undefined, { gatewayDeps: { logger } });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(setupRequest().slice(0, 200)));
        controller.error(new Error('aborted'));
      },
    });
    const answer = await stack.gateway.app.fetch(
      new Request(`${GATEWAY_ORIGIN}/cxml`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'text/xml' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(answer.status).toBe(200);
    expect(statusOf(await answer.text())).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: 'The document did not arrive whole.',
    });
    expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('a body that is not XML is refused on its first chunk, not after a whole head', async () => {
    const stack = await createStack();
    const chunk = new TextEncoder().encode(`\ufeff \n${'a'.repeat(16 * 1024 - 6)}`);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          if (pulled > 32) controller.close();
          else controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const answer = await stack.gateway.app.fetch(
      new Request(`${GATEWAY_ORIGIN}/cxml`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'text/xml', 'Content-Length': String(32 * chunk.byteLength) },
        duplex: 'half',
      } as RequestInit),
    );
    expect(statusOf(await answer.text())).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail:
        "The document is not XML: it must begin with '<' (after an optional byte order mark and white space)",
    });
    // A head is HEADER_SCAN_CHARS (8 of these chunks); the answer came after the first.
    expect(pulled).toBe(1);
  });
});
