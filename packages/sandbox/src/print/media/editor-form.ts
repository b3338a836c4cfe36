/**
 * The online editor's save form: the field names the editor page writes and the parser the save route
 * reads them back with, kept in one file so the two cannot drift apart.
 *
 * Fields: `token`, `cru` (when the page was opened with one), `cartReturnUrl` (filled by the page script
 * from `window.cartReturnUrl`), `text.<field name>` per text field, `tag.<tag name>` per image item tag (a
 * visibility tag posts a hidden `false` then, when ticked, `true`; the last value wins), `monitoredTag` once
 * per tag that came in the query, and `size.width` / `size.height` for custom-size products.
 */

import type { MediaDesign, MediaProduct, MediaTextField } from './design.ts';
import { type EditorSize, isWebUrl, readEditorTagValue } from './editor-params.ts';
import { type MediaParseResult, parsed, refused } from './media-input-error.ts';

export const EDITOR_FIELD = {
  token: 'token',
  cru: 'cru',
  cartReturnUrl: 'cartReturnUrl',
  monitoredTag: 'monitoredTag',
  sizeWidth: 'size.width',
  sizeHeight: 'size.height',
} as const;

export const textFieldName = (field: string): string => `text.${field}`;
export const tagFieldName = (tag: string): string => `tag.${tag}`;

/** True when a route's own hidden field name would collide with a field of the editor form. */
export function isEditorFieldName(name: string): boolean {
  return (
    (Object.values(EDITOR_FIELD) as string[]).includes(name) ||
    name.startsWith('text.') ||
    name.startsWith('tag.') ||
    name.startsWith('size.')
  );
}

/** The longest text a text field takes. */
export const MAX_TEXT_LENGTH = 500;
/** The largest custom side in inches, as the `s` parameter's three integer digits allow. */
export const MAX_CUSTOM_SIDE_IN = 999.99;

/** Posted form fields; `FormData` and `URLSearchParams` both fit. */
export interface PostedFields {
  getAll(name: string): unknown[];
}

export interface EditorSave {
  readonly token: string;
  /** Where to send the shopper: the `window.cartReturnUrl` the page script posted, else `cru`; absent if neither. */
  readonly returnUrl?: string;
  /** The design with the posted text, tags and size. */
  readonly design: MediaDesign;
  /** The monitored tags with their saved values, for `buildReturnUrl`. */
  readonly returnTags: Readonly<Record<string, string>>;
}

/**
 * Validates a posted editor form against the product and the design the page showed.
 *
 * @example
 * const save = parseEditorSaveForm(await c.req.formData(), product, design);
 * if (!save.ok) return c.html(renderEditorPage({ ...pageInput, errorMessage: save.error.message }), 400);
 * const url = save.value.returnUrl && buildReturnUrl(save.value.returnUrl, newId, save.value.returnTags);
 */
export function parseEditorSaveForm(
  form: PostedFields,
  product: MediaProduct,
  design: MediaDesign,
): MediaParseResult<EditorSave> {
  const last = (name: string): string | undefined => {
    const values = form.getAll(name).filter((value): value is string => typeof value === 'string');
    return values[values.length - 1];
  };

  const token = last(EDITOR_FIELD.token);
  if (token === undefined || token === '')
    return refused('missing_parameter', EDITOR_FIELD.token, 'token is required');

  let returnUrl: string | undefined;
  for (const name of [EDITOR_FIELD.cartReturnUrl, EDITOR_FIELD.cru]) {
    const url = last(name);
    if (url === undefined || url === '') continue;
    if (!isWebUrl(url)) return refused('invalid_url', name, `${name} must be an absolute http or https URL`);
    returnUrl ??= url;
  }

  const textFields: MediaTextField[] = [];
  for (const field of design.textFields) {
    const name = textFieldName(field.name);
    const value = last(name);
    if (value === undefined)
      return refused('missing_parameter', name, `${field.name} is missing from the form`);
    if (value.length > MAX_TEXT_LENGTH) {
      return refused('invalid_text', name, `${field.name} must be at most ${MAX_TEXT_LENGTH} characters`);
    }
    textFields.push({ name: field.name, value });
  }

  const tags: Record<string, string> = { ...design.tags };
  for (const tag of product.imageTags) {
    const name = tagFieldName(tag.name);
    const value = last(name);
    if (value === undefined)
      return refused('missing_parameter', name, `${tag.name} is missing from the form`);
    const setting = readEditorTagValue(tag, value, name, product.palette);
    if (!setting.ok) return setting;
    tags[tag.name] = setting.value.value;
  }

  const returnTags: Record<string, string> = {};
  for (const monitored of form.getAll(EDITOR_FIELD.monitoredTag)) {
    const tag = product.imageTags.find((candidate) => candidate.name === monitored);
    if (tag === undefined) {
      return refused(
        'invalid_choice',
        EDITOR_FIELD.monitoredTag,
        `${String(monitored)} is not an image item tag of the product`,
      );
    }
    returnTags[tag.name] = tags[tag.name]!;
  }

  let size: EditorSize = { widthIn: design.widthIn, heightIn: design.heightIn };
  if (product.customSize) {
    const widthIn = readInches(last(EDITOR_FIELD.sizeWidth));
    if (widthIn === undefined) return refused('invalid_size', EDITOR_FIELD.sizeWidth, sizeMessage('Width'));
    const heightIn = readInches(last(EDITOR_FIELD.sizeHeight));
    if (heightIn === undefined)
      return refused('invalid_size', EDITOR_FIELD.sizeHeight, sizeMessage('Height'));
    size = { widthIn, heightIn };
  }

  return parsed({
    token,
    ...(returnUrl === undefined ? {} : { returnUrl }),
    design: { ...design, widthIn: size.widthIn, heightIn: size.heightIn, textFields, tags },
    returnTags,
  });
}

/** Inches as a number input posts them: up to three integer digits and two decimals, above zero. */
function readInches(text: string | undefined): number | undefined {
  if (text === undefined || !/^[0-9]{1,3}(\.[0-9]{1,2})?$/.test(text)) return undefined;
  const value = Number(text);
  return value > 0 ? value : undefined;
}

function sizeMessage(side: string): string {
  return `${side} must be a number of inches from 0.01 to ${MAX_CUSTOM_SIDE_IN} with at most two decimals`;
}
