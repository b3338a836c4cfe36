import { describe, expect, it } from 'vitest';
import {
  assertReferencedPartsPresent,
  CxmlError,
  cxmlPartInHead,
  cxmlStatusFor,
  multipartFraming,
  parseCxmlRequest,
  readCxmlMessage,
} from '../../src/cxml/index.ts';
import { orderRequest } from '../support/order-flow.ts';
import {
  BOUNDARY,
  base64Part,
  cxmlPart,
  multipartBody,
  relatedContentType,
  samplePdf,
} from '../support/multipart.ts';

const decoder = new TextDecoder();
const PO = orderRequest({
  payloadID: 'po-mime@buyer.example',
  lines: [{ lineRef: 'L1', sku: 'BC-1', quantity: '1', unitPrice: '10.00' }],
  attachments: ['cid:artwork@buyer.example'],
});
const framing = (start?: string) =>
  multipartFraming(relatedContentType(start === undefined ? {} : { start }))!;

/** The CxmlError `run` throws, as code, cXML Status and message. */
function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (!(error instanceof CxmlError)) throw error;
    return { code: error.code, status: cxmlStatusFor(error).code, message: error.message };
  }
  throw new Error('expected a CxmlError');
}

describe('multipartFraming', () => {
  it('reads boundary and start of multipart/related, and leaves XML alone', () => {
    expect(multipartFraming('multipart/related; boundary="b 1"; type="text/xml"; start="<po@x>"')).toEqual({
      mediaType: 'multipart/related',
      boundary: 'b 1',
      start: 'po@x',
    });
    expect(multipartFraming('Multipart/Related;boundary=abc')).toEqual({
      mediaType: 'multipart/related',
      boundary: 'abc',
    });
    expect(multipartFraming('text/xml; charset=UTF-8')).toBeUndefined();
    expect(multipartFraming(undefined)).toBeUndefined();
  });

  it('refuses a multipart type without a boundary', () => {
    expect(refusal(() => multipartFraming('multipart/related; type="text/xml"'))).toEqual({
      code: 'bad_mime',
      status: 406,
      message: 'The multipart/related Content-Type has no usable boundary parameter',
    });
  });
});

describe('readCxmlMessage', () => {
  const pdf = samplePdf();

  it('takes the first part as the cXML document and decodes a base64 attachment byte for byte', () => {
    const body = multipartBody(
      [cxmlPart(PO), base64Part(pdf, { contentId: 'artwork@buyer.example', filename: 'artwork.pdf' })],
      { preamble: 'This is a multi-part message in MIME format.\r\n' },
    );
    const message = readCxmlMessage(body, framing());
    expect(decoder.decode(message.cxml)).toBe(PO);
    expect(message.attachments).toEqual([
      {
        position: 2,
        contentId: 'artwork@buyer.example',
        contentType: 'application/pdf',
        filename: 'artwork.pdf',
        content: pdf,
      },
    ]);
    const request = parseCxmlRequest(message.cxml);
    expect(request.attachments).toEqual([
      { url: 'cid:artwork@buyer.example', at: 'OrderRequest/OrderRequestHeader/Comments/Attachment' },
    ]);
    expect(() => assertReferencedPartsPresent(request.attachments, message.attachments)).not.toThrow();
  });

  it('finds the cXML part by the start parameter when it is not the first', () => {
    const body = multipartBody([
      base64Part(pdf, { contentId: 'artwork@buyer.example' }),
      cxmlPart(PO, 'the-po@buyer.example'),
    ]);
    const message = readCxmlMessage(body, framing('the-po@buyer.example'));
    expect(decoder.decode(message.cxml)).toBe(PO);
    expect(message.attachments.map((part) => [part.position, part.contentId])).toEqual([
      [1, 'artwork@buyer.example'],
    ]);
  });

  it('decodes quoted-printable (soft breaks, =XX), and keeps 7bit, 8bit and binary bodies as sent', () => {
    const qp = {
      headers: [
        'Content-Type: text/plain; charset=UTF-8',
        'Content-Transfer-Encoding: quoted-printable',
        'Content-ID: <spec@b>',
      ],
      body: 'Bleed 3 mm, Pantone 286 =E2=80=93 matt=\r\n finish=3D yes',
    };
    const raw = (encoding: string, id: string, body: string | Uint8Array) => ({
      headers: [
        'Content-Type: application/octet-stream',
        `Content-Transfer-Encoding: ${encoding}`,
        `Content-ID: <${id}>`,
      ],
      body,
    });
    const binary = new Uint8Array([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]);
    const body = multipartBody([
      cxmlPart(PO),
      qp,
      raw('7bit', 'seven@b', 'plain text'),
      raw('8bit', 'eight@b', 'Grüße'),
      raw('binary', 'bin@b', binary),
    ]);
    const [spec, seven, eight, bin] = readCxmlMessage(body, framing()).attachments;
    expect(decoder.decode(spec?.content)).toBe('Bleed 3 mm, Pantone 286 – matt finish= yes');
    expect(spec?.contentType).toBe('text/plain');
    expect(decoder.decode(seven?.content)).toBe('plain text');
    expect(decoder.decode(eight?.content)).toBe('Grüße');
    expect(bin?.content).toEqual(binary);
  });

  it('refuses a part whose body is not its transfer encoding, naming the part', () => {
    const broken = base64Part(pdf, { contentId: 'artwork@buyer.example', filename: 'artwork.pdf' });
    const body = multipartBody([cxmlPart(PO), { ...broken, body: 'JVBERi0x*** not base64 ***' }]);
    expect(refusal(() => readCxmlMessage(body, framing()))).toEqual({
      code: 'bad_mime',
      status: 406,
      message: 'Part 2 (Content-ID <artwork@buyer.example>) "artwork.pdf" is not valid base64',
    });
    const qp = {
      headers: [
        'Content-Type: text/plain',
        'Content-Transfer-Encoding: quoted-printable',
        'Content-ID: <n@b>',
      ],
      body: 'ten =ZZ percent',
    };
    expect(refusal(() => readCxmlMessage(multipartBody([cxmlPart(PO), qp]), framing())).message).toBe(
      'Part 2 (Content-ID <n@b>) is not valid quoted-printable',
    );
    const uu = {
      headers: ['Content-Type: application/pdf', 'Content-Transfer-Encoding: x-uuencode'],
      body: 'begin 644',
    };
    expect(refusal(() => readCxmlMessage(multipartBody([cxmlPart(PO), uu]), framing())).message).toBe(
      'Part 2 has Content-Transfer-Encoding "x-uuencode"; base64, quoted-printable, 7bit, 8bit and binary are read',
    );
  });

  it('refuses a message without a cXML part, a start no part carries, shared Content-IDs and garbage', () => {
    const pdfOnly = multipartBody([base64Part(pdf, { contentId: 'artwork@buyer.example' })]);
    expect(refusal(() => readCxmlMessage(pdfOnly, framing()))).toEqual({
      code: 'bad_mime',
      status: 406,
      message:
        'Part 1 (Content-ID <artwork@buyer.example>) of the message is application/pdf, not the cXML document: the cXML part (text/xml) goes first or is named by the start parameter',
    });
    const body = multipartBody([cxmlPart(PO), base64Part(pdf, { contentId: 'artwork@buyer.example' })]);
    expect(refusal(() => readCxmlMessage(body, framing('elsewhere@buyer.example'))).message).toBe(
      'The start parameter names <elsewhere@buyer.example>, and no part of the message has that Content-ID',
    );
    const twice = multipartBody([
      cxmlPart(PO),
      base64Part(pdf, { contentId: 'artwork@buyer.example' }),
      base64Part(pdf, { contentId: 'artwork@buyer.example' }),
    ]);
    expect(refusal(() => readCxmlMessage(twice, framing())).message).toBe(
      'Two parts of the message have Content-ID <artwork@buyer.example>',
    );
    expect(refusal(() => readCxmlMessage(new TextEncoder().encode(PO), framing())).message).toBe(
      `The multipart/related message has no part: its boundary "${BOUNDARY}" does not occur in the body`,
    );
    const unfinished = body.subarray(0, body.length - 40);
    expect(refusal(() => readCxmlMessage(unfinished, framing()))).toEqual({
      code: 'bad_mime',
      status: 406,
      message: 'The multipart/related message cannot be read: Multipart stream not finished',
    });
  });
});

