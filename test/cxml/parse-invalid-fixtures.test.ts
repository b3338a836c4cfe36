import { describe, expect, it } from 'vitest';
import { CXML_ERROR_CODES, CxmlError, cxmlStatusFor, parseCxmlRequest } from '../../src/cxml/index.ts';
import { fixtureBytes, fixtureJson, fixtureNames } from './fixture-files.ts';

interface Expected {
  readonly errorCode: string;
  readonly status: number;
  readonly text: string;
  readonly message: string;
}

const expected = fixtureJson<Record<string, Expected>>('invalid', 'expected.json');
const names = fixtureNames('invalid');

function rejection(input: string | Uint8Array): CxmlError {
  try {
    parseCxmlRequest(input);
  } catch (error) {
    if (error instanceof CxmlError) return error;
    throw error;
  }
  throw new Error('the document was accepted');
}

describe('invalid cXML fixtures', () => {
  it('expected.json lists exactly the fixture files', () => {
    expect(Object.keys(expected).sort()).toEqual(names);
  });

  it.each(names)('%s is refused with its expected code, status and message', (name) => {
    const want = expected[name];
    if (want === undefined) throw new Error(`${name} has no entry in invalid/expected.json`);
    const error = rejection(fixtureBytes('invalid', name));
    expect(CXML_ERROR_CODES).toContain(error.code);
    expect({ errorCode: error.code, ...cxmlStatusFor(error), message: error.message }).toEqual({
      errorCode: want.errorCode,
      code: want.status,
      text: want.text,
      message: want.message,
    });
  });

  it('covers every error code except the size caps (parse-limits tests them with options) and MIME framing (mime-message tests it)', () => {
    const covered = new Set(Object.values(expected).map((entry) => entry.errorCode));
    expect([...CXML_ERROR_CODES].filter((code) => !covered.has(code))).toEqual(['too_large', 'bad_mime']);
  });
});
