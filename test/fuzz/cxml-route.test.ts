import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCxmlAnswer } from '../support/answer-checks.ts';
import { capturingLogger } from '../support/capturing-logger.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { createStack, GATEWAY_ORIGIN, testConfig } from '../support/stack.ts';
import { fuzzParameters, outcomeTally } from './fuzz-budget.ts';
import { HOSTILE_FRAGMENTS, mutateBytes, mutations } from './mutations.ts';

const VALID = new URL('../../fixtures/cxml/valid/', import.meta.url);
const fixtures = readdirSync(VALID)
  .filter((f) => f.endsWith('.xml'))
  .sort()
  .map((file) => ({ file, bytes: new Uint8Array(readFileSync(new URL(file, VALID))) }));

/**
 * A stack whose client address changes with every request, each on every buyer's allow-list, so that the
 * secret throttle (tested on its own) counts wrong secrets per address only and does not turn the rest of
 * the run into 403s and hide the deeper paths.
 */
/** The n-th fuzz client's address, inside 10.0.0.0/8. */
function fuzzClientAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

async function fuzzStack() {
  const logger = capturingLogger();
  const config = testConfig();
  config.buyers = config.buyers.map((b) => ({ ...b, authAllowedAddresses: ['10.0.0.0/8'] }));
  const stack = await createStack(config, {
    gatewayDeps: { logger, clientAddress: (c) => c.req.header('X-Fuzz-Client') },
  });
  let client = 0;
  const post = (body: Uint8Array<ArrayBuffer> | string) =>
    stack.gateway.app.fetch(
      new Request(`${GATEWAY_ORIGIN}/cxml`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'text/xml', 'X-Fuzz-Client': fuzzClientAddress(client++) },
      }),
    );
  return { stack, logger, post };
}

const FUZZ_TIMEOUT = 600_000;

describe('fuzzing POST /cxml: every answer is well-formed cXML with a Status under 500', () => {
  it(
    'mutated fixtures (byte flips, truncation, duplicated and removed elements, markup, huge repeats)',
    async () => {
      const { post, logger } = await fuzzStack();
      const tally = outcomeTally('cXML fixture mutations');
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fixtures), mutations, async (fixture, list) => {
          const code = await checkCxmlAnswer(await post(mutateBytes(fixture.bytes, list)));
          tally(`Status ${code}`);
          expect(code, fixture.file).toBeLessThan(500);
        }),
        fuzzParameters('cxmlFixtureMutations'),
      );
      tally.print();
      expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
    },
    FUZZ_TIMEOUT,
  );

  it(
    'random documents built from cXML element names, attributes and hostile text',
    async () => {
      const { post, logger } = await fuzzStack();
      const tally = outcomeTally('cXML random documents');
      const names = fc.constantFrom(
        'cXML',
        'cxml',
        'Header',
        'From',
        'To',
        'Sender',
        'Credential',
        'Identity',
        'SharedSecret',
        'Request',
        'Response',
        'Message',
        'PunchOutSetupRequest',
        'OrderRequest',
        'OrderRequestHeader',
        'ProfileRequest',
        'BuyerCookie',
        'BrowserFormPost',
        'URL',
        'Extrinsic',
        'ItemOut',
        'ItemID',
        'SupplierPartID',
        'SupplierPartAuxiliaryID',
        'SelectedItem',
        'ShipTo',
        'Status',
        'x',
      );
      const text = fc.oneof(
        fc.string({ maxLength: 30, unit: 'binary' }),
        fc.constantFrom(...HOSTILE_FRAGMENTS),
        fc.constantFrom('AN01000000001', 'acme-secret', 'NetworkID', 'create', 'https://buyer.example/r'),
      );
      const attribute = fc.tuple(
        fc.constantFrom('payloadID', 'timestamp', 'domain', 'operation', 'name', 'quantity', 'version', 'a'),
        text,
      );
      const { node } = fc.letrec<{ node: string }>((tie) => ({
        node: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          text.map((t) => t.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))),
          fc
            .tuple(names, fc.array(attribute, { maxLength: 3 }), fc.array(tie('node'), { maxLength: 4 }))
            .map(([name, attrs, children]) => {
              const a = attrs.map(([k, v]) => ` ${k}="${v.replace(/[<&"]/g, '')}"`).join('');
              return `<${name}${a}>${children.join('')}</${name}>`;
            }),
        ),
      }));
      const prolog = fc.constantFrom(
        '',
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<?xml version="1.0" encoding="ISO-8859-1"?>',
        '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.040/cXML.dtd">',
      );
      // Half the documents have a cXML root with a header, so they get past the root check to the mapping.
      const document = fc.oneof(
        node,
        fc
          .array(node, { maxLength: 4 })
          .map(
            (children) =>
              `<cXML payloadID="p@x" timestamp="2026-11-22T09:00:00Z"><Header><From><Credential domain="NetworkID"><Identity>AN01000000001</Identity></Credential></From><To/><Sender><Credential domain="NetworkID"><Identity>AN01000000001</Identity><SharedSecret>acme-secret</SharedSecret></Credential></Sender></Header>${children.join('')}</cXML>`,
          ),
      );
      await fc.assert(
        fc.asyncProperty(prolog, document, async (head, body) => {
          const code = await checkCxmlAnswer(await post(`${head}${body}`));
          tally(`Status ${code}`);
          expect(code).toBeLessThan(500);
        }),
        fuzzParameters('cxmlRandomDocuments'),
      );
      tally.print();
      expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
    },
    FUZZ_TIMEOUT,
  );

  it(
    'well-formed setup requests with random parameters (credentials, URLs, cookie, user, items)',
    async () => {
      const { post, logger } = await fuzzStack();
      const tally = outcomeTally('cXML random setup parameters');
      const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom(...HOSTILE_FRAGMENTS));
      // Mostly the values a real buyer sends, so that many cases get through authentication to a session.
      const mostly = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) =>
        fc.oneof({ weight: 4, arbitrary: usual }, { weight: 1, arbitrary: odd });
      const options = fc.record(
        {
          operation: fc.constantFrom('create', 'edit', 'inspect'),
          identity: mostly(fc.constantFrom('AN01000000001'), anyText),
          secret: mostly(fc.constantFrom('acme-secret'), anyText),
          browserFormPost: mostly(
            fc.constant('https://buyer.example/punchout/return?req=1'),
            fc.constantFrom(
              'https://buyer.example.evil.example/',
              'javascript:alert(1)',
              'https://user:pass@buyer.example/',
              'http://buyer.example:8080/x',
              'ftp://buyer.example/',
              '//buyer.example/x',
              '',
            ),
          ),
          buyerCookie: anyText,
          userEmail: fc.oneof(fc.emailAddress(), anyText),
          uniqueName: anyText,
          selectedSku: mostly(fc.constantFrom('BC-STD', 'FLY-A5'), anyText),
          items: fc.array(
            fc.record(
              {
                sku: mostly(fc.constantFrom('BC-STD', 'FLY-A5'), anyText),
                lineRef: anyText,
                quantity: fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.double()),
              },
              { requiredKeys: ['sku', 'quantity'] },
            ),
            { maxLength: 3 },
          ),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(options, async (o) => {
          const code = await checkCxmlAnswer(await post(setupRequest(o)));
          tally(`Status ${code}`);
          expect(code).toBeLessThan(500);
        }),
        fuzzParameters('cxmlRandomSetupParameters'),
      );
      tally.print();
      expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
    },
    FUZZ_TIMEOUT,
  );
});
