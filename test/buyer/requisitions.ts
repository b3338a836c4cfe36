/**
 * A requisition at the test simulator as its user drives it: opened with both cart lines, its page read;
 * and cXML documents posted to the simulator's endpoints as a gateway posts them.
 */
import { readCxmlResponse } from '@punchgate/sandbox/buyer';
import { expect } from 'vitest';
import type { PunchOutSetupRequest } from '../../src/cxml/index.ts';
import {
  base64,
  CARD_LINE,
  type createTestSimulator,
  FLYER_LINE,
  form,
  orderMessage,
} from './fake-gateway.ts';

export type Simulator = ReturnType<typeof createTestSimulator>;

/** A new requisition of the profile for jroe, its cart returned with both lines; answers its id. */
export async function requisitionWithCart(sim: Simulator, profile: string): Promise<string> {
  const res = await sim.request(
    '/requisitions',
    form([
      ['profile', profile],
      ['user', 'jroe'],
    ]),
  );
  const id = /(REQ-[A-Z0-9]+)/.exec(res.headers.get('Location') ?? '')?.[1] ?? '';
  const setup = sim.gateway.requests.at(-1) as PunchOutSetupRequest;
  await sim.request(
    `/requisitions/${id}/cart`,
    form([['cxml-base64', base64(orderMessage(setup.buyerCookie, [CARD_LINE, FLYER_LINE]))]]),
  );
  return id;
}

/** The requisition's page (HTTP 200). */
export async function requisitionPage(sim: Simulator, id: string): Promise<string> {
  const res = await sim.request(`/requisitions/${id}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** Posts a cXML document to `path`; answers the Status of the cXML answer (HTTP 200, text/xml). */
export async function postCxmlAt(sim: Simulator, path: string, xml: string) {
  const res = await sim.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=UTF-8' },
    body: xml,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toBe('text/xml; charset=UTF-8');
  return readCxmlResponse(await res.text()).status;
}
