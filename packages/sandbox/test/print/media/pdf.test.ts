import { decodePDFRawStream, PDFArray, PDFDocument, type PDFPage, type PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { BLEED_POINTS, renderPrintPdf, renderProofPdf } from '../../../src/print/media/pdf.ts';
import { savedCard } from './sample-products.ts';

const producedAt = new Date('2025-03-01T12:00:00Z');
const printOptions = { orderId: 5001, itemId: 7001, quantity: 250, producedAt };

/** The page's content streams, inflated, as Latin-1 text. */
function pageContent(doc: PDFDocument, page: PDFPage): string {
  const contents = page.node.Contents();
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  return streams
    .map((stream) => new TextDecoder('latin1').decode(decodePDFRawStream(stream as PDFRawStream).decode()))
    .join('\n');
}

/** How pdf-lib writes a WinAnsi string shown with a standard font: `<HEX> Tj`. */
const shown = (latin1: string) =>
  `<${[...latin1].map((char) => char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()).join('')}> Tj`;

describe('renderPrintPdf', () => {
  it('is a one-page PDF of trim size plus 1/8" bleed on each side, with trim and bleed boxes', async () => {
    const bytes = await renderPrintPdf(savedCard, printOptions);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const page = doc.getPage(0);
    expect(BLEED_POINTS).toBe(9);
    expect(page.getSize()).toEqual({ width: 3.5 * 72 + 18, height: 2 * 72 + 18 });
    expect(page.getTrimBox()).toEqual({ x: 9, y: 9, width: 252, height: 144 });
    expect(page.getBleedBox()).toEqual({ x: 0, y: 0, width: 270, height: 162 });
  });

  it('sets the text fields, the slug line and eight registration-colour crop marks', async () => {
    const doc = await PDFDocument.load(await renderPrintPdf(savedCard, printOptions));
    const content = pageContent(doc, doc.getPage(0));
    expect(content).toContain(shown('Ada Lovelace'));
    expect(content).toContain(shown('Countess of Lovelace'));
    // ’ and × are in WinAnsi (0x92, 0xD7), · too (0xB7).
    expect(content).toContain(
      shown('Order 5001 \xB7 Item 7001 \xB7 Qty 250 \xB7 Ada\x92s cards \xB7 3.50 \xD7 2 in'),
    );
    expect(content.match(/1 1 1 1 K/g)).toHaveLength(8);
    // The bottom-left marks stop 2 pt short of the trim corner (9, 9).
    expect(content).toContain('0 9 m\n7 9 l');
    expect(content).toContain('9 0 m\n9 7 l');
  });

  it('replaces characters the standard font cannot encode and cuts over-long text with an ellipsis', async () => {
    const design = {
      ...savedCard,
      textFields: [
        { name: 'Name', value: 'Ωmega 漢字' },
        { name: 'Title', value: 'W'.repeat(200) },
      ],
    };
    const doc = await PDFDocument.load(await renderPrintPdf(design, printOptions));
    const content = pageContent(doc, doc.getPage(0));
    expect(content).toContain(shown('?mega ??'));
    expect(content).toMatch(/<(57)+85> Tj/); // W…W then the WinAnsi ellipsis
  });

  it('takes its dates from producedAt and gives the same bytes every time', async () => {
    const bytes = await renderPrintPdf(savedCard, printOptions);
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getCreationDate()).toEqual(producedAt);
    expect(doc.getModificationDate()).toEqual(producedAt);
    expect(doc.getTitle()).toBe('Order 5001 item 7001');
    expect(await renderPrintPdf(savedCard, printOptions)).toEqual(bytes);
    expect(await renderPrintPdf(savedCard, { ...printOptions, quantity: 251 })).not.toEqual(bytes);
  });
});

describe('renderProofPdf', () => {
  it('is one trim-size page without bleed, holding a raster image, the text and a translucent PROOF', async () => {
    const bytes = await renderProofPdf(savedCard, { watermark: 'PROOF', producedAt });
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    const page = doc.getPage(0);
    expect(page.getSize()).toEqual({ width: 252, height: 144 });
    const content = pageContent(doc, page);
    expect(content).toMatch(/\/Image-\d+ Do/);
    expect(content).toContain(shown('PROOF'));
    expect(content).toContain(shown('Countess of Lovelace'));
    expect(page.node.Resources()?.toString()).toContain('/ca 0.35');
  });

  it('shrinks a large design so the long side is 612 pt, and writes a custom watermark', async () => {
    const poster = { ...savedCard, widthIn: 24, heightIn: 36 };
    const doc = await PDFDocument.load(await renderProofPdf(poster, { watermark: 'DRAFT', producedAt }));
    expect(doc.getPage(0).getSize()).toEqual({ width: 408, height: 612 });
    expect(pageContent(doc, doc.getPage(0))).toContain(shown('DRAFT'));
  });

  it('is smaller than the print file and deterministic', async () => {
    const proof = await renderProofPdf(savedCard, { producedAt });
    const print = await PDFDocument.load(await renderPrintPdf(savedCard, printOptions));
    const proofDoc = await PDFDocument.load(proof);
    expect(proofDoc.getPage(0).getWidth()).toBeLessThan(print.getPage(0).getWidth());
    expect(await renderProofPdf(savedCard, { producedAt })).toEqual(proof);
    expect(pageContent(proofDoc, proofDoc.getPage(0))).toContain(shown('PROOF'));
  });
});
