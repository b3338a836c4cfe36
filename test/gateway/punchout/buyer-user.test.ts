import { describe, expect, it } from 'vitest';
import { type PunchOutSetupRequest, parseCxmlRequest } from '../../../src/cxml/index.ts';
import { buyerUserFromSetup } from '../../../src/gateway/punchout/buyer-user.ts';
import { setupRequest } from '../../support/cxml-documents.ts';

const userOf = (options: Parameters<typeof setupRequest>[0]) =>
  buyerUserFromSetup(parseCxmlRequest(setupRequest(options)) as PunchOutSetupRequest);

describe('the buyer user behind a setup request', () => {
  it('is keyed by UniqueName (case-folded) and named from the e-mail when nothing else names them', () => {
    expect(userOf({ uniqueName: 'JRoe', userEmail: 'jane.roe@acme.example' })).toEqual({
      key: 'jroe',
      email: 'jane.roe@acme.example',
      firstName: 'Jane',
      lastName: 'Roe',
    });
  });

  it('falls back to the e-mail address as the key, and ignores one that is not an address', () => {
    expect(userOf({ uniqueName: '', userEmail: 'max_mustermann@firma.example' })).toMatchObject({
      key: 'max_mustermann@firma.example',
      firstName: 'Max',
      lastName: 'Mustermann',
    });
    expect(userOf({ uniqueName: 'u1', userEmail: 'not an address' })).toEqual({
      key: 'u1',
      firstName: 'u1',
      lastName: '-',
    });
  });
});
