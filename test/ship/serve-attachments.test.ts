/**
 * A PO with its artwork attached, as buyers' systems send one (`multipart/related`, the cXML part first, the
 * PDF a base64 part its Comments name by `cid:`), to `punchgate serve` beside `punchgate sandbox`: accepted,
 * turned into a print order whose job ticket says the file waits in the gateway, and the PDF downloaded by an
 * operator from the admin API byte for byte. On a SQLite file and on PostgreSQL, the stores a print shop
 * runs serve on.
 */
import { describe, expect, it } from 'vitest';
import { linesOf, orderRequest, punchOut, type XmlTree } from '../support/order-flow.ts';
import { useFaultDatabase } from '../support/postgres-faults-database.ts';
import { describeWithPostgres } from '../support/postgres-test-database.ts';
import { base64Part, cxmlPart, multipartBody, relatedContentType, samplePdf } from '../support/multipart.ts';
import { statusOf } from '../support/punchout-flow.ts';
import { SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import {
  acceptAtBuyer,
  type ServeBesideSandboxOptions,
  serveBrowser,
  useServeBesideSandbox,
} from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN } from './user-config.ts';

/** The buyer's files may total 2 MiB, as the configuration reference's example sets it. */
const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;

function attachmentSuite(store: string, options: () => ServeBesideSandboxOptions): void {
  const stack = useServeBesideSandbox({
    ...options(),
    adjustConfig: (config) => {
      for (const buyer of config.buyers) buyer.attachments = { maxBytes: MAX_ATTACHMENT_BYTES };
    },
  });
  const browser = serveBrowser(() => stack.serve);
  const admin = (path: string) =>
    fetch(`${stack.serve.url}${path}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });

  it(`accepts a multipart/related PO with a PDF and an operator downloads the PDF (${store})`, async () => {
    const { buyer, sandbox, serve } = stack;
    const cart = await punchOut(browser, ['Business cards'], { browserFormPost: buyer.returnUrl });
    const pdf = samplePdf(`artwork for ${store}`);
    const xml = orderRequest({
      payloadID: `po-attach-${store}-${Date.now()}@acme.example`,
      orderID: 'PO-ATTACH-1',
      lines: linesOf(cart),
      attachments: ['cid:artwork-1@acme.example'],
    });
    const body = multipartBody([
      cxmlPart(xml, 'po@acme.example'),
      base64Part(pdf, { contentId: 'artwork-1@acme.example', filename: 'business-card artwork.pdf' }),
    ]);
    const answer = await browser.postCxml(body, relatedContentType({ start: 'po@acme.example' }));
    expect(statusOf(answer)).toEqual({ code: 200, text: 'OK', detail: '' });

    // serve's own rounds make the print order and send the accept, as for any PO.
    const accept = await acceptAtBuyer(buyer, [serve.process, sandbox.process]);
    const printOrderId = Number(accept.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']);

    const { items } = (await (await admin('/admin/orders')).json()) as { items: XmlTree[] };
    expect(items.map((po) => [po.orderId, po.state])).toEqual([['PO-ATTACH-1', 'ordered']]);
    const id = items[0]?.id as string;
    const listed = await admin(`/admin/orders/${id}/attachments`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      items: [
        {
          position: 2,
          contentId: 'artwork-1@acme.example',
          filename: 'business-card artwork.pdf',
          contentType: 'application/pdf',
          size: pdf.length,
          download: `/admin/orders/${id}/attachments/2`,
        },
      ],
    });

    const download = await admin(`/admin/orders/${id}/attachments/2`);
    expect(download.status).toBe(200);
    expect(download.headers.get('Content-Type')).toBe('application/pdf');
    expect(download.headers.get('Content-Disposition')).toBe(
      `attachment; filename="business-card artwork.pdf"; filename*=UTF-8''business-card%20artwork.pdf`,
    );
    expect(download.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);

    // The job ticket on the print order tells the shop's staff the file is waiting in the gateway.
    const history = (await (
      await fetch(`${sandbox.url}/_sandbox/orders/${printOrderId}/history`)
    ).json()) as { history: { comments: string | null }[] };
    const ticket = history.history.find((h) => h.comments?.startsWith('Purchase order PO-ATTACH-1'));
    expect(ticket?.comments).toContain(
      `  - business-card artwork.pdf (application/pdf, ${pdf.length} bytes)`,
    );
    expect(ticket?.comments).toContain('waiting in the punchgate gateway, not in this print order');
  });

  it(`refuses a PO whose attachments pass the buyer's limit, storing nothing (${store})`, async () => {
    const cart = await punchOut(browser, ['A5 flyer'], { browserFormPost: stack.buyer.returnUrl });
    const big = new Uint8Array(MAX_ATTACHMENT_BYTES + 1).fill(0x25);
    const xml = orderRequest({ orderID: 'PO-ATTACH-BIG', lines: linesOf(cart) });
    const body = multipartBody([cxmlPart(xml), base64Part(big, { contentId: 'big@acme.example' })]);
    expect(statusOf(await browser.postCxml(body, relatedContentType()))).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: `Part 2 (Content-ID <big@acme.example>) of the message takes the attachments to ${MAX_ATTACHMENT_BYTES + 1} bytes; this buyer's purchase orders may carry ${MAX_ATTACHMENT_BYTES} bytes of attachments.`,
    });
    const { items } = (await (await admin('/admin/orders')).json()) as { items: XmlTree[] };
    expect(items.map((po) => po.orderId)).toEqual(['PO-ATTACH-1']);
  });
}

describe('punchgate serve takes a PO with attachments (SQLite)', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
  attachmentSuite('sqlite', () => ({}));
});

describeWithPostgres('punchgate serve takes a PO with attachments (PostgreSQL)', () => {
  // A database of its own, as serve uses its default schema; created before the stack starts.
  const database = useFaultDatabase();
  describe('on PostgreSQL', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
    attachmentSuite('postgresql', () => ({ databaseUrl: () => database.url() }));
  });
});
