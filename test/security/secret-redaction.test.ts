/**
 * Redaction by structure (issue 17, deliverable 5): a SharedSecret must be plain text, so no spelling —
 * comments, CDATA, elements, entities, namespace prefixes, whitespace — keeps a secret in a stored PO or
 * in the admin API's answer. The comment trick that used to authenticate and stay stored is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildConfirmationRequest,
  CxmlError,
  parseCxmlRequest,
  redactSharedSecrets,
  withSharedSecret,
} from '../../src/cxml/index.ts';
import { disposeDtdValidators, requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';
import { adminJson, createOrderStack, linesOf, orderRequest, punchOut } from '../support/order-flow.ts';
import { statusOf } from '../support/punchout-flow.ts';

const PLAIN = '<SharedSecret>acme-secret</SharedSecret>';

/** An OrderRequest for the lines of a fresh punch-out, its SharedSecret element written as `secret`. */
async function orderWithSecret(secretElement: string) {
  const stack = await createOrderStack();
  const lines = linesOf(await punchOut(stack, ['Business cards']));
  const document = orderRequest({ orderID: 'PO-SECRET', lines });
  expect(document).toContain(PLAIN);
  return { stack, document: document.replace(PLAIN, secretElement) };
}

describe('a SharedSecret must be plain text', () => {
  it.each([
    ['a comment that hides an end tag', '<SharedSecret><!--</SharedSecret>-->acme-secret</SharedSecret>'],
    ['a CDATA section', '<SharedSecret><![CDATA[acme-secret]]></SharedSecret>'],
    ['an element', '<SharedSecret><b>acme-secret</b></SharedSecret>'],
    ['a processing instruction', '<SharedSecret><?x y?>acme-secret</SharedSecret>'],
  ])('%s inside it is refused before the document is read', async (_case, element) => {
    const { stack, document } = await orderWithSecret(element);
    expect(() => parseCxmlRequest(document)).toThrow(CxmlError);
    expect(statusOf(await stack.postCxml(document))).toEqual({
      code: 400,
      text: 'Bad Request',
      detail:
        'A SharedSecret must be plain text: comments, CDATA sections and elements inside it are not accepted',
    });
    expect((await stack.store.orders.list()).items).toEqual([]);
  });

  it('a secret spelled with character references authenticates and leaves nothing of itself stored', async () => {
    const { stack, document } = await orderWithSecret(
      '<SharedSecret >&#97;cme&#x2D;s&#101;cret</SharedSecret >',
    );
    expect(statusOf(await stack.postCxml(document)).code).toBe(200);
    const [order] = (await stack.store.orders.list()).items;
    const stored = await stack.store.orders.get(order?.id ?? '');
    expect(stored?.raw).toContain('<SharedSecret >[redacted]</SharedSecret >');
    for (const text of [
      stored?.raw ?? '',
      JSON.stringify(await adminJson(stack, `/admin/orders/${order?.id}`)),
    ]) {
      expect(text).not.toMatch(/acme-secret|&#97;cme|s&#101;cret/);
    }
  });
});

describe('redactSharedSecrets', () => {
  it.each([
    ['plain', PLAIN, '<SharedSecret>[redacted]</SharedSecret>'],
    [
      'with attributes',
      '<SharedSecret xml:lang="en">s</SharedSecret>',
      '<SharedSecret xml:lang="en">[redacted]</SharedSecret>',
    ],
    [
      'with a namespace prefix',
      '<c:SharedSecret>s</c:SharedSecret >',
      '<c:SharedSecret>[redacted]</c:SharedSecret >',
    ],
    ['in another case', '<sharedsecret>s</sharedsecret>', '<sharedsecret>[redacted]</sharedsecret>'],
    ['spanning lines', '<SharedSecret>\n  s\n</SharedSecret>', '<SharedSecret>[redacted]</SharedSecret>'],
    ['empty', '<SharedSecret/>', '<SharedSecret/>'],
    [
      'several',
      '<SharedSecret>a</SharedSecret><Identity>x</Identity><SharedSecret>b</SharedSecret>',
      '<SharedSecret>[redacted]</SharedSecret><Identity>x</Identity><SharedSecret>[redacted]</SharedSecret>',
    ],
  ])('%s', (_case, input, output) => {
    expect(redactSharedSecrets(input)).toBe(output);
  });

  it('takes a buyer document of 4 MB of whitespace in one pass (a pattern starting in it would take hours)', () => {
    const spaces = ' \n\t'.repeat(1_400_000);
    expect(redactSharedSecrets(`${spaces}${PLAIN}${spaces}`)).toBe(
      `${spaces}<SharedSecret>[redacted]</SharedSecret>${spaces}`,
    );
  }, 10_000);
});

/** A ConfirmationRequest from us, our secret (if any) in both Sender credentials, as the outbox builds one. */
function confirmationWith(secret: string | undefined): string {
  const credential = (domain: string, identity: string) => ({
    domain,
    identity,
    ...(secret !== undefined && { sharedSecret: secret }),
  });
  return buildConfirmationRequest({
    payloadID: '1714557600000.k3j9x2@punchgate.example',
    timestamp: new Date('2024-05-01T10:00:00Z'),
    header: {
      from: [{ domain: 'DUNS', identity: 'PRINTCO' }],
      to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
      sender: {
        credentials: [credential('DUNS', 'PRINTCO'), credential('NetworkID', 'AN-PRINTCO')],
        userAgent: 'punchgate 0.1',
      },
    },
    type: 'accept',
    confirmID: 'PRINT-100042',
    noticeDate: new Date('2024-05-03T11:00:00Z'),
    orderID: '0004500123',
    orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
    comments: 'Accepted.',
  });
}

describe('a document we send: stored redacted, posted with the secret configured then', () => {
  beforeAll(() => requireDtdValidator());
  afterAll(() => disposeDtdValidators());

  const secret = `a&b<c>'"é $& $1`;
  const built = confirmationWith(secret);
  const stored = redactSharedSecrets(built);

  it('is stored with every SharedSecret [redacted], still DTD-valid', () => {
    expect(built).toContain('<SharedSecret>a&amp;b&lt;c&gt;\'"é $&amp; $1</SharedSecret>');
    expect(stored).toBe(built.replaceAll('a&amp;b&lt;c&gt;\'"é $&amp; $1', '[redacted]'));
    expect(stored.match(/<SharedSecret>\[redacted\]<\/SharedSecret>/g)).toHaveLength(2);
    expect(validateAgainstDtd(stored, 'Fulfill')).toEqual({ ok: true, messages: '' });
  });

  it('gets back, byte for byte, what was built with the same secret', () => {
    expect(withSharedSecret(stored, secret)).toBe(built);
  });

  it('after a rotation, is what a build with the new secret would be', () => {
    expect(withSharedSecret(stored, 'rotated')).toBe(confirmationWith('rotated'));
  });

  it('with no secret configured any more, carries none, as a build without one would', () => {
    expect(withSharedSecret(stored, undefined)).toBe(confirmationWith(undefined));
  });
});
