/**
 * The design model the sandbox's media functions draw: a product template and a saved design made from it.
 *
 * These are structural types: the sandbox's seed and store records are passed in as they are when their
 * fields line up, so the media layer never imports the sandbox's own modules.
 */

/** One text field of a template or design: a labelled line of text printed on the product. */
export interface MediaTextField {
  readonly name: string;
  readonly value: string;
}

/**
 * An image item tag of a template. `kind` says which query values the online editor accepts for it:
 * `visibility` → `true`/`false`, `image` → an integer image id, `colors` → a colour map.
 */
export interface MediaImageTag {
  readonly name: string;
  readonly kind: 'visibility' | 'image' | 'colors';
  /** The template's value, in the same syntax as the query value (`'true'`, `'12'`, `'Ink,Accent'`). */
  readonly default: string;
  /** For `image` tags: the image ids the editor offers besides the default and the current value. */
  readonly images?: readonly number[];
}

export interface MediaRendering {
  readonly id: number;
  readonly name: string;
}

/** A product template of the emulated print service. */
export interface MediaProduct {
  readonly id: number;
  readonly name: string;
  readonly integrationId?: string;
  /** Trim size in inches. */
  readonly size: { readonly widthIn: number; readonly heightIn: number };
  /** Whether the online editor accepts a custom size (`s`). */
  readonly customSize: boolean;
  readonly renderings: readonly MediaRendering[];
  readonly imageTags: readonly MediaImageTag[];
  /** Palette name → `#RRGGBB`. The names `paper`, `ink` and `accent` (any case) set the drawing colours. */
  readonly palette: Readonly<Record<string, string>>;
  /** The template's text fields and their default values; none when absent. */
  readonly textFields?: readonly MediaTextField[];
  readonly parametric?: readonly { readonly name: string; readonly value: string }[];
}

/** A design (saved project) made from a template. */
export interface MediaDesign {
  readonly productId: number;
  readonly name: string;
  readonly widthIn: number;
  readonly heightIn: number;
  readonly textFields: readonly MediaTextField[];
  /** Image item tag name → value in query syntax (visibility, image id or colour map). */
  readonly tags: Readonly<Record<string, string>>;
  /**
   * Named colours of the design (name → `#RRGGBB`), copied from the template's palette. Colour-map names
   * resolve against them; `paper`, `ink` and `accent` (any case) set the drawing colours.
   */
  readonly colors?: Readonly<Record<string, string>>;
}

/**
 * The design a template starts as: its size, its text fields' defaults, its tags' defaults, its palette.
 *
 * @example
 * const design = designFromProduct(product); // what the editor shows for ?productid=101
 */
export function designFromProduct(product: MediaProduct): MediaDesign {
  const tags: Record<string, string> = {};
  for (const tag of product.imageTags) tags[tag.name] = tag.default;
  return {
    productId: product.id,
    name: product.name,
    widthIn: product.size.widthIn,
    heightIn: product.size.heightIn,
    textFields: product.textFields ?? [],
    tags,
    colors: product.palette,
  };
}

/** Accepts a design or a template and answers the design to draw (a template draws as its defaults). */
export function toDesign(subject: MediaDesign | MediaProduct): MediaDesign {
  return 'productId' in subject ? subject : designFromProduct(subject);
}
