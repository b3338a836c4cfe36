/**
 * `node --conditions=punchgate-source bench/probes/xml-parsers.ts`: the parses a floor could use, on the
 * bench's 5.3 KB setup and 5-line OrderRequest, interleaved, medians of µs per parse. The physical floor
 * takes the fastest correct one (harness/lean-xml.ts); the design floor the codec's fast-xml-parser set-up.
 */
import { XMLParser } from 'fast-xml-parser';
import { parseXmlTree } from '../../src/cxml/xml-tree.ts';
import { orderBody } from '../cases/po-intake.ts';
import { realisticSetup } from '../cases/punch-in.ts';
import { parseLeanXml } from '../harness/lean-xml.ts';
import { median } from '../harness/statistics.ts';

const documents = { 'setup 5.3 KB': realisticSetup(), 'PO 5 lines': orderBody('probe') };
const bare = new XMLParser({ ignoreAttributes: false, parseTagValue: false, processEntities: false });
const parsers: Record<string, (xml: string) => unknown> = {
  'fast-xml-parser, codec set-up (parseXmlTree)': parseXmlTree,
  'fast-xml-parser, attributes only': (xml) => bare.parse(xml),
  'lean-xml (bench/harness/lean-xml.ts)': parseLeanXml,
};
const N = 2_000;
for (const [what, xml] of Object.entries(documents)) {
  const samples = new Map<string, number[]>(Object.keys(parsers).map((name) => [name, []]));
  for (let round = 0; round < 15; round++) {
    for (const [name, parse] of Object.entries(parsers)) {
      const started = performance.now();
      for (let i = 0; i < N; i++) parse(xml);
      samples.get(name)!.push(((performance.now() - started) * 1000) / N);
    }
  }
  console.log(`${what} (${xml.length} chars)`);
  for (const [name, values] of samples) console.log(`  ${name}: ${median(values).toFixed(1)} µs`);
}
