import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_DTD_DIR } from '../support/dtd-validation.ts';

// The cXML licence allows copying only the unmodified Specification, with the licence attached; these
// are the hashes of the 1.2.071 DTDs as published (fixtures/cxml-dtd/README.md lists them too).
const PUBLISHED_SHA256 = {
  'cXML.dtd': 'd267ad7b19cbd6608b972821daacab0f4d94a8ec78610b7127dba23222198a64',
  'Fulfill.dtd': '1bdb5394eac2ea243dcb124e7cb149603a53848a75d89018ee06bdc6e699d21c',
  'InvoiceDetail.dtd': '4351e2b54d919e8b89c5e1dd6791347649334acec4ec3e0b31180b17163336c1',
};

function sha256(file: string): string {
  return createHash('sha256')
    .update(readFileSync(join(REPOSITORY_DTD_DIR, file)))
    .digest('hex');
}

describe('the cXML DTDs kept in fixtures/cxml-dtd', () => {
  it('are the unmodified 1.2.071 files', () => {
    const found = Object.fromEntries(Object.keys(PUBLISHED_SHA256).map((file) => [file, sha256(file)]));
    expect(found).toEqual(PUBLISHED_SHA256);
  });

  it('travel with the cXML licence', () => {
    const licence = readFileSync(join(REPOSITORY_DTD_DIR, 'LICENSE'), 'utf8').replace(/\s+/g, ' ');
    expect(licence).toContain('IMPORTANT: PLEASE CAREFULLY READ THIS cXML LICENSE AGREEMENT');
    expect(licence).toContain(
      'If you publish, copy or distribute the Specification, then this License must be attached.',
    );
    expect(licence).toContain('Ariba, Inc. shall be deemed the Licensor.');
  });
});
