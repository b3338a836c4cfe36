/**
 * POs with attachments, as buyers send them (`multipart/related`, the cXML part first), through the
 * gateway in process: stored with the PO, listed and downloaded by operators (admin API and console),
 * named in the job ticket; refused whole, with a Status naming the part, when a part is missing, too large
 * or unreadable.
 */
import { describe, expect, it } from 'vitest';
import {
  adminJson,
  adminRequest,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  orderRequest,
  printOrdersFor,
  punchOut,
} from '../../support/order-flow.ts';
import {
  base64Part,
  cxmlPart,
  type MimePartIn,
  multipartBody,
  relatedContentType,
  samplePdf,
} from '../../support/multipart.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { startUrlOf, statusOf } from '../../support/punchout-flow.ts';
import { signIn } from '../operator/console/console-support.ts';

const PDF = samplePdf();
const ARTWORK = 'artwork-4711@buyer.example';

/** A hostile part: HTML that would run in the gateway's origin if it were served as a page. */
const HTML_PART: MimePartIn = {
  headers: [
    'Content-Type: text/html; charset=UTF-8',
    'Content-Transfer-Encoding: 7bit',
    'Content-ID: <note@buyer.example>',
  ],
  body: '<script>fetch("/admin/orders")</script>',
};

/** A multipart PO for the lines of a fresh punch-out, naming the artwork, and its other parts. */
async function multipartPo(stack: OrderStack, options: { payloadID?: string; parts?: MimePartIn[] } = {}) {
  const cart = await punchOut(stack, ['Business cards']);
  const xml = orderRequest({
    payloadID: options.payloadID ?? 'po-attach@ariba.example',
    orderID: 'PO-ATT-1',
    lines: linesOf(cart),
    comments: 'Artwork attached.',
    attachments: [`cid:${ARTWORK}`],
  });
  const parts = options.parts ?? [
    base64Part(PDF, { contentId: ARTWORK, filename: 'Visitenkarte Müller.pdf' }),
    HTML_PART,
  ];
  return multipartBody([cxmlPart(xml), ...parts]);
}

async function onlyOrderId(stack: OrderStack): Promise<string> {
  const { body } = await adminJson(stack, '/admin/orders');
  expect(body.items).toHaveLength(1);
  return body.items[0].id;
}

describe('multipart/related POs', () => {
  it('stores the attachments with the PO, lists them and serves each as a download', async () => {
    const stack = await createOrderStack();
    const body = await multipartPo(stack);
    expect(statusOf(await stack.postCxml(body, relatedContentType()))).toEqual({
      code: 200,
      text: 'OK',
      detail: '',
    });
    const id = await onlyOrderId(stack);

    const listed = [
      {
        position: 2,
        contentId: ARTWORK,
        filename: 'Visitenkarte Müller.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
        download: `/admin/orders/${id}/attachments/2`,
      },
      {
        position: 3,
        contentId: 'note@buyer.example',
        filename: null,
        contentType: 'text/html',
        size: 39,
        download: `/admin/orders/${id}/attachments/3`,
      },
    ];
    expect(await adminJson(stack, `/admin/orders/${id}/attachments`)).toEqual({
      status: 200,
      body: { items: listed },
    });
    expect((await adminJson(stack, `/admin/orders/${id}`)).body.attachments).toEqual(listed);

    const pdf = await adminRequest(stack, `/admin/orders/${id}/attachments/2`);
    expect(pdf.status).toBe(200);
    expect(Object.fromEntries(pdf.headers)).toEqual({
      'cache-control': 'no-store',
      'content-disposition': `attachment; filename="Visitenkarte M_ller.pdf"; filename*=UTF-8''Visitenkarte%20M%C3%BCller.pdf`,
      'content-length': String(PDF.length),
      'content-security-policy': "default-src 'none'; sandbox",
      'content-type': 'application/pdf',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-request-id': expect.any(String),
    });
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(PDF);

    // Stored HTML is never served as a page of the gateway's origin.
    const html = await adminRequest(stack, `/admin/orders/${id}/attachments/3`);
    expect(html.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(html.headers.get('Content-Disposition')).toBe(
      `attachment; filename="po-${id}-part-3"; filename*=UTF-8''po-${id}-part-3`,
    );
    expect(await html.text()).toBe('<script>fetch("/admin/orders")</script>');
  });

  it('answers the download routes as the rest of the admin API: token, 404 and 400 in JSON', async () => {
    const stack = await createOrderStack();
    await stack.postCxml(await multipartPo(stack), relatedContentType());
    const id = await onlyOrderId(stack);
    const unauthorized = await adminRequest(stack, `/admin/orders/${id}/attachments/2`, {}, '');
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({
      error: { code: 'unauthorized', message: 'A valid admin bearer token is required.' },
    });
    expect(await adminJson(stack, `/admin/orders/${id}/attachments/9`)).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: `Purchase order record ${id} has no attachment 9.` } },
    });
    expect(await adminJson(stack, `/admin/orders/${id}/attachments/0`)).toEqual({
      status: 400,
      body: { error: { code: 'bad_request', message: 'position must be a whole number from 1.' } },
    });
    expect(await adminJson(stack, '/admin/orders/424242/attachments')).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No purchase order record 424242.' } },
    });
    const openapi = (await adminJson(stack, '/admin/openapi.json')).body;
    expect(Object.keys(openapi.paths['/admin/orders/{id}/attachments/{position}'].get.responses)).toEqual([
      '200',
      '400',
      '401',
      '404',
      '429',
    ]);
  });

  it('keeps no second set for a retried copy, and names the files in the job ticket', async () => {
    const stack = await createOrderStack();
    const body = await multipartPo(stack);
    await stack.postCxml(body, relatedContentType());
    expect(statusOf(await stack.postCxml(body, relatedContentType())).code).toBe(200);
    const id = await onlyOrderId(stack);
    expect((await adminJson(stack, `/admin/orders/${id}/attachments`)).body.items).toHaveLength(2);

    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-ATT-1');
    const ticket = stack.sandbox.control
      .orderHistory(printOrderId as number)
      .history.find((h) => h.comments?.startsWith('Purchase order PO-ATT-1'))?.comments;
    expect(ticket).toContain(
      `ATTACHMENTS (2) — waiting in the punchgate gateway, not in this print order (the print service takes no files): download them in the gateway console, purchase order record ${id}:\n` +
        `  - Visitenkarte Müller.pdf (application/pdf, ${PDF.length} bytes)\n` +
        '  - part 3 (text/html, 39 bytes)',
    );
  });

  it('lists the files on the console PO page and downloads them through the console session', async () => {
    const stack = await createOrderStack();
    await stack.postCxml(await multipartPo(stack), relatedContentType());
    const id = await onlyOrderId(stack);
    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${id}`)).text();
    expect(page).toContain(
      `<a href="/admin/ui/orders/${id}/attachments/2">Visitenkarte Müller.pdf</a></td>\n<td>application/pdf</td><td class="num">${PDF.length}</td><td>cid:${ARTWORK}</td>`,
    );
    const download = await operator.get(`/admin/ui/orders/${id}/attachments/2`);
    expect(download.status).toBe(200);
    expect(download.headers.get('Content-Disposition')).toMatch(/^attachment; /);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF);
    const html = await operator.get(`/admin/ui/orders/${id}/attachments/3`);
    expect(html.headers.get('Content-Type')).toBe('application/octet-stream');
    // Without the session: the sign-in form, not the file.
    const anonymous = await stack.gateway.app.fetch(
      new Request(`http://gateway.test/admin/ui/orders/${id}/attachments/2`),
    );
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('%PDF');
  });
});

