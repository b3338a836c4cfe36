/**
 * PNG pictures of designs: productthumb.ashx thumbnails, photo-merge renderings, and the high-resolution
 * design images of an item's assets ZIP. Pure JS (fflate), so it runs on Node and Cloudflare Workers.
 *
 * Thumbnail geometry (`thumbnailGeometry`), all in whole pixels:
 * 1. The box. `w`×`h` when both are given. With one of them, the other follows the product's proportions
 *    (rounded, clamped to 1..4000). With neither, the long side is 200 and the short side follows.
 * 2. `fwnb` true (default): the image is the largest rectangle of the product's proportions that fits in the
 *    box, and the product fills it. The border is drawn inside that image, so it never changes the size;
 *    `bm` and `fm` change nothing here, because the product is the whole thumbnail.
 * 3. `fwnb` false: the image is exactly the box, transparent where the product is not. The product area is
 *    the box, or with `bm=1` the box less `bw` pixels on each side (the border frames the whole image).
 *    `fm=0` fits the product inside the area (uniform scale, centred, letterboxed); `fm=1` scales it
 *    uniformly to cover the area, centred, cropped to it; `fm=2` stretches it to the area.
 *    With `bm=0` the border is drawn just inside the visible product rectangle.
 * 4. No border when `b` is false or `bw` is 0.
 */

import { colorForImageId, parseHexColor, type Rgb } from './colors.ts';
import { type MediaDesign, type MediaProduct, type MediaRendering, toDesign } from './design.ts';
import { encodePng } from './png-encoder.ts';
import {
  createRaster,
  drawScene,
  fillRect,
  type PixelRect,
  type Placement,
  strokeRectInside,
} from './raster.ts';
import { layoutScene, type SceneImage } from './scene.ts';
import {
  DEFAULT_THUMBNAIL_LONG_SIDE,
  DEFAULT_THUMBNAIL_OPTIONS,
  MAX_THUMBNAIL_SIDE,
  type ThumbnailOptions,
} from './thumbnail-params.ts';

/** Where a thumbnail's parts go, in pixels of the output image. */
export interface ThumbnailGeometry {
  readonly width: number;
  readonly height: number;
  /** Where the whole product is drawn; in mask mode it reaches outside `productClip`. */
  readonly product: Placement;
  /** The part of the image that shows product; empty (x0 = x1) when a border leaves no room. */
  readonly productClip: PixelRect;
  /** The frame, drawn `thickness` pixels inside `rect`; absent when there is no border. */
  readonly border?: { readonly rect: PixelRect; readonly thickness: number };
}

/**
 * Computes the thumbnail layout for a product of the given trim size (any unit; only proportions count).
 *
 * @example
 * thumbnailGeometry({ widthIn: 4, heightIn: 2 }, { width: 100, height: 100, proportional: false });
 * // → 100×100 image, product at y 25..75, a 1 px #777777 frame on the product's edge
 */
