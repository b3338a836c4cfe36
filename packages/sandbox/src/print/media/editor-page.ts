/**
 * The pages of `{editor_url}/online-editor`: the design form, the redirect to the cart return URL after a
 * save, and the confirmation shown when there is nowhere to return to.
 *
 * The pages need no cookies and load nothing from elsewhere, so they work inside a procurement system's
 * iframe. Every value is HTML-escaped. The only script is `EDITOR_PAGE_SCRIPT` and the only style sheet is
 * `EDITOR_PAGE_STYLE`, both constant: pass `cspNonce`, or allow their `cspSourceHash` values.
 *
 * `window.cartReturnUrl`: the interface lets page script set the cart return URL by assigning
 * `window.cartReturnUrl`. On submit, the page script copies a non-empty string found there (or, when the
 * editor is framed by a same-origin page, in the parent's `window.cartReturnUrl`) into the hidden
 * `cartReturnUrl` field; `parseEditorSaveForm` prefers it over `cru`.
 */

import { escapeHtml } from 'punchgate/kernel';
import { colorForImageId, formatHexColor } from './colors.ts';
import type { MediaDesign, MediaImageTag, MediaProduct } from './design.ts';
import {
  EDITOR_FIELD,
  isEditorFieldName,
  MAX_CUSTOM_SIDE_IN,
  MAX_TEXT_LENGTH,
  tagFieldName,
  textFieldName,
} from './editor-form.ts';
import { type EditorSize, isWebUrl } from './editor-params.ts';
import { previewImageId, previewTextId, renderPreviewSvg } from './preview-svg.ts';
import { layoutScene } from './scene.ts';

/**
 * The page's whole script: live preview updates and the `window.cartReturnUrl` hand-over. It reads
 * everything from the DOM, so it never changes and one CSP hash covers it.
 */
export const EDITOR_PAGE_SCRIPT = `(() => {
  const form = document.getElementById('design-form');
  if (!form) return;
  const show = (control) => {
    const target = control.dataset && control.dataset.preview ? document.getElementById(control.dataset.preview) : null;
    if (!target) return;
    if (control.type === 'checkbox') {
      target.setAttribute('visibility', control.checked ? 'visible' : 'hidden');
    } else if (control.tagName === 'SELECT') {
      const option = control.selectedOptions[0];
      if (option && option.dataset.color) target.setAttribute('fill', option.dataset.color);
    } else {
      target.textContent = control.value;
    }
  };
  form.addEventListener('input', (event) => show(event.target));
  form.addEventListener('change', (event) => show(event.target));
  form.addEventListener('submit', () => {
    let url = window.cartReturnUrl;
    if ((typeof url !== 'string' || url === '') && window.parent !== window) {
      try { url = window.parent.cartReturnUrl; } catch (error) { url = undefined; }
    }
    const field = form.elements.namedItem('${EDITOR_FIELD.cartReturnUrl}');
    if (field && typeof url === 'string' && url !== '') field.value = url;
  });
})();`;

export const EDITOR_PAGE_STYLE = `
body { font: 16px/1.4 system-ui, sans-serif; margin: 0; color: #1f2937; background: #f3f4f6; }
main { display: grid; gap: 1.5rem; grid-template-columns: minmax(16rem, 26rem) 1fr; padding: 1.5rem; }
@media (max-width: 44rem) { main { grid-template-columns: 1fr; } }
h1 { grid-column: 1 / -1; font-size: 1.4rem; margin: 0; }
form { display: grid; gap: 1rem; }
fieldset { border: 1px solid #d1d5db; border-radius: 6px; padding: 0.75rem; display: grid; gap: 0.6rem; background: #fff; }
legend { font-weight: 600; padding: 0 0.3rem; }
label { display: grid; gap: 0.2rem; }
label.check { display: flex; gap: 0.5rem; align-items: center; }
input[type=text], input[type=number], select { font: inherit; padding: 0.35rem 0.5rem; border: 1px solid #9ca3af; border-radius: 4px; }
.help { font-size: 0.85rem; color: #4b5563; margin: 0; }
.error { border: 1px solid #b91c1c; background: #fef2f2; color: #7f1d1d; padding: 0.6rem; border-radius: 6px; margin: 0; }
button { font: inherit; font-weight: 600; padding: 0.6rem 1rem; border: 0; border-radius: 6px; background: #1d4ed8; color: #fff; cursor: pointer; justify-self: start; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.preview { width: 100%; max-width: 40rem; height: auto; box-shadow: 0 2px 10px rgba(0, 0, 0, 0.2); background: #fff; }
`;

