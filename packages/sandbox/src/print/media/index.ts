/**
 * The sandbox print service's media: real files for the download, rendering and editor-host routes.
 * Pure JS (fflate, pdf-lib), deterministic (times come in as arguments), runs on Node and Workers.
 * README.md beside this file maps each route to its functions.
 */

export type { ColorPair, Rgb } from './colors.ts';
export { parseColorMap } from './colors.ts';
export type { MediaDesign, MediaImageTag, MediaProduct, MediaRendering, MediaTextField } from './design.ts';
export { designFromProduct } from './design.ts';
export type { EditorSave, PostedFields } from './editor-form.ts';
export { EDITOR_FIELD, isEditorFieldName, parseEditorSaveForm } from './editor-form.ts';
export type { EditorPageInput } from './editor-page.ts';
export {
  cspSourceHash,
  EDITOR_PAGE_SCRIPT,
  EDITOR_PAGE_STYLE,
  renderEditorPage,
  renderEditorRedirect,
  renderEditorSavedPage,
} from './editor-page.ts';
export type { EditorProductRef, EditorQuery, EditorSize, EditorTagSetting } from './editor-params.ts';
export { buildReturnUrl, parseEditorQuery } from './editor-params.ts';
export type { MediaInputErrorCode, MediaParseResult } from './media-input-error.ts';
export { MediaInputError } from './media-input-error.ts';
export type { OrderItemArtwork } from './order-files.ts';
export {
  buildItemAssetsZip,
  buildItemZip,
  buildOrderZip,
  itemAssetsZipFileName,
  itemZipFileName,
  orderZipFileName,
  printFileName,
} from './order-files.ts';
export type { PrintPdfOptions, ProofPdfOptions } from './pdf.ts';
export { renderPrintPdf, renderProofPdf } from './pdf.ts';
export type { ThumbnailGeometry } from './png.ts';
export { renderDesignPng, renderRenderingPng, renderThumbnailPng, thumbnailGeometry } from './png.ts';
export type { ThumbnailOptions, ThumbnailParams } from './thumbnail-params.ts';
export { DEFAULT_THUMBNAIL_OPTIONS, parseThumbnailParams } from './thumbnail-params.ts';
export type { ZipEntry } from './zip.ts';
export { buildZip } from './zip.ts';
