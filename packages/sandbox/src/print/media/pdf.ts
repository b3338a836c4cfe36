/**
 * PDFs of designs with pdf-lib and the standard fonts only (nothing to fetch, runs on Workers):
 * the print-ready file of an order item, and the low-resolution proof of download.ashx.
 *
 * Both are byte-for-byte deterministic: metadata dates come from `producedAt`, nothing reads the clock.
 */

import { cmyk, degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { Rgb } from './colors.ts';
import type { MediaDesign } from './design.ts';
import { renderDesignPng } from './png.ts';
import { layoutScene, type Scene, type SceneBox } from './scene.ts';

const POINTS_PER_INCH = 72;
/** 1/8 inch of bleed on every side. */
export const BLEED_POINTS = 9;
/** Crop marks stop this far short of the trim so they never print on the product. */
const CROP_MARK_GAP = 2;
const PRODUCER = 'punchgate print sandbox';

export interface PrintPdfOptions {
  readonly orderId: number;
  readonly itemId: number;
  readonly quantity: number;
  /** Written as the PDF's creation and modification dates. */
  readonly producedAt: Date;
}

/**
 * The print-ready PDF of one order item: one page of trim size plus 1/8" bleed on each side (TrimBox and
 * BleedBox set), paper and accent band running into the bleed, the text fields set in Helvetica, image items
 * as colour blocks, registration-colour crop marks at the four corners, and a slug line with order id,
 * item id, quantity, design name and trim size in the bottom bleed.
 *
 * @example
 * const pdf = await renderPrintPdf(design, { orderId: 5001, itemId: 7001, quantity: 250, producedAt: clock.now() });
 */
export async function renderPrintPdf(design: MediaDesign, options: PrintPdfOptions): Promise<Uint8Array> {
  const doc = await createDocument(
    `Order ${options.orderId} item ${options.itemId}`,
    design.name,
    options.producedAt,
  );
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const trimWidth = design.widthIn * POINTS_PER_INCH;
  const trimHeight = design.heightIn * POINTS_PER_INCH;
  const pageWidth = trimWidth + 2 * BLEED_POINTS;
  const pageHeight = trimHeight + 2 * BLEED_POINTS;
  const page = doc.addPage([pageWidth, pageHeight]);
  page.setBleedBox(0, 0, pageWidth, pageHeight);
  page.setTrimBox(BLEED_POINTS, BLEED_POINTS, trimWidth, trimHeight);

  const scene = layoutScene(design);
  page.drawRectangle({ x: 0, y: 0, width: pageWidth, height: pageHeight, color: pdfColor(scene.paper) });
  // The band touches the trim's bottom, left and right edges, so it bleeds on those three sides.
  const bandHeight = scene.band.h * trimHeight;
  page.drawRectangle({
    x: 0,
    y: 0,
    width: pageWidth,
    height: BLEED_POINTS + bandHeight,
    color: pdfColor(scene.accent),
  });

  const trim = { x: BLEED_POINTS, y: BLEED_POINTS, width: trimWidth, height: trimHeight };
  drawSceneText(page, scene, font, trim);
  for (const image of scene.images) {
    if (image.visible) page.drawRectangle({ ...toPage(image.box, trim), color: pdfColor(image.color) });
  }

  drawCropMarks(page, trimWidth, trimHeight);
  const slug = `Order ${options.orderId} · Item ${options.itemId} · Qty ${options.quantity} · ${design.name} · ${formatInches(design.widthIn)} × ${formatInches(design.heightIn)} in`;
  const slugSize = 5;
  const slugText = fitText(slug, font, slugSize, trimWidth - 8);
  const slugWidth = font.widthOfTextAtSize(slugText, slugSize);
  page.drawRectangle({
    x: BLEED_POINTS + 2,
    y: 1.5,
    width: slugWidth + 4,
    height: slugSize + 1.5,
    color: rgb(1, 1, 1),
  });
  page.drawText(slugText, { x: BLEED_POINTS + 4, y: 2.5, size: slugSize, font, color: cmyk(0, 0, 0, 1) });

  return doc.save();
}

export interface ProofPdfOptions {
  /** Written diagonally across the page; default `PROOF`. */
  readonly watermark?: string;
  /** Written as the PDF's creation and modification dates. */
  readonly producedAt: Date;
}

/** The proof page's long side is at most a US Letter width, so posters shrink and cards stay actual size. */
const PROOF_MAX_SIDE_POINTS = 612;

/**
 * The low-resolution proof of download.ashx: a single page (trim size, scaled down to fit 8.5" on the long
 * side) holding the artwork as a raster of one pixel per point (72 ppi: fine on screen, useless for
 * printing, which is what a proof should be) with the text fields set on it in Helvetica so they can be
 * proof-read, no bleed and no marks, and a large translucent red watermark across the diagonal.
 *
 * @example
 * const pdf = await renderProofPdf(design, { watermark: 'PROOF', producedAt: clock.now() });
 */
export async function renderProofPdf(design: MediaDesign, options: ProofPdfOptions): Promise<Uint8Array> {
  const doc = await createDocument(`Proof of ${design.name}`, design.name, options.producedAt);
  const scale = Math.min(
    1,
    PROOF_MAX_SIDE_POINTS / (Math.max(design.widthIn, design.heightIn) * POINTS_PER_INCH),
  );
  const pageWidth = design.widthIn * POINTS_PER_INCH * scale;
  const pageHeight = design.heightIn * POINTS_PER_INCH * scale;
  const page = doc.addPage([pageWidth, pageHeight]);

  const artwork = await doc.embedPng(renderDesignPng(design, POINTS_PER_INCH * scale, { textBars: false }));
  page.drawImage(artwork, { x: 0, y: 0, width: pageWidth, height: pageHeight });
  drawSceneText(page, layoutScene(design), await doc.embedFont(StandardFonts.Helvetica), {
    x: 0,
    y: 0,
    width: pageWidth,
    height: pageHeight,
  });

  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  const watermark = encodable(options.watermark ?? 'PROOF', font) || 'PROOF';
  const angle = Math.atan2(pageHeight, pageWidth);
  const diagonal = Math.hypot(pageWidth, pageHeight);
  const size = (0.7 * diagonal) / font.widthOfTextAtSize(watermark, 1);
  const textWidth = font.widthOfTextAtSize(watermark, size);
  const capHeight = font.heightAtSize(size, { descender: false });
  // drawText rotates about the text origin, so step back from the centre by half the rotated text box.
  const x = pageWidth / 2 - (Math.cos(angle) * textWidth) / 2 + (Math.sin(angle) * capHeight) / 2;
  const y = pageHeight / 2 - (Math.sin(angle) * textWidth) / 2 - (Math.cos(angle) * capHeight) / 2;
  page.drawText(watermark, {
    x,
    y,
    size,
    font,
    color: rgb(0.85, 0.1, 0.1),
    opacity: 0.35,
    rotate: degrees((angle * 180) / Math.PI),
  });

  return doc.save();
}

interface PageRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A scene box on a PDF page whose trim is `trim` (PDF's y axis points up, the scene's down). */
function toPage(box: SceneBox, trim: PageRect): PageRect {
  return {
    x: trim.x + box.x * trim.width,
    y: trim.y + (1 - box.y - box.h) * trim.height,
    width: box.w * trim.width,
    height: box.h * trim.height,
  };
}

/** Sets each text field in its slot, as tall as its bar, cut to the slot's width. */
function drawSceneText(page: PDFPage, scene: Scene, font: PDFFont, trim: PageRect): void {
  for (const line of scene.lines) {
    const slot = toPage(line.slot, trim);
    const bar = toPage(line.bar, trim);
    const size = bar.height;
    const text = fitText(line.text, font, size, slot.width);
    // Baseline a fifth of the bar above its bottom leaves room for descenders inside the slot.
    if (text !== '')
      page.drawText(text, { x: slot.x, y: bar.y + 0.2 * size, size, font, color: pdfColor(scene.ink) });
  }
}

async function createDocument(title: string, subject: string, producedAt: Date): Promise<PDFDocument> {
  // updateMetadata false: pdf-lib would otherwise stamp the current time and its own name.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(title);
  doc.setSubject(subject);
  doc.setProducer(PRODUCER);
  doc.setCreator(PRODUCER);
  doc.setCreationDate(producedAt);
  doc.setModificationDate(producedAt);
  return doc;
}

function drawCropMarks(page: PDFPage, trimWidth: number, trimHeight: number): void {
  const registration = cmyk(1, 1, 1, 1);
  const left = BLEED_POINTS;
  const right = BLEED_POINTS + trimWidth;
  const bottom = BLEED_POINTS;
  const top = BLEED_POINTS + trimHeight;
  const pageRight = right + BLEED_POINTS;
  const pageTop = top + BLEED_POINTS;
  const reach = BLEED_POINTS - CROP_MARK_GAP;
  const marks: [number, number, number, number][] = [
    [0, bottom, reach, bottom],
    [left, 0, left, reach],
    [pageRight - reach, bottom, pageRight, bottom],
    [right, 0, right, reach],
    [0, top, reach, top],
    [left, pageTop - reach, left, pageTop],
    [pageRight - reach, top, pageRight, top],
    [right, pageTop - reach, right, pageTop],
  ];
  for (const [x1, y1, x2, y2] of marks) {
    page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.25, color: registration });
  }
}

/** Text limited to what the standard font can encode (WinAnsi) and cut with an ellipsis to `maxWidth`. */
function fitText(text: string, font: PDFFont, size: number, maxWidth: number): string {
  let shown = encodable(text, font);
  if (font.widthOfTextAtSize(shown, size) <= maxWidth) return shown;
  while (shown.length > 0 && font.widthOfTextAtSize(`${shown}…`, size) > maxWidth) shown = shown.slice(0, -1);
  return shown.length > 0 ? `${shown}…` : '';
}

function encodable(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const char of text.replace(/\s+/g, ' ')) {
    out += supported.has(char.codePointAt(0)!) ? char : '?';
  }
  return out;
}

function pdfColor(color: Rgb) {
  return rgb(color.r / 255, color.g / 255, color.b / 255);
}

function formatInches(inches: number): string {
  return Number.isInteger(inches) ? String(inches) : inches.toFixed(2);
}
