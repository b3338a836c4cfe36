/** Templates and designs the media tests draw; the palette sets paper, ink and accent explicitly. */

import type { MediaDesign, MediaProduct } from '../../../src/print/media/index.ts';

export const PAPER = '#FFFBE6';
export const INK = '#112233';
export const ACCENT = '#CC3300';

export const businessCard: MediaProduct = {
  id: 101,
  name: 'Business card',
  integrationId: 'BC-STD',
  size: { widthIn: 3.5, heightIn: 2 },
  customSize: false,
  renderings: [
    { id: 1, name: 'On a desk' },
    { id: 2, name: 'In hand' },
  ],
  imageTags: [
    { name: 'logo', kind: 'visibility', default: 'true' },
    { name: 'photo', kind: 'image', default: '12', images: [13, 14] },
    { name: 'scheme', kind: 'colors', default: 'Ink,Ink' },
  ],
  palette: { Paper: PAPER, Ink: INK, Accent: ACCENT, 'Brand Gold': '#D4AF37' },
  textFields: [
    { name: 'Name', value: 'Ada Lovelace' },
    { name: 'Title', value: 'Analyst' },
  ],
};

/** A 4×2 inch template without tags: its proportions make the thumbnail arithmetic exact. */
export const banner: MediaProduct = {
  id: 202,
  name: 'Banner',
  integrationId: 'BANNER-42',
  size: { widthIn: 4, heightIn: 2 },
  customSize: true,
  renderings: [],
  imageTags: [],
  palette: { paper: PAPER, ink: INK, accent: ACCENT },
  textFields: [{ name: 'Headline', value: 'Grand opening' }],
};

export const savedCard: MediaDesign = {
  productId: 101,
  name: 'Ada’s cards',
  widthIn: 3.5,
  heightIn: 2,
  textFields: [
    { name: 'Name', value: 'Ada Lovelace' },
    { name: 'Title', value: 'Countess of Lovelace' },
  ],
  tags: { logo: 'true', photo: '14', scheme: 'Ink,Ink' },
  colors: businessCard.palette,
};
