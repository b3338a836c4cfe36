/**
 * A punch-in that names no user (issue 16): never one shared permanent print account for everyone of the
 * buyer. Per buyer `anonymousUsers`: `temporary` (default) gives the session a fresh temporary user,
 * `refuse` refuses the punch-in with a message that says what is missing.
 */
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../../support/cxml-documents.ts';
import { statusOf } from '../../support/punchout-flow.ts';
import { createStack, testConfig } from '../../support/stack.ts';
import { getPunchIn } from '../oci/oci-http.ts';
import { buyersWith } from '../../support/order-flow.ts';

/** A setup request with no user extrinsic, no e-mail and no Contact. */
const anonymousSetup = () =>
  setupRequest().replace(/<Extrinsic name="(UniqueName|UserEmail)">[^<]*<\/Extrinsic>\n/g, '');

const accountCalls = (calls: readonly string[]) =>
  calls.filter((c) => c === 'POST /api/v2/pipo/user/create' || c === 'POST /api/v2/pipo/user/createtemp');

function configWith(buyerId: string, anonymousUsers: 'temporary' | 'refuse') {
  const base = testConfig();
  return { ...base, buyers: buyersWith(base.buyers, buyerId, { anonymousUsers }) };
}

describe('a cXML punch-out that names no user', () => {
  it('gets a temporary account of its own on a mapped buyer, every time', async () => {
    const stack = await createStack();
    expect(anonymousSetup()).not.toContain('UniqueName');
    expect(statusOf(await stack.postCxml(anonymousSetup())).code).toBe(200);
    expect(statusOf(await stack.postCxml(anonymousSetup())).code).toBe(200);
    expect(accountCalls(stack.upstreamCalls)).toEqual([
      'POST /api/v2/pipo/user/createtemp',
      'POST /api/v2/pipo/user/createtemp',
    ]);
    // A named user still gets the one permanent account.
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(200);
    expect(accountCalls(stack.upstreamCalls).at(-1)).toBe('POST /api/v2/pipo/user/create');
  });

  it('is refused with a 400 that says what is missing when the buyer refuses anonymous punch-outs', async () => {
    const stack = await createStack(configWith('acme', 'refuse'));
    expect(statusOf(await stack.postCxml(anonymousSetup()))).toEqual({
      code: 400,
      text: 'Bad Request',
      detail:
        'This punch-out names no user (no UniqueName, UserEmail or Contact); this buyer only accepts punch-outs that name one.',
    });
    expect(accountCalls(stack.upstreamCalls)).toEqual([]);
  });
});

describe('an OCI punch-in with only the shared catalog login', () => {
  it('gets a temporary account, not one permanent account for every SAP user', async () => {
    const stack = await createStack();
    const answer = await getPunchIn(stack, 'sap1', {
      USERNAME: 'sap1',
      PASSWORD: 'sap1-secret',
      HOOK_URL: 'https://srm.acme.example/sap/bc/webdynpro/hook',
    });
    expect(answer.status).toBe(303);
    expect(accountCalls(stack.upstreamCalls)).toEqual(['POST /api/v2/pipo/user/createtemp']);
  });
});
