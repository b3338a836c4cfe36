/**
 * Validates built documents against the official cXML 1.2.071 DTDs, which the repository keeps
 * unmodified in fixtures/cxml-dtd so that every clone validates the same way (CXML_DTD_DIR may point
 * elsewhere, for trying another copy). The validator is libxml2 itself — the library behind xmllint —
 * compiled to WebAssembly and installed by npm (libxml2-wasm), so no program on the machine is needed.
 * A missing DTD is a failure, never a skip: outbound documents that no one validated must not pass CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DtdValidator, ParseOption, XmlDocument, XmlDtd, XmlLibError } from 'libxml2-wasm';

/** The copy in the repository; fixtures/cxml-dtd/README.md says where it came from. */
export const REPOSITORY_DTD_DIR = fileURLToPath(new URL('../../fixtures/cxml-dtd/', import.meta.url));

export const CXML_DTD_DIR = resolve(process.env.CXML_DTD_DIR || REPOSITORY_DTD_DIR);

export type DtdModule = 'cXML' | 'Fulfill' | 'InvoiceDetail';

const MODULES: readonly DtdModule[] = ['cXML', 'Fulfill', 'InvoiceDetail'];

/** Each DTD parsed once per test file; they are the same for every document. */
const validators = new Map<DtdModule, DtdValidator>();

/** Throws a message that says how to fix the checkout when a DTD is missing. */
export function requireDtdValidator(): void {
  for (const module of MODULES) {
    if (!existsSync(join(CXML_DTD_DIR, `${module}.dtd`))) {
      throw new Error(
        `${module}.dtd is not in ${CXML_DTD_DIR}; the repository keeps the cXML 1.2.071 DTDs in ` +
          'fixtures/cxml-dtd (restore them with git, or unset CXML_DTD_DIR to use them)',
      );
    }
  }
}

function validatorFor(module: DtdModule): DtdValidator {
  let validator = validators.get(module);
  if (validator === undefined) {
    validator = new DtdValidator(XmlDtd.fromBuffer(readFileSync(join(CXML_DTD_DIR, `${module}.dtd`))));
    validators.set(module, validator);
  }
  return validator;
}

/**
 * libxml2's verdict on a document, as `xmllint --dtdvalid` gives it: ok, or its messages, one a line with
 * the line number. The document's DOCTYPE names the DTD on xml.cxml.org; it is never loaded (the parser
 * neither reads external subsets nor reaches the network), the given module is the one that counts.
 */
export function validateAgainstDtd(xml: string, module: DtdModule): { ok: boolean; messages: string } {
  let document: XmlDocument | undefined;
  try {
    document = XmlDocument.fromString(xml, { option: ParseOption.XML_PARSE_NONET });
    validatorFor(module).validate(document);
    return { ok: true, messages: '' };
  } catch (error) {
    if (!(error instanceof XmlLibError)) throw error;
    const messages = error.details
      .map((detail) => `line ${detail.line}: ${detail.message.trim()}`)
      .join('\n');
    return { ok: false, messages };
  } finally {
    document?.dispose();
  }
}

/** Frees the parsed DTDs (they live in WebAssembly memory) after a file's tests. */
export function disposeDtdValidators(): void {
  for (const validator of validators.values()) validator.dispose();
  validators.clear();
}