describe('assertReferencedPartsPresent', () => {
  it('names the element whose cid: the message lacks; other URLs and unreferenced parts are fine', () => {
    const references = [
      { url: 'https://buyer.example/spec.pdf', at: 'OrderRequest/OrderRequestHeader/Comments/Attachment[1]' },
      { url: 'cid:artwork@buyer.example', at: 'OrderRequest/OrderRequestHeader/Comments/Attachment[2]' },
      { url: 'cid:proof%40buyer.example', at: 'OrderRequest/ItemOut[2]/Comments/Attachment' },
    ];
    const parts = [{ contentId: 'artwork@buyer.example' }, { contentId: 'unreferenced@buyer.example' }];
    expect(refusal(() => assertReferencedPartsPresent(references, parts))).toEqual({
      code: 'missing_field',
      status: 400,
      message:
        'OrderRequest/ItemOut[2]/Comments/Attachment/URL names cid:proof@buyer.example, and the message has no part with Content-ID <proof@buyer.example>',
    });
    expect(() =>
      assertReferencedPartsPresent(references, [...parts, { contentId: 'proof@buyer.example' }]),
    ).not.toThrow();
  });
});

describe('cxmlPartInHead', () => {
  it('gives the beginning of the cXML part when the head ends inside it, decoded', () => {
    const b64 = {
      headers: ['Content-Type: text/xml', 'Content-Transfer-Encoding: base64', 'Content-ID: <po@b>'],
      body: (btoa(PO).match(/.{1,76}/g) ?? []).join('\r\n'),
    };
    const body = multipartBody([b64, base64Part(samplePdf(), { contentId: 'artwork@buyer.example' })]);
    const head = cxmlPartInHead(body.subarray(0, 1001), framing());
    const text = decoder.decode(head);
    expect(text.length).toBeGreaterThan(600);
    expect(PO.startsWith(text)).toBe(true);
  });

  it('is undefined while the part the start parameter names has not begun', () => {
    const body = multipartBody([
      base64Part(samplePdf(), { contentId: 'artwork@buyer.example' }),
      cxmlPart(PO, 'po@b'),
    ]);
    expect(cxmlPartInHead(body.subarray(0, 200), framing('po@b'))).toBeUndefined();
    expect(decoder.decode(cxmlPartInHead(body, framing('po@b')))).toBe(PO);
  });
});
