import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  designFromProduct,
  type MediaDesign,
  renderRenderingPng,
  renderThumbnailPng,
  type ThumbnailOptions,
  thumbnailGeometry,
} from '../../../src/print/media/index.ts';
import { ACCENT, banner, businessCard, PAPER, savedCard } from './sample-products.ts';

const BORDER = '#777777';
const CLEAR = 'transparent';

interface Decoded {
  readonly width: number;
  readonly height: number;
  /** `#RRGGBB` of an opaque pixel, `transparent` for alpha 0. */
  at(x: number, y: number): string;
}

function decode(png: Uint8Array): Decoded {
  const image = PNG.sync.read(Buffer.from(png));
  return {
    width: image.width,
    height: image.height,
    at(x, y) {
      const i = (y * image.width + x) * 4;
      if (image.data[i + 3] === 0) return CLEAR;
      const hex = [0, 1, 2].map((c) => image.data[i + c]!.toString(16).padStart(2, '0')).join('');
      return `#${hex.toUpperCase()}`;
    },
  };
}

const thumb = (options: Partial<ThumbnailOptions>, subject: MediaDesign | typeof banner = banner) =>
  decode(renderThumbnailPng(subject, options));

describe('thumbnail size', () => {
  it.each([
    ['no w or h: 200 px on the long side', banner, {}, 200, 100],
    ['no w or h, a tall product', { ...banner, size: { widthIn: 2, heightIn: 4 } }, {}, 100, 200],
    ['no w or h, a 3.5×2 card', businessCard, {}, 200, 114],
    ['w only: height follows the product', banner, { width: 300 }, 300, 150],
    ['h only: width follows the product', banner, { height: 50 }, 100, 50],
    ['fwnb (default) fits the product in a square box', banner, { width: 300, height: 300 }, 300, 150],
    ['fwnb fits a wide box by its height', banner, { width: 500, height: 100 }, 200, 100],
    ['fwnb ignores the border for the size', banner, { width: 300, height: 300, borderWidth: 20 }, 300, 150],
    ['fwnb=0 answers the box exactly', banner, { width: 300, height: 300, proportional: false }, 300, 300],
  ] as const)('%s', (_, product, options, width, height) => {
    const image = decode(renderThumbnailPng(product, options));
    expect([image.width, image.height]).toEqual([width, height]);
  });

  it('refuses a design without a positive size', () => {
    expect(() => renderThumbnailPng({ ...savedCard, widthIn: 0 }, {})).toThrow(
      'design size must be positive inches, got 0',
    );
  });

  it('clamps a derived side to 4000', () => {
    const geometry = thumbnailGeometry({ widthIn: 4, heightIn: 2 }, { height: 4000 });
    expect([geometry.width, geometry.height]).toEqual([4000, 2000]);
  });
});

describe('thumbnail border (b, bw, bc)', () => {
  it('draws a 1 px #777777 frame by default, inside the image', () => {
    const image = thumb({});
    for (const [x, y] of [
      [0, 0],
      [199, 0],
      [0, 99],
      [199, 99],
      [100, 0],
      [0, 50],
    ] as const) {
      expect(image.at(x, y)).toBe(BORDER);
    }
    expect(image.at(1, 1)).toBe(PAPER);
    expect(image.at(198, 50)).toBe(PAPER);
  });

  it('draws no border when b is false or bw is 0', () => {
    expect(thumb({ border: false }).at(0, 0)).toBe(PAPER);
    expect(thumb({ borderWidth: 0 }).at(0, 0)).toBe(PAPER);
  });

  it('makes the frame bw pixels thick in colour bc', () => {
    const image = thumb({ borderWidth: 3, borderColor: 'FF0000' });
    expect([0, 1, 2].map((x) => image.at(x, 50))).toEqual(['#FF0000', '#FF0000', '#FF0000']);
    expect(image.at(3, 50)).toBe(PAPER);
    expect([97, 98, 99].map((y) => image.at(100, y))).toEqual(['#FF0000', '#FF0000', '#FF0000']);
  });
});

describe('thumbnail border mode (bm) with fwnb=0', () => {
  const box = { width: 300, height: 300, proportional: false, borderWidth: 2 } as const;

  it('bm=0 frames the product: 300×150 centred, transparent around it', () => {
    const image = thumb({ ...box, borderAround: 'product' });
    expect(image.at(0, 0)).toBe(CLEAR);
    expect(image.at(150, 74)).toBe(CLEAR);
    expect([75, 76].map((y) => image.at(150, y))).toEqual([BORDER, BORDER]);
    expect(image.at(150, 77)).toBe(PAPER);
    expect([223, 224].map((y) => image.at(150, y))).toEqual([BORDER, BORDER]);
    expect(image.at(150, 225)).toBe(CLEAR);
  });

  it('bm=1 frames the whole thumbnail and fits the product inside the frame', () => {
    const image = thumb({ ...box, borderAround: 'thumbnail' });
    expect([image.at(0, 0), image.at(1, 1), image.at(299, 299), image.at(150, 1)]).toEqual([
      BORDER,
      BORDER,
      BORDER,
      BORDER,
    ]);
    expect(image.at(150, 2)).toBe(CLEAR);
    // 296×148 product at y 76..223, unframed
    expect(image.at(150, 75)).toBe(CLEAR);
    expect(image.at(150, 76)).toBe(PAPER);
    expect(image.at(2, 100)).toBe(PAPER);
  });
});