export function thumbnailGeometry(
  size: { readonly widthIn: number; readonly heightIn: number },
  options: Partial<ThumbnailOptions> = {},
): ThumbnailGeometry {
  const settings = { ...DEFAULT_THUMBNAIL_OPTIONS, ...options };
  const aspect = size.widthIn / size.heightIn;
  const clampSide = (value: number) => Math.min(MAX_THUMBNAIL_SIDE, Math.max(1, Math.round(value)));
  let boxWidth: number;
  let boxHeight: number;
  if (settings.width !== undefined && settings.height !== undefined) {
    boxWidth = settings.width;
    boxHeight = settings.height;
  } else if (settings.width !== undefined) {
    boxWidth = settings.width;
    boxHeight = clampSide(settings.width / aspect);
  } else if (settings.height !== undefined) {
    boxWidth = clampSide(settings.height * aspect);
    boxHeight = settings.height;
  } else if (aspect >= 1) {
    boxWidth = DEFAULT_THUMBNAIL_LONG_SIDE;
    boxHeight = clampSide(DEFAULT_THUMBNAIL_LONG_SIDE / aspect);
  } else {
    boxWidth = clampSide(DEFAULT_THUMBNAIL_LONG_SIDE * aspect);
    boxHeight = DEFAULT_THUMBNAIL_LONG_SIDE;
  }
  const thickness = settings.border ? settings.borderWidth : 0;

  if (settings.proportional) {
    const scale = Math.min(boxWidth / size.widthIn, boxHeight / size.heightIn);
    const width = Math.min(boxWidth, clampSide(size.widthIn * scale));
    const height = Math.min(boxHeight, clampSide(size.heightIn * scale));
    const whole = { x0: 0, y0: 0, x1: width, y1: height };
    return withBorder(
      { width, height, product: { x: 0, y: 0, w: width, h: height }, productClip: whole },
      whole,
      thickness,
    );
  }

  const inset = settings.borderAround === 'thumbnail' ? thickness : 0;
  const area = {
    x0: Math.min(inset, boxWidth - inset),
    y0: Math.min(inset, boxHeight - inset),
    x1: Math.max(boxWidth - inset, inset),
    y1: Math.max(boxHeight - inset, inset),
  };
  const areaWidth = Math.max(0, area.x1 - area.x0);
  const areaHeight = Math.max(0, area.y1 - area.y0);
  let product: Placement;
  let productClip: PixelRect;
  if (settings.fit === 'stretch' || areaWidth === 0 || areaHeight === 0) {
    product = { x: area.x0, y: area.y0, w: areaWidth, h: areaHeight };
    productClip = area;
  } else {
    const scale =
      settings.fit === 'fit'
        ? Math.min(areaWidth / size.widthIn, areaHeight / size.heightIn)
        : Math.max(areaWidth / size.widthIn, areaHeight / size.heightIn);
    const w = Math.max(1, Math.round(size.widthIn * scale));
    const h = Math.max(1, Math.round(size.heightIn * scale));
    // Whole-pixel offsets keep a masked thumbnail an exact crop of the unmasked picture.
    const x = area.x0 + Math.floor((areaWidth - w) / 2);
    const y = area.y0 + Math.floor((areaHeight - h) / 2);
    product = { x, y, w, h };
    productClip =
      settings.fit === 'fit'
        ? { x0: x, y0: y, x1: Math.min(x + w, area.x1), y1: Math.min(y + h, area.y1) }
        : area;
  }
  const frame =
    settings.borderAround === 'thumbnail' ? { x0: 0, y0: 0, x1: boxWidth, y1: boxHeight } : productClip;
  return withBorder({ width: boxWidth, height: boxHeight, product, productClip }, frame, thickness);
}

function withBorder(geometry: ThumbnailGeometry, rect: PixelRect, thickness: number): ThumbnailGeometry {
  return thickness > 0 && rect.x1 > rect.x0 && rect.y1 > rect.y0
    ? { ...geometry, border: { rect, thickness } }
    : geometry;
}

/**
 * A productthumb.ashx thumbnail: the design (or a template's defaults) drawn per the options.
 *
 * @example
 * const parsed = parseThumbnailParams(c.req.query());
 * if (parsed.ok) return new Response(renderThumbnailPng(design, parsed.value), { headers: { 'Content-Type': 'image/png' } });
 */
export function renderThumbnailPng(
  subject: MediaDesign | MediaProduct,
  options: Partial<ThumbnailOptions> = {},
): Uint8Array {
  const design = toDesign(subject);
  const settings = { ...DEFAULT_THUMBNAIL_OPTIONS, ...options };
  const geometry = thumbnailGeometry({ widthIn: design.widthIn, heightIn: design.heightIn }, settings);
  const raster = createRaster(geometry.width, geometry.height);
  drawScene(raster, layoutScene(design), geometry.product, geometry.productClip);
  if (geometry.border !== undefined) {
    strokeRectInside(
      raster,
      geometry.border.rect,
      geometry.border.thickness,
      parseHexColor(settings.borderColor)!,
    );
  }
  return encodePng(raster.pixels, raster.width, raster.height);
}

/** Size of every photo-merge rendering. */
const RENDERING_WIDTH = 800;
const RENDERING_HEIGHT = 600;

/**
 * A photo-merge rendering: the design placed on a backdrop (a wall and a table top) whose colours and
 * product scale derive from the rendering id, so each rendering of a product looks different but stable.
 *
 * @example
 * const png = renderRenderingPng(product, product.renderings[0]!, savedDesign);
 */
