/**
 * The admission gate of `/cxml` (issue 17, deliverable 3): bounded per client address and in all, released
 * exactly once per admitted request. Over a real port it is exercised by test/ship/stalled-clients.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CXML_ADMISSION } from '../../../src/gateway/cxml/admission.ts';
import { createAdmissionGate } from '../../../src/gateway/http/admission.ts';

describe('createAdmissionGate', () => {
  it('admits up to the per-address limit from one address, while other addresses still get in', () => {
    const gate = createAdmissionGate({ perAddress: 2, total: 10 });
    const a1 = gate.enter('198.51.100.1');
    const a2 = gate.enter('198.51.100.1');
    expect([a1, a2].every((release) => release !== undefined)).toBe(true);
    expect(gate.enter('198.51.100.1')).toBeUndefined();
    expect(gate.enter('198.51.100.2')).toBeDefined();
    a1?.();
    expect(gate.enter('198.51.100.1')).toBeDefined();
  });

  it('admits no more than the total across addresses, and a release counts once however often it is called', () => {
    const gate = createAdmissionGate({ perAddress: 5, total: 3 });
    const releases = ['a', 'b', 'c'].map((address) => gate.enter(address));
    expect(gate.enter('d')).toBeUndefined();
    releases[0]?.();
    releases[0]?.();
    expect(gate.enter('d')).toBeDefined();
    expect(gate.enter('e')).toBeUndefined();
  });

  it('ships with 8 per address and 16 in all', () => {
    expect(CXML_ADMISSION).toEqual({ perAddress: 8, total: 16 });
  });
});
