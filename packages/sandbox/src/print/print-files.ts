/**
 * The sandbox's records as the media module's products and designs, and the files built from them: print
 * ZIPs of orders and items, asset ZIPs, renderings and proofs. Media stays ignorant of the sandbox's state.
 */
import {
  buildItemAssetsZip,
  buildItemZip,
  buildOrderZip,
  buildZip,
  designFromProduct,
  type MediaDesign,
  type MediaProduct,
  type MediaRendering,
  renderPrintPdf,
  renderProofPdf,
  renderRenderingPng,
} from './media/index.ts';
import type { SandboxService } from './service.ts';
import type { ItemRecord, OrderRecord, ProjectRecord, TemplateRecord } from './state.ts';

export function mediaProduct(template: TemplateRecord): MediaProduct {
  return {
    id: template.id,
    name: template.name,
    integrationId: template.integrationId,
    size: template.size,
    customSize: template.customSize,
    renderings: template.renderings,
    imageTags: template.imageTags.map((tag) =>
      tag.images === undefined
        ? { name: tag.name, kind: tag.kind, default: tag.default }
        : { name: tag.name, kind: tag.kind, default: tag.default, images: tag.images },
    ),
    palette: template.palette,
    textFields: template.textFields,
  };
}

/** The design of a template (its defaults) or of a saved project (on its template's palette). */
export function mediaDesign(template: TemplateRecord, project?: ProjectRecord): MediaDesign {
  if (project === undefined) return designFromProduct(mediaProduct(template));
  return {
    productId: project.id,
    name: project.name,
    widthIn: project.design.widthIn,
    heightIn: project.design.heightIn,
    textFields: project.design.textFields,
    tags: project.design.tags,
    colors: template.palette,
  };
}

/** A template or project id as the media layer draws it; undefined when neither exists. */
export function designOfProduct(
  service: SandboxService,
  productId: number,
): { template: TemplateRecord; project: ProjectRecord | undefined; design: MediaDesign } | undefined {
  const { templates, projects } = service.state;
  const template = templates.get(productId);
  if (template !== undefined) return { template, project: undefined, design: mediaDesign(template) };
  const project = projects.get(productId);
  const original = project === undefined ? undefined : templates.get(project.templateId);
  if (project === undefined || original === undefined) return undefined;
  return { template: original, project, design: mediaDesign(original, project) };
}

function itemArtwork(service: SandboxService, item: ItemRecord) {
  const { design } = designOfProduct(service, item.productId)!;
  return { itemId: item.id, quantity: item.quantity, design };
}

export function orderZip(service: SandboxService, order: OrderRecord): Promise<Uint8Array> {
  const artwork = order.items.map((item) => itemArtwork(service, item));
  return buildOrderZip(order.id, artwork, new Date(service.now()));
}

export function itemZip(service: SandboxService, order: OrderRecord, item: ItemRecord): Promise<Uint8Array> {
  return buildItemZip(order.id, itemArtwork(service, item), new Date(service.now()));
}

/**
 * The item's assets: the customer's uploaded files for an upload product (drawn as the print PDF they
 * stand for), or the high-resolution design images of an editor-designed product.
 */
export async function itemAssetsZip(
  service: SandboxService,
  order: OrderRecord,
  item: ItemRecord,
): Promise<Uint8Array> {
  const { template, design } = designOfProduct(service, item.productId)!;
  if (template.designKind === 'editor' || item.uploads.length === 0)
    return buildItemAssetsZip(item.id, design);
  const producedAt = new Date(service.now());
  const entries = [];
  for (const name of item.uploads) {
    const data = await renderPrintPdf(design, {
      orderId: order.id,
      itemId: item.id,
      quantity: item.quantity,
      producedAt,
    });
    entries.push({ name, data });
  }
  return buildZip(entries);
}

export function renderingPng(
  template: TemplateRecord,
  rendering: MediaRendering,
  project: ProjectRecord | undefined,
): Uint8Array {
  return renderRenderingPng(mediaProduct(template), rendering, mediaDesign(template, project));
}

export function proofPdf(service: SandboxService, design: MediaDesign): Promise<Uint8Array> {
  return renderProofPdf(design, { watermark: 'PROOF', producedAt: new Date(service.now()) });
}