describe('thumbnail fit mode (fm) with fwnb=0', () => {
  const square = { width: 100, height: 100, proportional: false, border: false } as const;

  it('fm=0 letterboxes the whole product: the accent band sits at rows 72..74', () => {
    const image = thumb({ ...square, fit: 'fit' });
    expect(image.at(50, 24)).toBe(CLEAR);
    expect(image.at(50, 25)).toBe(PAPER);
    expect(image.at(50, 71)).toBe(PAPER);
    expect(image.at(50, 72)).toBe(ACCENT);
    expect(image.at(50, 74)).toBe(ACCENT);
    expect(image.at(50, 75)).toBe(CLEAR);
  });

  it('fm=1 covers the box: exactly the centre crop of the unmasked 200×100 picture', () => {
    const masked = thumb({ ...square, fit: 'mask' });
    const whole = thumb({ width: 200, height: 100, proportional: false, border: false });
    for (let y = 0; y < 100; y++) {
      for (let x = 0; x < 100; x++) {
        if (masked.at(x, y) !== whole.at(x + 50, y)) expect.fail(`pixel ${x},${y} differs from the crop`);
      }
    }
    expect(masked.at(0, 0)).not.toBe(CLEAR);
  });

  it('fm=2 stretches the product over the box: the band takes the bottom 6 rows', () => {
    const image = thumb({ ...square, fit: 'stretch' });
    expect(image.at(50, 0)).toBe(PAPER);
    expect(image.at(50, 93)).toBe(PAPER);
    expect(image.at(50, 94)).toBe(ACCENT);
    expect(image.at(50, 99)).toBe(ACCENT);
  });

  it('bm=1 with fm=1 crops the product to the inside of the frame', () => {
    const image = thumb({
      width: 100,
      height: 100,
      proportional: false,
      borderWidth: 4,
      borderAround: 'thumbnail',
      fit: 'mask',
    });
    expect(image.at(3, 50)).toBe(BORDER);
    expect(image.at(4, 50)).not.toBe(CLEAR);
    expect(image.at(4, 50)).not.toBe(BORDER);
  });

  it('fwnb=1 makes bm and fm irrelevant: the product is the whole thumbnail', () => {
    const base = renderThumbnailPng(banner, { width: 120, height: 120 });
    expect(
      renderThumbnailPng(banner, { width: 120, height: 120, fit: 'mask', borderAround: 'thumbnail' }),
    ).toEqual(base);
    expect(renderThumbnailPng(banner, { width: 120, height: 120, fit: 'stretch' })).toEqual(base);
  });
});

describe('thumbnail drawing of the design', () => {
  // Card at 350×200 px: logo box x 260..334, y 16..90; photo box y 98..172; first text bar y 23..37 from x 16.
  const card = (design: MediaDesign) => decode(renderThumbnailPng(design, { width: 350, border: false }));

  it('draws a template as its defaults and a design as saved', () => {
    expect(card(designFromProduct(businessCard)).at(300, 40)).toBe(ACCENT);
    const saved = card(savedCard);
    expect(saved.at(300, 40)).toBe(ACCENT);
    expect(saved.at(300, 120)).not.toBe(card(designFromProduct(businessCard)).at(300, 120));
  });

  it('hides an image item whose visibility tag is false', () => {
    expect(card({ ...savedCard, tags: { ...savedCard.tags, logo: 'false' } }).at(300, 40)).toBe(PAPER);
  });

  it('recolours by a colour map, by palette name or hex', () => {
    const byName = card({
      ...savedCard,
      tags: { ...savedCard.tags, scheme: 'Paper,#00FF00;accent,Brand Gold' },
    });
    expect(byName.at(2, 2)).toBe('#00FF00');
    expect(byName.at(300, 40)).toBe('#D4AF37');
  });

  it('draws a bar for each non-empty text field, none for an empty one', () => {
    const ink = '#112233';
    expect(card(savedCard).at(30, 30)).toBe(ink);
    expect(
      card({ ...savedCard, textFields: [{ name: 'Name', value: '' }, savedCard.textFields[1]!] }).at(30, 30),
    ).toBe(PAPER);
  });
});

describe('renderRenderingPng', () => {
  it('is an 800×600 PNG that differs per rendering and is stable', () => {
    const first = renderRenderingPng(businessCard, businessCard.renderings[0]!);
    const second = renderRenderingPng(businessCard, businessCard.renderings[1]!);
    const image = decode(first);
    expect([image.width, image.height]).toEqual([800, 600]);
    expect(image.at(400, 300)).toBe(PAPER);
    expect(second).not.toEqual(first);
    expect(renderRenderingPng(businessCard, businessCard.renderings[0]!)).toEqual(first);
  });

  it('shows the saved design when one is given', () => {
    const rendering = businessCard.renderings[0]!;
    const plain = renderRenderingPng(businessCard, rendering);
    const recoloured = renderRenderingPng(businessCard, rendering, {
      ...savedCard,
      tags: { scheme: 'Paper,#000000' },
    });
    expect(decode(recoloured).at(400, 300)).toBe('#000000');
    expect(recoloured).not.toEqual(plain);
  });
});
