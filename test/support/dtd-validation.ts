/**
 * Validates built documents with xmllint against the official cXML 1.2.071 DTDs, which the repository
 * keeps unmodified in fixtures/cxml-dtd so that every clone validates the same way (CXML_DTD_DIR may
 * point elsewhere, for trying another copy). A missing xmllint or DTD is a failure, never a skip:
 * outbound documents that no one validated must not pass CI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The copy in the repository; fixtures/cxml-dtd/README.md says where it came from. */
export const REPOSITORY_DTD_DIR = fileURLToPath(new URL('../../fixtures/cxml-dtd/', import.meta.url));

export const CXML_DTD_DIR = resolve(process.env.CXML_DTD_DIR || REPOSITORY_DTD_DIR);

export type DtdModule = 'cXML' | 'Fulfill' | 'InvoiceDetail';

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
  for (const module of ['cXML', 'Fulfill', 'InvoiceDetail'] as const) {
    if (!existsSync(join(CXML_DTD_DIR, `${module}.dtd`))) {
      throw new Error(
        `${module}.dtd is not in ${CXML_DTD_DIR}; the repository keeps the cXML 1.2.071 DTDs in ` +
          'fixtures/cxml-dtd (restore them with git, or unset CXML_DTD_DIR to use them)',
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
  <rewriteSystem systemIdStartString="http://xml.cxml.org/schemas/cXML/1.2.071/" rewritePrefix="${pathToFileURL(CXML_DTD_DIR).href}/"/>
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
