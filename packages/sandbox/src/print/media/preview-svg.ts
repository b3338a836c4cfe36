/**
 * The editor page's live preview: the design's scene as inline SVG. SVG presentation attributes are not
 * inline styles, so the preview works under a strict Content-Security-Policy, and the page script can
 * update it by element id (`preview-text-<i>` per text field, `preview-image-<i>` per image item).
 */

import { escapeHtml } from 'punchgate/kernel';
import { formatHexColor } from './colors.ts';
import type { MediaDesign } from './design.ts';
import { layoutScene, type SceneBox } from './scene.ts';

export const previewTextId = (index: number): string => `preview-text-${index}`;
export const previewImageId = (index: number): string => `preview-image-${index}`;

/** The scene of `design` as an `<svg>` element, its user units being points of the trim. */
export function renderPreviewSvg(design: MediaDesign): string {
  const scene = layoutScene(design);
  const width = design.widthIn * 72;
  const height = design.heightIn * 72;
  const n = (value: number) => value.toFixed(2);
  const rect = (box: SceneBox) =>
    `x="${n(box.x * width)}" y="${n(box.y * height)}" width="${n(box.w * width)}" height="${n(box.h * height)}"`;

  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="preview" viewBox="0 0 ${n(width)} ${n(height)}" role="img" aria-labelledby="preview-title">`,
    `<title id="preview-title">Preview of ${escapeHtml(design.name)}</title>`,
    `<rect x="0" y="0" width="${n(width)}" height="${n(height)}" fill="${formatHexColor(scene.paper)}"/>`,
    `<rect ${rect(scene.band)} fill="${formatHexColor(scene.accent)}"/>`,
  ];
  scene.lines.forEach((line, index) => {
    const size = line.bar.h * height;
    const baseline = (line.bar.y + line.bar.h) * height - 0.2 * size;
    parts.push(
      `<clipPath id="preview-clip-${index}"><rect ${rect(line.slot)}/></clipPath>`,
      `<text id="${previewTextId(index)}" x="${n(line.slot.x * width)}" y="${n(baseline)}" font-size="${n(size)}" font-family="Helvetica, Arial, sans-serif" fill="${formatHexColor(scene.ink)}" clip-path="url(#preview-clip-${index})">${escapeHtml(line.text)}</text>`,
    );
  });
  scene.images.forEach((image, index) => {
    parts.push(
      `<rect id="${previewImageId(index)}" ${rect(image.box)} fill="${formatHexColor(image.color)}" visibility="${image.visible ? 'visible' : 'hidden'}"/>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}