export { cspSourceHash } from 'punchgate/web/csp-hash';

export interface EditorPageInput {
  readonly product: MediaProduct;
  /** The values the form starts with: the template's defaults or a saved project. */
  readonly design: MediaDesign;
  readonly token: string;
  /** The validated `cru`, posted back in a hidden field. */
  readonly cru?: string;
  /** The validated `s`, which replaces the design's size. */
  readonly size?: EditorSize;
  /** Tag values from the query: they replace the design's, and these tags are passed back on return. */
  readonly tags: Readonly<Record<string, string>>;
  /** The form's POST URL, chosen by the route. */
  readonly saveAction: string;
  /** The route's own hidden fields (session reference, signature…); names must not collide with the form's. */
  readonly hiddenState?: Readonly<Record<string, string>>;
  readonly cspNonce?: string;
  /** Shown above the form, e.g. after a refused save. */
  readonly errorMessage?: string;
}

/**
 * The online editor's design page.
 * Throws TypeError when a `hiddenState` name collides with a field of the form.
 *
 * @example
 * const q = parseEditorQuery(c.req.query(), findProduct);
 * if (q.ok) return c.html(renderEditorPage({ product: q.value.product, design: designFromProduct(q.value.product),
 *   token: q.value.token, cru: q.value.cru, size: q.value.size, tags: q.value.tags,
 *   saveAction: '/editor/online-editor/save', hiddenState: {}, cspNonce }));
 */
