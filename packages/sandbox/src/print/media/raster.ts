/**
 * An RGBA pixel buffer with the two operations the sandbox pictures need: filling rectangles and drawing a
 * scene into a rectangle. Integer pixel edges come from rounding the scaled scene edges, so a scene drawn
 * at an integer offset is the same picture shifted by whole pixels.
 */

import type { Rgb } from './colors.ts';
import type { Scene, SceneBox } from './scene.ts';

export interface Raster {
  readonly width: number;
  readonly height: number;
  /** Row-major RGBA, 4 bytes a pixel. */
  readonly pixels: Uint8Array;
}

/** A pixel rectangle, edges included at x0/y0 and excluded at x1/y1. */
export interface PixelRect {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** A placement in pixels that may be fractional and may reach outside the raster (mask mode does). */
export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** A raster filled with one colour, or fully transparent when none is given. */
export function createRaster(width: number, height: number, fill?: Rgb): Raster {
  const pixels = new Uint8Array(width * height * 4);
  const raster = { width, height, pixels };
  if (fill !== undefined) fillRect(raster, { x0: 0, y0: 0, x1: width, y1: height }, fill);
  return raster;
}

/** Paints an opaque rectangle, cut to the raster and to `clip` when given. */
export function fillRect(raster: Raster, rect: PixelRect, color: Rgb, clip?: PixelRect): void {
  const x0 = Math.max(rect.x0, clip?.x0 ?? 0, 0);
  const y0 = Math.max(rect.y0, clip?.y0 ?? 0, 0);
  const x1 = Math.min(rect.x1, clip?.x1 ?? raster.width, raster.width);
  const y1 = Math.min(rect.y1, clip?.y1 ?? raster.height, raster.height);
  for (let y = y0; y < y1; y++) {
    let offset = (y * raster.width + x0) * 4;
    for (let x = x0; x < x1; x++) {
      raster.pixels[offset] = color.r;
      raster.pixels[offset + 1] = color.g;
      raster.pixels[offset + 2] = color.b;
      raster.pixels[offset + 3] = 255;
      offset += 4;
    }
  }
}

/** Paints a frame of `thickness` pixels just inside `rect`. */
export function strokeRectInside(raster: Raster, rect: PixelRect, thickness: number, color: Rgb): void {
  if (thickness <= 0) return;
  const t = thickness;
  fillRect(raster, { x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: Math.min(rect.y0 + t, rect.y1) }, color);
  fillRect(raster, { x0: rect.x0, y0: Math.max(rect.y1 - t, rect.y0), x1: rect.x1, y1: rect.y1 }, color);
  fillRect(raster, { x0: rect.x0, y0: rect.y0, x1: Math.min(rect.x0 + t, rect.x1), y1: rect.y1 }, color);
  fillRect(raster, { x0: Math.max(rect.x1 - t, rect.x0), y0: rect.y0, x1: rect.x1, y1: rect.y1 }, color);
}

/**
 * Draws a scene stretched onto `placement`, showing only what falls inside `clip`. `textBars: false` leaves
 * the text out, for pictures whose text is set as real type on top (the PDF proof).
 */
export function drawScene(
  raster: Raster,
  scene: Scene,
  placement: Placement,
  clip: PixelRect,
  { textBars = true }: { readonly textBars?: boolean } = {},
): void {
  const toPixels = (box: SceneBox): PixelRect => ({
    x0: Math.round(placement.x + box.x * placement.w),
    y0: Math.round(placement.y + box.y * placement.h),
    x1: Math.round(placement.x + (box.x + box.w) * placement.w),
    y1: Math.round(placement.y + (box.y + box.h) * placement.h),
  });
  fillRect(raster, toPixels({ x: 0, y: 0, w: 1, h: 1 }), scene.paper, clip);
  fillRect(raster, toPixels(scene.band), scene.accent, clip);
  for (const line of scene.lines) {
    if (textBars && line.bar.w > 0) fillRect(raster, toPixels(line.bar), scene.ink, clip);
  }
  for (const image of scene.images) {
    if (image.visible) fillRect(raster, toPixels(image.box), image.color, clip);
  }
}
