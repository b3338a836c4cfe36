/**
 * The archives of the Orders download endpoints and what goes in them:
 * - `order-{orderId}.zip`: one print-ready PDF per item, `{orderId}-{itemId}.pdf`;
 * - `item-{itemId}.zip`: that item's print-ready PDF, named the same way;
 * - `item-assets-{itemId}.zip`: the high-resolution images of the editor-designed item: the whole design as
 *   `design-{itemId}.png` (150 ppi) and each shown image item as `images/{tag}.png` (visibility tags) or
 *   `images/{tag}-{imageId}.png` (image-swap tags), tag names reduced to `[A-Za-z0-9._-]`.
 */

import type { MediaDesign } from './design.ts';
import { renderPrintPdf } from './pdf.ts';
import { renderDesignPng, renderImageItemPng } from './png.ts';
import { layoutScene } from './scene.ts';
import { buildZip, type ZipEntry } from './zip.ts';

export interface OrderItemArtwork {
  readonly itemId: number;
  readonly quantity: number;
  readonly design: MediaDesign;
}

/** Attachment file names of the three download endpoints, as the interface fixes them. */
export const orderZipFileName = (orderId: number): string => `order-${orderId}.zip`;
export const itemZipFileName = (itemId: number): string => `item-${itemId}.zip`;
export const itemAssetsZipFileName = (itemId: number): string => `item-assets-${itemId}.zip`;

const printFileName = (orderId: number, itemId: number): string => `${orderId}-${itemId}.pdf`;

/**
 * The ZIP of GET /order/{orderId}/download: every item's print PDF, in the order given.
 *
 * @example
 * const zip = await buildOrderZip(5001, order.items.map((i) => ({ itemId: i.id, quantity: i.quantity, design: designOf(i) })), clock.now());
 */
export async function buildOrderZip(
  orderId: number,
  items: readonly OrderItemArtwork[],
  producedAt: Date,
): Promise<Uint8Array> {
  const entries: ZipEntry[] = [];
  for (const item of items) entries.push(await printEntry(orderId, item, producedAt));
  return buildZip(entries);
}

/** The ZIP of GET /order/{orderId}/download/{itemId}: that item's print PDF. */
export async function buildItemZip(
  orderId: number,
  item: OrderItemArtwork,
  producedAt: Date,
): Promise<Uint8Array> {
  return buildZip([await printEntry(orderId, item, producedAt)]);
}

/** The ZIP of GET /order/{orderId}/assets/{itemId}: the design image and the shown image items' artwork. */
export function buildItemAssetsZip(itemId: number, design: MediaDesign): Uint8Array {
  const entries: ZipEntry[] = [{ name: `design-${itemId}.png`, data: renderDesignPng(design, 150) }];
  const used = new Set<string>();
  for (const image of layoutScene(design).images) {
    if (!image.visible) continue;
    const stem =
      image.imageId === undefined ? safeName(image.tag) : `${safeName(image.tag)}-${image.imageId}`;
    let name = `images/${stem}.png`;
    for (let n = 2; used.has(name); n++) name = `images/${stem}-${n}.png`;
    used.add(name);
    entries.push({ name, data: renderImageItemPng(image) });
  }
  return buildZip(entries);
}

async function printEntry(orderId: number, item: OrderItemArtwork, producedAt: Date): Promise<ZipEntry> {
  const data = await renderPrintPdf(item.design, {
    orderId,
    itemId: item.itemId,
    quantity: item.quantity,
    producedAt,
  });
  return { name: printFileName(orderId, item.itemId), data };
}

function safeName(tag: string): string {
  const cleaned = tag.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return cleaned === '' ? 'image' : cleaned;
}