export function renderEditorPage(input: EditorPageInput): string {
  const { product } = input;
  const hiddenState = input.hiddenState ?? {};
  for (const name of Object.keys(hiddenState)) {
    if (isEditorFieldName(name))
      throw new TypeError(`hiddenState field ${name} collides with an editor form field`);
  }
  const shown: MediaDesign = {
    ...input.design,
    widthIn: input.size?.widthIn ?? input.design.widthIn,
    heightIn: input.size?.heightIn ?? input.design.heightIn,
    tags: { ...input.design.tags, ...input.tags },
  };
  const nonce = input.cspNonce === undefined ? '' : ` nonce="${escapeHtml(input.cspNonce)}"`;
  const sceneImages = layoutScene(shown).images;

  const hidden = [
    hiddenField(EDITOR_FIELD.token, input.token),
    ...(input.cru === undefined ? [] : [hiddenField(EDITOR_FIELD.cru, input.cru)]),
    hiddenField(EDITOR_FIELD.cartReturnUrl, ''),
    ...Object.keys(input.tags).map((tag) => hiddenField(EDITOR_FIELD.monitoredTag, tag)),
    ...Object.entries(hiddenState).map(([name, value]) => hiddenField(name, value)),
  ];

  const textInputs = shown.textFields.map(
    (field, index) =>
      `<label for="field-text-${index}">${escapeHtml(field.name)}` +
      `<input type="text" id="field-text-${index}" name="${escapeHtml(textFieldName(field.name))}" value="${escapeHtml(field.value)}" maxlength="${MAX_TEXT_LENGTH}" data-preview="${previewTextId(index)}"></label>`,
  );

  const tagControls = product.imageTags.map((tag, index) => {
    const value = shown.tags[tag.name] ?? tag.default;
    const imageIndex = sceneImages.findIndex((image) => image.tag === tag.name);
    const preview = imageIndex === -1 ? '' : ` data-preview="${previewImageId(imageIndex)}"`;
    return tagControl(tag, value, `field-tag-${index}`, preview, product.palette);
  });

  const sizeInputs = product.customSize
    ? [
        sizeInput(EDITOR_FIELD.sizeWidth, 'field-size-width', 'Width (inches)', shown.widthIn),
        sizeInput(EDITOR_FIELD.sizeHeight, 'field-size-height', 'Height (inches)', shown.heightIn),
      ]
    : [];

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Design ${escapeHtml(product.name)}</title>
<style${nonce}>${EDITOR_PAGE_STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(product.name)}</h1>
<form id="design-form" method="post" action="${escapeHtml(input.saveAction)}">
${input.errorMessage === undefined ? '' : `<p class="error" role="alert">${escapeHtml(input.errorMessage)}</p>\n`}${hidden.join('\n')}
${fieldset('Text', textInputs)}${fieldset('Images and colours', tagControls)}${fieldset('Size', sizeInputs)}<button type="submit">Save design</button>
</form>
<section aria-label="Preview">
${renderPreviewSvg(shown)}
</section>
</main>
<script${nonce}>${EDITOR_PAGE_SCRIPT}</script>
</body>
</html>
`;
}

function hiddenField(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

function fieldset(legend: string, controls: readonly string[]): string {
  return controls.length === 0
    ? ''
    : `<fieldset><legend>${legend}</legend>\n${controls.join('\n')}\n</fieldset>\n`;
}

function tagControl(
  tag: MediaImageTag,
  value: string,
  id: string,
  preview: string,
  palette: Readonly<Record<string, string>>,
): string {
  const name = escapeHtml(tagFieldName(tag.name));
  const label = escapeHtml(tag.name);
  switch (tag.kind) {
    case 'visibility': {
      const checked = value.toLowerCase() === 'true' ? ' checked' : '';
      // An unticked checkbox posts nothing, so a hidden false goes first and a ticked box overrides it.
      return (
        `<input type="hidden" name="${name}" value="false">` +
        `<label class="check" for="${id}"><input type="checkbox" id="${id}" name="${name}" value="true"${checked}${preview}> Show ${label}</label>`
      );
    }
    case 'image': {
      const ids = [value, tag.default, ...(tag.images ?? []).map(String)]
        .filter((candidate) => /^[0-9]{1,10}$/.test(candidate))
        .map(Number);
      const options = [...new Set(ids)]
        .sort((a, b) => a - b)
        .map(
          (imageId) =>
            `<option value="${imageId}" data-color="${formatHexColor(colorForImageId(imageId))}"${String(imageId) === value ? ' selected' : ''}>Image ${imageId}</option>`,
        );
      return `<label for="${id}">Image for ${label}<select id="${id}" name="${name}"${preview}>${options.join('')}</select></label>`;
    }
    case 'colors': {
      const names = Object.keys(palette);
      const paletteHelp = names.length === 0 ? '' : ` Palette: ${escapeHtml(names.join(', '))}.`;
      return (
        `<label for="${id}">Colour map for ${label}<input type="text" id="${id}" name="${name}" value="${escapeHtml(value)}" aria-describedby="${id}-help" spellcheck="false"></label>` +
        `<p class="help" id="${id}-help">Pairs from,to separated by semicolons; a colour is 6 hex digits or a palette name.${paletteHelp}</p>`
      );
    }
  }
}

function sizeInput(name: string, id: string, label: string, inches: number): string {
  return `<label for="${id}">${label}<input type="number" id="${id}" name="${name}" value="${inches.toFixed(2)}" min="0.01" max="${MAX_CUSTOM_SIDE_IN}" step="0.01" inputmode="decimal" required></label>`;
}

/**
 * The page that sends the shopper on to the cart return URL after a save: an immediate meta refresh (no
 * script, so any CSP allows it) and a link for when refreshes are blocked.
 * Throws TypeError unless `url` is an absolute http(s) URL.
 *
 * @example
 * return c.html(renderEditorRedirect(buildReturnUrl(save.returnUrl, project.id, save.returnTags)));
 */
export function renderEditorRedirect(url: string): string {
  if (!isWebUrl(url)) throw new TypeError(`redirect target must be an absolute http(s) URL: ${url}`);
  // Quotes inside the refresh URL would end it early; %27 means the same to the server.
  const target = escapeHtml(url.replace(/'/g, '%27'));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0; url='${target}'">
<title>Returning to your cart</title>
</head>
<body>
<p>Your design is saved. <a href="${target}">Return to your cart</a>.</p>
</body>
</html>
`;
}

/**
 * The page shown after a save when the editor has no cart return URL (neither `cru` nor
 * `window.cartReturnUrl`): it names the saved project.
 */
export function renderEditorSavedPage(input: {
  readonly productName: string;
  readonly projectId: number;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>Design saved</title>
</head>
<body>
<h1>Design saved</h1>
<p>${escapeHtml(input.productName)} is saved as project ${input.projectId}.</p>
</body>
</html>
`;
}
