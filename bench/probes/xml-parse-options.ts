/**
 * `node --conditions=punchgate-source bench/probes/xml-parse-options.ts`: what each part of reading a cXML
 * request costs on the bench's 5.3 KB setup and 5-line OrderRequest — the whole `parseCxmlRequest`, its
 * steps (decoding, the markup guard, the SharedSecret check, fast-xml-parser, reading the request from the
 * tree) — and what each fast-xml-parser option of the codec's set-up (src/cxml/xml-tree.ts) costs, each
 * variant being the codec's with one option changed. Interleaved rounds, medians of CPU µs per document
 * (this process's CPU time, which a shared machine's other work disturbs less than the wall clock).
 */
import { type X2jOptions, XMLParser } from 'fast-xml-parser';
import { decodeCxmlInput } from '../../src/cxml/decode-input.ts';
import { guardMarkup } from '../../src/cxml/markup-guard.ts';
import { DEFAULT_PARSE_LIMITS } from '../../src/cxml/parse-options.ts';
import { parseCxmlRequest } from '../../src/cxml/parse-request.ts';
import { assertPlainSharedSecrets } from '../../src/cxml/shared-secret.ts';
import { CODEC_PARSER_OPTIONS, parseXmlTree } from '../../src/cxml/xml-tree.ts';
import { orderBody } from '../cases/po-intake.ts';
import { realisticSetup } from '../cases/punch-in.ts';
import { median } from '../harness/statistics.ts';

const documents = { 'setup 5.3 KB': realisticSetup(), 'PO 5 lines': orderBody('probe') };

/** The codec's set-up with `change` made. */
const variant = (change: Partial<X2jOptions>) => {
  const parser = new XMLParser({ ...CODEC_PARSER_OPTIONS, ...change });
  return (xml: string) => parser.parse(xml);
};

const steps: Record<string, (xml: string, bytes: Uint8Array) => unknown> = {
  'parseCxmlRequest (bytes in)': (_xml, bytes) => parseCxmlRequest(bytes),
  '  decodeCxmlInput': (_xml, bytes) => decodeCxmlInput(bytes, DEFAULT_PARSE_LIMITS.maxBytes),
  '  guardMarkup': (xml) => guardMarkup(xml, DEFAULT_PARSE_LIMITS),
  '  assertPlainSharedSecrets': (xml) => assertPlainSharedSecrets(xml),
  '  parseXmlTree (fast-xml-parser, codec set-up)': (xml) => parseXmlTree(xml),
  'fxp: objects, not document order (a second walk)': variant({ preserveOrder: false }),
  'fxp: objects, repeatable elements as arrays (the set-up before)': variant({
    preserveOrder: false,
    isArray: (name) => name === 'ItemOut' || name === 'Extrinsic' || name === 'Credential',
  }),
  'fxp: no stopNodes (BuyerCookie would not be kept raw)': variant({ stopNodes: [] }),
  'fxp: trimValues false': variant({ trimValues: false }),
  'fxp: jPath true': variant({ jPath: true }),
  'fxp: ignoreAttributes true (reads nothing usable)': variant({ ignoreAttributes: true }),
  'fxp: processEntities true': variant({ processEntities: true }),
  'fxp: no declaration/PI skipping': variant({ ignoreDeclaration: false, ignorePiTags: false }),
};

const N = 300;
for (const [what, xml] of Object.entries(documents)) {
  const bytes = new TextEncoder().encode(xml);
  const samples = new Map<string, number[]>(Object.keys(steps).map((name) => [name, []]));
  for (let round = 0; round < 25; round++) {
    for (const [name, step] of Object.entries(steps)) {
      const started = process.cpuUsage();
      for (let i = 0; i < N; i++) step(xml, bytes);
      const used = process.cpuUsage(started);
      samples.get(name)?.push((used.user + used.system) / N);
    }
  }
  console.log(`${what} (${xml.length} chars)`);
  for (const [name, values] of samples) console.log(`  ${name}: ${median(values).toFixed(1)} µs`);
}
