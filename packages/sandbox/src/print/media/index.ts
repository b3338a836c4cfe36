/**
 * The sandbox print service's media: real files for the download, rendering and editor-host routes.
 * Pure JS (fflate, pdf-lib), deterministic (times come in as arguments), runs on Node and Workers.
 * README.md beside this file maps each route to its functions.
 */

export type { MediaDesign, MediaProduct, MediaRendering } from './design.ts';
export { designFromProduct } from './design.ts';
export { parseEditorSaveForm } from './editor-form.ts';
export type { EditorPageInput } from './editor-page.ts';
export {
  cspSourceHash,
  EDITOR_PAGE_SCRIPT,
  EDITOR_PAGE_STYLE,
  renderEditorPage,
  renderEditorRedirect,
  renderEditorSavedPage,
} from './editor-page.ts';
export type { EditorProductRef } from './editor-params.ts';
export { buildReturnUrl, parseEditorQuery } from './editor-params.ts';
export type { MediaInputErrorCode } from './media-input-error.ts';
export {
  buildItemAssetsZip,
  buildItemZip,
  buildOrderZip,
  itemAssetsZipFileName,
  itemZipFileName,
  orderZipFileName,
} from './order-files.ts';
export { renderPrintPdf, renderProofPdf } from './pdf.ts';
export { renderRenderingPng, renderThumbnailPng, thumbnailGeometry } from './png.ts';
export type { ThumbnailOptions } from './thumbnail-params.ts';
export { parseThumbnailParams } from './thumbnail-params.ts';
export { buildZip } from './zip.ts';
