/**
 * Validates built documents with xmllint against the official cXML DTDs (CXML_DTD_DIR, else
 * ../shared/reference/cxml-dtd-1.2.071 beside the repository). A missing xmllint or DTD is a failure,
 * never a skip: outbound documents that no one validated must not pass CI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

export const CXML_DTD_DIR = resolve(
  process.env.CXML_DTD_DIR ?? join(REPOSITORY, '../shared/reference/cxml-dtd-1.2.071'),
);

export type DtdModule = 'cXML' | 'Fulfill';

let workDirectory: string | undefined;

/** Throws a message that says how to fix the machine when xmllint or the DTDs are missing. */
export function requireDtdValidator(): void {
  const probe = spawnSync('xmllint', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(
      'xmllint is not installed: the cXML builder tests validate every document against the official DTD. ' +
        'Install it with `apt-get install libxml2-utils` (CI does this in .ci/run).',
    );
  }
  for (const module of ['cXML', 'Fulfill'] as const) {
    if (!existsSync(join(CXML_DTD_DIR, `${module}.dtd`))) {
      throw new Error(
        `${module}.dtd is not in ${CXML_DTD_DIR}; set CXML_DTD_DIR to the cXML 1.2.071 DTD folder`,
      );
    }
  }
}

function directory(): string {
  if (workDirectory === undefined) {
    workDirectory = mkdtempSync(join(tmpdir(), 'punchgate-cxml-'));
    // The DOCTYPE names the DTD on xml.cxml.org; the catalog points xmllint at the local copy instead
    // of the network (and --nonet makes sure it never tries).
    writeFileSync(
      join(workDirectory, 'catalog.xml'),
      `<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <rewriteSystem systemIdStartString="http://xml.cxml.org/schemas/cXML/1.2.071/" rewritePrefix="file://${CXML_DTD_DIR}/"/>
</catalog>
`,
    );
  }
  return workDirectory;
}

let counter = 0;

/** xmllint's verdict on a document: ok, or its messages. */
export function validateAgainstDtd(xml: string, module: DtdModule): { ok: boolean; messages: string } {
  const dir = directory();
  counter += 1;
  const file = join(dir, `document-${counter}.xml`);
  writeFileSync(file, xml, 'utf8');
  const result = spawnSync(
    'xmllint',
    ['--noout', '--nonet', '--dtdvalid', join(CXML_DTD_DIR, `${module}.dtd`), file],
    { encoding: 'utf8', env: { ...process.env, XML_CATALOG_FILES: join(dir, 'catalog.xml') } },
  );
  return { ok: result.status === 0, messages: `${result.stdout}${result.stderr}`.trim() };
}

export function removeValidationFiles(): void {
  if (workDirectory !== undefined) rmSync(workDirectory, { recursive: true, force: true });
  workDirectory = undefined;
}
