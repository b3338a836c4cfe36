/**
 * Redaction by structure (issue 17, deliverable 5): a SharedSecret must be plain text, so no spelling —
 * comments, CDATA, elements, entities, namespace prefixes, whitespace — keeps a secret in a stored PO or
 * in the admin API's answer. The comment trick that used to authenticate and stay stored is refused.
 */
import { describe, expect, it } from 'vitest';
import { CxmlError, parseCxmlRequest, redactSharedSecrets } from '../../src/cxml/index.ts';
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
});