describe('multipart/related punch-ins', () => {
  it('opens a punch-out from a PunchOutSetupRequest sent as the start part of a multipart message', async () => {
    const stack = await createOrderStack();
    const body = multipartBody([
      base64Part(PDF, { contentId: 'unreferenced@buyer.example' }),
      cxmlPart(setupRequest(), 'setup@buyer.example'),
    ]);
    const answer = await stack.postCxml(body, relatedContentType({ start: 'setup@buyer.example' }));
    expect(statusOf(answer)).toEqual({ code: 200, text: 'OK', detail: '' });
    expect(startUrlOf(answer)).toMatch(/^http:\/\/gateway\.test\/punchout\/start\//);
  });
});

describe('multipart/related POs refused whole', () => {
  /** Posts `body` and answers its Status, checking nothing of the PO was stored. */
  async function refused(stack: OrderStack, body: Uint8Array, contentType = relatedContentType()) {
    const status = statusOf(await stack.postCxml(body, contentType));
    expect((await adminJson(stack, '/admin/orders')).body.items).toEqual([]);
    return status;
  }

  it('names the element whose cid: the message does not carry', async () => {
    const stack = await createOrderStack();
    const body = await multipartPo(stack, { parts: [HTML_PART] });
    expect(await refused(stack, body)).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: `OrderRequest/OrderRequestHeader/Comments/Attachment/URL names cid:${ARTWORK}, and the message has no part with Content-ID <${ARTWORK}>`,
    });
  });

  it("names the part that takes the attachments past the buyer's limit", async () => {
    const config = orderConfig();
    const stack = await createOrderStack({
      ...config,
      buyers: config.buyers.map((b) =>
        b.id === 'acme' ? { ...b, attachments: { maxBytes: PDF.length + 10 } } : b,
      ),
    });
    expect(await refused(stack, await multipartPo(stack))).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: `Part 3 (Content-ID <note@buyer.example>) of the message takes the attachments to ${PDF.length + 39} bytes; this buyer's purchase orders may carry ${PDF.length + 10} bytes of attachments.`,
    });
  });

  it('names a part that is not what its transfer encoding says, and a message without a cXML part', async () => {
    const stack = await createOrderStack();
    const broken = {
      ...base64Part(PDF, { contentId: ARTWORK, filename: 'art.pdf' }),
      body: '%PDF-1.4 raw bytes',
    };
    expect(await refused(stack, await multipartPo(stack, { parts: [broken] }))).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: `Part 2 (Content-ID <${ARTWORK}>) "art.pdf" is not valid base64`,
    });
    const pdfOnly = multipartBody([base64Part(PDF, { contentId: ARTWORK })]);
    expect(await refused(stack, pdfOnly)).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: `Part 1 (Content-ID <${ARTWORK}>) of the message is application/pdf, not the cXML document: the cXML part (text/xml) goes first or is named by the start parameter`,
    });
    expect(await refused(stack, await multipartPo(stack), 'multipart/related; type="text/xml"')).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The multipart/related Content-Type has no usable boundary parameter',
    });
  });

  it('refuses a stranger before reading past the head, whatever the attachments', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    const xml = orderRequest({
      lines: linesOf(cart),
      secret: 'wrong-secret',
      attachments: [`cid:${ARTWORK}`],
    });
    const big = base64Part(new Uint8Array(600_000).fill(7), { contentId: ARTWORK });
    const status = statusOf(await stack.postCxml(multipartBody([cxmlPart(xml), big]), relatedContentType()));
    expect(status.code).toBe(401);
  });
});