export function renderRenderingPng(
  product: MediaProduct,
  rendering: MediaRendering,
  design?: MediaDesign,
): Uint8Array {
  const shown = design ?? toDesign(product);
  const raster = createRaster(RENDERING_WIDTH, RENDERING_HEIGHT, tint(colorForImageId(rendering.id), 0.8));
  const tableTop = Math.round(RENDERING_HEIGHT * 0.62);
  fillRect(
    raster,
    { x0: 0, y0: tableTop, x1: RENDERING_WIDTH, y1: RENDERING_HEIGHT },
    tint(colorForImageId(rendering.id + 1), 0.45),
  );

  const share = 0.5 + (rendering.id % 3) * 0.1;
  const scale = Math.min(
    (RENDERING_WIDTH * share) / shown.widthIn,
    (RENDERING_HEIGHT * share) / shown.heightIn,
  );
  const w = Math.max(1, Math.round(shown.widthIn * scale));
  const h = Math.max(1, Math.round(shown.heightIn * scale));
  const x = Math.floor((RENDERING_WIDTH - w) / 2);
  const y = Math.min(Math.floor((RENDERING_HEIGHT - h) / 2), RENDERING_HEIGHT - h - 12);
  const shadowOffset = 10;
  fillRect(
    raster,
    { x0: x + shadowOffset, y0: y + shadowOffset, x1: x + w + shadowOffset, y1: y + h + shadowOffset },
    { r: 60, g: 60, b: 60 },
  );
  const productRect = { x0: x, y0: y, x1: x + w, y1: y + h };
  drawScene(raster, layoutScene(shown), { x, y, w, h }, productRect);
  return encodePng(raster.pixels, raster.width, raster.height);
}

/** The longest side of a full-design asset image, whatever the dpi asks, to bound memory. */
const MAX_DESIGN_IMAGE_SIDE = 3000;

/**
 * The whole design at `dpi` (long side capped at 3000 px), opaque: the high-resolution design image of an
 * assets ZIP. `textBars: false` leaves the text bars out (the proof sets the text as type instead).
 */
export function renderDesignPng(
  design: MediaDesign,
  dpi = 150,
  options: { readonly textBars?: boolean } = {},
): Uint8Array {
  const scale = Math.min(dpi, MAX_DESIGN_IMAGE_SIDE / Math.max(design.widthIn, design.heightIn));
  const width = Math.max(1, Math.round(design.widthIn * scale));
  const height = Math.max(1, Math.round(design.heightIn * scale));
  const raster = createRaster(width, height);
  const whole = { x0: 0, y0: 0, x1: width, y1: height };
  drawScene(raster, layoutScene(design), { x: 0, y: 0, w: width, h: height }, whole, options);
  return encodePng(raster.pixels, width, height);
}

/** Side of the stand-in artwork of one image item. */
const IMAGE_ITEM_SIDE = 1024;

/**
 * The stand-in high-resolution artwork of one image item: its colour with lighter diagonal stripes, so it
 * reads as a picture rather than a flat swatch.
 */
export function renderImageItemPng(image: Pick<SceneImage, 'color'>): Uint8Array {
  const raster = createRaster(IMAGE_ITEM_SIDE, IMAGE_ITEM_SIDE, image.color);
  const stripe = tint(image.color, 0.35);
  const period = 128;
  for (let y = 0; y < IMAGE_ITEM_SIDE; y++) {
    for (let x = 0; x < IMAGE_ITEM_SIDE; x++) {
      if ((x + y) % period >= period / 4) continue;
      const offset = (y * IMAGE_ITEM_SIDE + x) * 4;
      raster.pixels[offset] = stripe.r;
      raster.pixels[offset + 1] = stripe.g;
      raster.pixels[offset + 2] = stripe.b;
    }
  }
  return encodePng(raster.pixels, IMAGE_ITEM_SIDE, IMAGE_ITEM_SIDE);
}

/** Mixes a colour towards white by `amount` (0 keeps it, 1 is white). */
function tint(color: Rgb, amount: number): Rgb {
  const mix = (channel: number) => Math.round(channel + (255 - channel) * amount);
  return { r: mix(color.r), g: mix(color.g), b: mix(color.b) };
}
