/**
 * The buyer page's catalog downloads: links per buyer, the cXML Index and CIF file under the console
 * session (the same the command writes), the reason on the page when a catalog cannot be written, and
 * nothing without a session.
 */
import { describe, expect, it } from 'vitest';
import { exportBuyerCatalog } from '../../../../src/gateway/catalog-export/buyer-catalog.ts';
import { validateAgainstDtd } from '../../../support/dtd-validation.ts';
import { consoleRequest, signIn } from './console-support.ts';
import { createStack } from '../../../support/stack.ts';

describe("a buyer's catalog in the console", () => {
  it('is offered on the buyer page in both formats and downloaded under the session', async () => {
    const stack = await createStack();
    const operator = await signIn(stack);
    const page = await (await operator.get('/admin/ui/buyers')).text();
    expect(page).toContain(
      `<p class="exports">Catalog for the buyer's search (Level-2 punch-out): <a href="/admin/ui/buyers/acme/catalog.cif" download>CIF 3.0</a> · <a href="/admin/ui/buyers/acme/catalog.xml" download>cXML Index</a></p>`,
    );
    expect(page).toContain('<a href="/admin/ui/buyers/sap1/catalog.xml" download>cXML Index</a>');

    const xml = await operator.get('/admin/ui/buyers/acme/catalog.xml');
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(xml.headers.get('content-disposition')).toBe('attachment; filename="acme-catalog.xml"');
    expect(xml.headers.get('cache-control')).toBe('no-store');
    const text = await xml.text();
    expect(validateAgainstDtd(text, 'cXML')).toEqual({ ok: true, messages: '' });
    const command = await exportBuyerCatalog(stack.gateway.context.config, 'acme', 'cxml', {
      now: stack.clock.now(),
    });
    expect(text).toBe(command.text);

    // The test config's poster has no UNSPSC: the page says which product lacks which field.
    const cif = await operator.get('/admin/ui/buyers/acme/catalog.cif');
    expect(cif.status).toBe(409);
    expect(await cif.text()).toContain(
      'The catalog cannot be exported: buyer acme: product POS-CUSTOM has no UNSPSC code, which CIF requires (field &quot;SPSC Code&quot;).',
    );
    const unknown = await operator.get('/admin/ui/buyers/globex/catalog.xml');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('no buyer &quot;globex&quot; is configured');
    // The buyer's test punch-out page is still its own.
    expect((await operator.get('/admin/ui/buyers/acme/test')).status).toBe(200);

    const stranger = await consoleRequest(stack, '/admin/ui/buyers/acme/catalog.xml');
    expect(stranger.status).not.toBe(200);
    expect(await stranger.text()).not.toContain('<Index');
  });
});
