/**
 * A proof link over real ports (issue 17, deliverable 2): `punchgate sandbox` with a 2-second PIPO idle
 * period and `punchgate serve` as processes; the buyer punches out, designs, gets the PunchOutOrderMessage
 * and, once the PIPO session of the punch-out has expired, opens the proof link it holds: a PDF, and no
 * PIPO token anywhere in the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupRequest } from '../support/cxml-documents.ts';
import { decodeEntities } from '../support/html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
} from '../support/punchout-flow.ts';
import { followRedirects } from '../support/stack.ts';
import type { BuyerSystem } from './buyer-system.ts';
import {
  type SandboxProcess,
  type ServeProcess,
  SHIP_TEST_TIMEOUT_MS,
  stopAllCommands,
} from './processes.ts';
import { startServeBesideSandbox } from './serve-beside-sandbox.ts';

const PIPO_IDLE_SECONDS = 2;

describe('a proof link over real ports, after the PIPO session expired', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  let buyer: BuyerSystem;
  let sandbox: SandboxProcess;
  let serve: ServeProcess;

  beforeAll(async () => {
    ({ buyer, sandbox, serve } = await startServeBesideSandbox({
      sandboxArgs: ['--session-idle-s', String(PIPO_IDLE_SECONDS)],
      // A token is reused for a second at most, so the gateway cannot lean on one the sandbox has dropped.
      adjustConfig: (config) => {
        config.sessions = { ...config.sessions, pipoTokenReuseSeconds: 1 };
      },
    }));
  }, SHIP_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopAllCommands();
    await buyer?.close();
  }, SHIP_TEST_TIMEOUT_MS);

  it('answers the proof PDF, and the PunchOutOrderMessage holds no PIPO token', async () => {
    // The browser, noting the PIPO token of every editor hand-off it follows.
    const handOffTokens: string[] = [];
    const browse = followRedirects(async (url, init) => {
      const res = await fetch(url, { ...init, redirect: 'manual' });
      const location = res.headers.get('Location');
      if (location?.includes('/online-editor'))
        handOffTokens.push(new URL(location).searchParams.get('token') ?? '');
      return res;
    });
    const setup = await fetch(`${serve.url}/cxml`, {
      method: 'POST',
      body: setupRequest({ browserFormPost: buyer.returnUrl }),
      headers: { 'Content-Type': 'text/xml' },
    });
    const catalog = await browse(startUrlOf(await setup.text()));
    const cart = await designProduct({ browse }, catalog, 'Business cards', { Name: 'Jane Roe' });
    expect(cart.status).toBe(200);
    const poom = cxmlFromForm(
      returnFormOf(await clickButton({ browse }, cart, 'Transfer cart to procurement system')),
    );

    expect(handOffTokens).toHaveLength(1);
    const [pipoToken = ''] = handOffTokens;
    expect(pipoToken.length).toBeGreaterThan(8);
    expect(poom.includes(pipoToken), 'the PIPO token in the PunchOutOrderMessage').toBe(false);
    expect(cart.text.includes(pipoToken), 'the PIPO token in the cart page').toBe(false);
    const proofUrl = decodeEntities(/<Extrinsic name="proofUrl">([^<]+)<\/Extrinsic>/.exec(poom)?.[1] ?? '');
    expect(proofUrl.startsWith(`${serve.url}/proof/`), proofUrl).toBe(true);
    const designId = /<Extrinsic name="designId">(\d+)<\/Extrinsic>/.exec(poom)?.[1];

    // Past the sandbox's idle period: the punch-out's PIPO token no longer opens the proof there.
    await new Promise((resolve) => setTimeout(resolve, (PIPO_IDLE_SECONDS + 1.5) * 1000));
    const direct = await fetch(`${sandbox.editorUrl}/download.ashx?token=${pipoToken}&pid=${designId}`);
    await direct.arrayBuffer();
    expect(direct.status).toBe(403);

    const res = await fetch(proofUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toBe(`inline; filename="proof-${designId}.pdf"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  });
});
