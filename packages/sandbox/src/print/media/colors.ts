/**
 * Colours as the editor host spells them: RGB hex codes, palette names and colour maps
 * (`color1_from,color1_to;color2_from,color2_to;...`).
 */

import { type MediaParseResult, parsed, refused } from './media-input-error.ts';

/** An opaque colour as 0..255 channels. */
export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

/** One recolouring of a colour map, both sides as `#RRGGBB` (upper case). */
export interface ColorPair {
  readonly from: string;
  readonly to: string;
}

const HEX_COLOR = /^#?([0-9a-fA-F]{6})$/;

/** `#RRGGBB` (upper case) for six hex digits with or without a leading `#`; undefined otherwise. */
function normalizeHexColor(text: string): string | undefined {
  const match = HEX_COLOR.exec(text);
  return match ? `#${match[1]!.toUpperCase()}` : undefined;
}

/** The channels of a colour given as six hex digits with or without `#`; undefined when malformed. */
export function parseHexColor(text: string): Rgb | undefined {
  const hex = normalizeHexColor(text);
  if (hex === undefined) return undefined;
  const value = Number.parseInt(hex.slice(1), 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

export function formatHexColor(color: Rgb): string {
  return `#${[color.r, color.g, color.b]
    .map((channel) => channel.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}

/**
 * A colour named in a colour map: a hex code first, else a palette name compared case-insensitively.
 * Palette values that are not hex codes are ignored, so a bad seed entry cannot make a colour.
 */
function resolveNamedColor(text: string, palette: Readonly<Record<string, string>>): string | undefined {
  const hex = normalizeHexColor(text);
  if (hex !== undefined) return hex;
  const wanted = text.toLowerCase();
  for (const [name, value] of Object.entries(palette)) {
    if (name.toLowerCase() === wanted) return normalizeHexColor(value);
  }
  return undefined;
}

/**
 * Parses a colour map against a palette. Pairs are separated by `;` (one trailing `;` is allowed), the two
 * colours of a pair by `,`; each colour is a hex code (`#` optional) or a palette name.
 *
 * @example
 * parseColorMap('Ink,#ff0000;FFFFFF,Paper', 'logo', { Ink: '#112233', Paper: '#FFFBE6' });
 * // → { ok: true, value: [{ from: '#112233', to: '#FF0000' }, { from: '#FFFFFF', to: '#FFFBE6' }] }
 */
export function parseColorMap(
  text: string,
  parameter: string,
  palette: Readonly<Record<string, string>>,
): MediaParseResult<readonly ColorPair[]> {
  const body = text.endsWith(';') ? text.slice(0, -1) : text;
  if (body === '')
    return refused('invalid_color_map', parameter, `${parameter} must be a colour map from,to;from,to`);
  const pairs: ColorPair[] = [];
  for (const pairText of body.split(';')) {
    const sides = pairText.split(',');
    if (sides.length !== 2) {
      return refused(
        'invalid_color_map',
        parameter,
        `${parameter} must be a colour map from,to;from,to (pair "${pairText}" is not two colours)`,
      );
    }
    const resolved: string[] = [];
    for (const side of sides) {
      const color = resolveNamedColor(side, palette);
      if (color === undefined) {
        return refused(
          'invalid_color',
          parameter,
          `${parameter}: "${side}" is neither a 6-digit RGB hex code nor a palette colour`,
        );
      }
      resolved.push(color);
    }
    pairs.push({ from: resolved[0]!, to: resolved[1]! });
  }
  return parsed(pairs);
}

/**
 * A stable, saturated colour for an image id: stand-in artwork that tells swapped images apart.
 * The golden-angle hue step keeps neighbouring ids far apart on the colour wheel.
 */
export function colorForImageId(imageId: number): Rgb {
  const hue = (imageId * 137.508) % 360;
  return hslToRgb(hue, 0.55, 0.5);
}

function hslToRgb(hue: number, saturation: number, lightness: number): Rgb {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const sector = hue / 60;
  const second = chroma * (1 - Math.abs((sector % 2) - 1));
  const [r1, g1, b1] =
    sector < 1
      ? [chroma, second, 0]
      : sector < 2
        ? [second, chroma, 0]
        : sector < 3
          ? [0, chroma, second]
          : sector < 4
            ? [0, second, chroma]
            : sector < 5
              ? [second, 0, chroma]
              : [chroma, 0, second];
  const offset = lightness - chroma / 2;
  const channel = (value: number) => Math.round((value + offset) * 255);
  return { r: channel(r1), g: channel(g1), b: channel(b1) };
}
