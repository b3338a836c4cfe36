import { describe, expect, it } from 'vitest';
import { CXML_ERROR_CODES, CxmlError, type CxmlErrorCode, cxmlStatusFor } from '../../src/cxml/index.ts';

const table: Record<CxmlErrorCode, { code: number; text: string }> = {
  too_large: { code: 406, text: 'Not Acceptable' },
  bad_mime: { code: 406, text: 'Not Acceptable' },
  malformed: { code: 406, text: 'Not Acceptable' },
  entity_forbidden: { code: 406, text: 'Not Acceptable' },
  too_deep: { code: 406, text: 'Not Acceptable' },
  not_cxml: { code: 406, text: 'Not Acceptable' },
  no_request: { code: 400, text: 'Bad Request' },
  unsupported_request: { code: 450, text: 'Not Implemented' },
  missing_field: { code: 400, text: 'Bad Request' },
  invalid_value: { code: 400, text: 'Bad Request' },
};

describe('cxmlStatusFor', () => {
  it.each(CXML_ERROR_CODES)('maps %s to its cXML status', (code) => {
    expect(cxmlStatusFor(new CxmlError(code, 'why'))).toEqual(table[code]);
  });

  it('carries the code and the message on the error', () => {
    const error = new CxmlError('missing_field', 'PunchOutSetupRequest has no BrowserFormPost/URL');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('CxmlError');
    expect(error.code).toBe('missing_field');
    expect(error.message).toBe('PunchOutSetupRequest has no BrowserFormPost/URL');
  });
});
