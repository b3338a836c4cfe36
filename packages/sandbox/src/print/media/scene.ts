/**
 * The layout every sandbox picture of a design shares (thumbnail, rendering, print PDF, proof, editor
 * preview): paper, one slot per text field, one slot per image item, an accent band along the bottom.
 * Boxes are fractions of the product's trim (x right, y down), so each medium scales them to its own units.
 */

import { type ColorPair, colorForImageId, parseColorMap, parseHexColor, type Rgb } from './colors.ts';
import type { MediaDesign } from './design.ts';

/** A rectangle as fractions of the product's width (x, w) and height (y, h), y measured downwards. */
export interface SceneBox {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

interface SceneTextLine {
  readonly field: string;
  readonly text: string;
  /** The whole slot of the field; text is drawn inside it. */
  readonly slot: SceneBox;
  /** The bar that stands for the text in pictures without fonts; zero width for an empty field. */
  readonly bar: SceneBox;
}

export interface SceneImage {
  readonly tag: string;
  readonly visible: boolean;
  /** Set for an image-swap tag; the stand-in artwork's colour derives from it. */
  readonly imageId?: number;
  readonly box: SceneBox;
  readonly color: Rgb;
}

export interface Scene {
  readonly widthIn: number;
  readonly heightIn: number;
  readonly paper: Rgb;
  readonly ink: Rgb;
  readonly accent: Rgb;
  readonly band: SceneBox;
  readonly lines: readonly SceneTextLine[];
  readonly images: readonly SceneImage[];
}

const DEFAULT_PAPER = '#FFFFFF';
const DEFAULT_INK = '#1F2937';
const DEFAULT_ACCENT = '#2563EB';

/** How a stored tag value reads; the syntax alone tells the kinds apart. */
type TagReading =
  | { readonly kind: 'visibility'; readonly visible: boolean }
  | { readonly kind: 'image'; readonly imageId: number }
  | { readonly kind: 'colors'; readonly pairs: readonly ColorPair[] };

/** Reads a design's tag value; undefined when it fits none of the three syntaxes. */
function readTagValue(value: string, palette: Readonly<Record<string, string>>): TagReading | undefined {
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false') return { kind: 'visibility', visible: lower === 'true' };
  if (/^[0-9]{1,10}$/.test(value)) return { kind: 'image', imageId: Number(value) };
  const map = parseColorMap(value, 'tag', palette);
  return map.ok ? { kind: 'colors', pairs: map.value } : undefined;
}

/**
 * Lays a design out. Deterministic: the same design always gives the same scene.
 *
 * @example
 * const scene = layoutScene(design);
 * scene.lines[0]?.bar; // where the first text field's bar goes, as fractions of the trim
 */
export function layoutScene(design: MediaDesign): Scene {
  for (const side of [design.widthIn, design.heightIn]) {
    if (!Number.isFinite(side) || side <= 0)
      throw new TypeError(`design size must be positive inches, got ${side}`);
  }
  const palette = design.colors ?? {};
  let paper = roleColor(palette, 'paper', DEFAULT_PAPER);
  let ink = roleColor(palette, 'ink', DEFAULT_INK);
  let accent = roleColor(palette, 'accent', DEFAULT_ACCENT);

  const imageTags: { tag: string; visible: boolean; imageId?: number }[] = [];
  for (const [tag, value] of Object.entries(design.tags)) {
    const reading = readTagValue(value, palette);
    if (reading === undefined) continue;
    if (reading.kind === 'colors') {
      // Every pair of every colour map recolours the roles it names; later maps see earlier results.
      for (const pair of reading.pairs) {
        const to = parseHexColor(pair.to)!;
        if (sameColor(paper, pair.from)) paper = to;
        if (sameColor(ink, pair.from)) ink = to;
        if (sameColor(accent, pair.from)) accent = to;
      }
    } else if (reading.kind === 'visibility') {
      imageTags.push({ tag, visible: reading.visible });
    } else {
      imageTags.push({ tag, visible: true, imageId: reading.imageId });
    }
  }

  const width = design.widthIn;
  const height = design.heightIn;
  const margin = 0.08 * Math.min(width, height);
  const bandHeight = 0.06 * height;
  const innerWidth = width - 2 * margin;
  const innerHeight = height - bandHeight - 2 * margin;
  const columnWidth = imageTags.length > 0 ? 0.3 * innerWidth : 0;
  const textWidth = imageTags.length > 0 ? innerWidth - columnWidth - margin : innerWidth;

  const fieldCount = Math.max(design.textFields.length, 1);
  const slotHeight = Math.min(innerHeight / fieldCount, 0.14 * height);
  const lines = design.textFields.map((field, index): SceneTextLine => {
    const slotTop = margin + index * slotHeight;
    const barHeight = 0.5 * slotHeight;
    // A glyph is about half as wide as it is tall, so the bar is as long as the text would be.
    const barWidth = Math.min(textWidth, field.value.length * 0.5 * barHeight);
    return {
      field: field.name,
      text: field.value,
      slot: fraction({ x: margin, y: slotTop, w: textWidth, h: slotHeight }, width, height),
      bar: fraction({ x: margin, y: slotTop + 0.25 * slotHeight, w: barWidth, h: barHeight }, width, height),
    };
  });

  const gap = margin / 2;
  const side = Math.min(
    columnWidth,
    (innerHeight - (imageTags.length - 1) * gap) / Math.max(imageTags.length, 1),
  );
  const images = imageTags.map((item, index): SceneImage => {
    const box = fraction(
      { x: margin + innerWidth - side, y: margin + index * (side + gap), w: side, h: side },
      width,
      height,
    );
    const color = item.imageId === undefined ? accent : colorForImageId(item.imageId);
    return item.imageId === undefined
      ? { tag: item.tag, visible: item.visible, box, color }
      : { tag: item.tag, visible: item.visible, imageId: item.imageId, box, color };
  });

  return {
    widthIn: width,
    heightIn: height,
    paper,
    ink,
    accent,
    band: fraction({ x: 0, y: height - bandHeight, w: width, h: bandHeight }, width, height),
    lines,
    images,
  };
}

function roleColor(palette: Readonly<Record<string, string>>, role: string, fallback: string): Rgb {
  for (const [name, value] of Object.entries(palette)) {
    if (name.toLowerCase() === role) {
      const color = parseHexColor(value);
      if (color !== undefined) return color;
    }
  }
  return parseHexColor(fallback)!;
}

function sameColor(color: Rgb, hex: string): boolean {
  const other = parseHexColor(hex);
  return other !== undefined && other.r === color.r && other.g === color.g && other.b === color.b;
}

function fraction(box: SceneBox, width: number, height: number): SceneBox {
  return { x: box.x / width, y: box.y / height, w: box.w / width, h: box.h / height };
}
