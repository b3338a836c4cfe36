/**
 * A buyer's catalog for its procurement system's search (Level-2 punch-out): the products of the buyer's
 * storefront as CatalogExportItems, written as a CIF 3.0 file or a cXML Index. `punchgate catalog` and the
 * console's buyer page both come here, so the two give the same file.
 *
 * Plain functions of the config (and of the items a caller adds), not of a running gateway: the command
 * exports without serving.
 *
 * Decisions:
 * - An item's SupplierPartID is the product's SKU, which a setup request's SelectedItem names to open that
 *   product (sessions.ts resolves it as any part number a requisition carries).
 * - Its price is the unit price at the product's minimum quantity, the least a buyer can order (a tier
 *   below the minimum can never apply), of `priceUnit` units.
 * - Its thumbnail is the gateway's thumbnail link of the product's template, which needs no credential.
 * - The punch-out URL is where the buyer punches out: `/cxml`, or the buyer's OCI punch-in URL.
 */
import { buildCatalogIndex, type IndexPunchoutItem } from '../../cxml/index.ts';
import type { ResolvedBuyer, ResolvedConfig, ResolvedStorefront } from '../deps.ts';
import { DEFAULT_UNSPSC } from '../cxml/transfer.ts';
import type { CatalogEntry } from '../punchout/catalog.ts';
import { priceText } from '../punchout/catalog.ts';
import { thumbnailUrl } from '../punchout/thumbnail-links.ts';
import type { CatalogExportItem } from './catalog-item.ts';
import { buildCifCatalog } from './cif.ts';
import { CatalogExportError } from './export-error.ts';

export type CatalogFormat = 'cif' | 'cxml';

export const CATALOG_FORMATS: readonly CatalogFormat[] = ['cif', 'cxml'];

/** A written catalog: its text and how to offer it as a file. */
export interface CatalogFile {
  readonly fileName: string;
  readonly contentType: string;
  readonly text: string;
}

export interface CatalogExportOptions {
  /** The file's timestamp (CIF `TIMESTAMP`). */
  readonly now: Date;
  /**
   * Items of the buyer beyond its storefront's products, appended after them (the buyer's reorderable
   * designs, read from the store by the caller).
   */
  readonly moreItems?: readonly CatalogExportItem[];
}

/**
 * A product's short descriptions by language: its own name, in the storefront's language, and each
 * translation the config gives (`products[].translations`), so a buyer's system shows its users theirs.
 * The buyer's own language comes first where the product has it: it is the item's default (and CIF's one).
 */
export function productDescriptions(
  product: Pick<CatalogEntry, 'name' | 'translations'>,
  storefront: Pick<ResolvedStorefront, 'language'>,
  buyerLanguage: string,
): Readonly<Record<string, string>> {
  const all = new Map<string, string>([[storefront.language, product.name]]);
  for (const [language, text] of Object.entries(product.translations ?? {})) all.set(language, text.name);
  const first = all.has(buyerLanguage) ? buyerLanguage : storefront.language;
  return Object.fromEntries([
    [first, all.get(first) ?? product.name],
    ...[...all].filter(([l]) => l !== first),
  ]);
}

function buyerOf(config: ResolvedConfig, buyerId: string): ResolvedBuyer {
  const buyer = config.buyers.find((b) => b.id === buyerId);
  if (buyer === undefined) {
    const known = config.buyers.map((b) => b.id).join(', ');
    throw new CatalogExportError(
      'unknown_buyer',
      `no buyer "${buyerId}" is configured (the config has ${known})`,
    );
  }
  return buyer;
}

function storefrontOf(config: ResolvedConfig, buyer: ResolvedBuyer): ResolvedStorefront {
  const storefront = config.storefronts.find((s) => s.id === buyer.storefront);
  // The config check refuses a buyer of an unknown storefront; a config built elsewhere may not have run it.
  if (storefront === undefined) {
    throw new CatalogExportError(
      'unknown_buyer',
      `buyer ${buyer.id} names storefront "${buyer.storefront}", which is not configured`,
    );
  }
  return storefront;
}

/** The products of the buyer's storefront as catalog items, in the config's order. */
export async function buyerCatalogItems(
  config: ResolvedConfig,
  buyerId: string,
): Promise<CatalogExportItem[]> {
  const buyer = buyerOf(config, buyerId);
  const storefront = storefrontOf(config, buyer);
  return Promise.all(
    storefront.products.map(async (product) => ({
      supplierPartId: product.sku,
      descriptions: productDescriptions(product, storefront, buyer.language),
      ...(product.unspsc !== undefined && { unspsc: product.unspsc }),
      unitOfMeasure: product.uom,
      price: {
        amount: priceText(product, product.minQuantity, storefront.currency),
        currency: storefront.currency,
        ...(product.priceUnit !== 1 && { basisQuantity: product.priceUnit }),
      },
      ...(product.leadTimeDays !== undefined && { leadTimeDays: product.leadTimeDays }),
      thumbnailUrl: await thumbnailUrl(config, storefront.id, product.productId),
    })),
  );
}

/** Where the buyer's system opens a punch-out for an item. */
function punchoutUrlOf(config: ResolvedConfig, buyer: ResolvedBuyer): string {
  const base = config.publicUrl.replace(/\/+$/, '');
  return buyer.protocol === 'oci' ? `${base}/oci/${encodeURIComponent(buyer.id)}` : `${base}/cxml`;
}

function indexItem(item: CatalogExportItem): IndexPunchoutItem {
  return {
    supplierPartID: item.supplierPartId,
    descriptions: item.descriptions,
    // A cXML catalog item needs a classification; CIF, stricter, refuses the item without its own code.
    classifications: [{ domain: 'UNSPSC', code: item.unspsc ?? DEFAULT_UNSPSC }],
    unitOfMeasure: item.unitOfMeasure,
    ...(item.price !== undefined && {
      unitPrice: { value: item.price.amount, currency: item.price.currency },
      ...(item.price.basisQuantity !== undefined && { priceBasisQuantity: item.price.basisQuantity }),
    }),
    ...(item.leadTimeDays !== undefined && { leadTimeDays: item.leadTimeDays }),
    ...(item.thumbnailUrl !== undefined && { thumbnailUrl: item.thumbnailUrl }),
  };
}

/**
 * The buyer's catalog in `format`, or a CatalogExportError naming the buyer (unknown, nothing to export)
 * or the item and the field a format requires.
 *
 * @example
 * const file = await exportBuyerCatalog(config, 'acme', 'cxml', { now: new Date() });
 * // { fileName: 'acme-catalog.xml', contentType: 'application/xml; charset=utf-8', text: '<?xml …' }
 */
export async function exportBuyerCatalog(
  config: ResolvedConfig,
  buyerId: string,
  format: CatalogFormat,
  options: CatalogExportOptions,
): Promise<CatalogFile> {
  const buyer = buyerOf(config, buyerId);
  const storefront = storefrontOf(config, buyer);
  const items = [...(await buyerCatalogItems(config, buyer.id)), ...(options.moreItems ?? [])];
  if (items.length === 0) {
    throw new CatalogExportError(
      'empty_catalog',
      `buyer ${buyer.id} has no products to export (storefront ${storefront.id} lists none)`,
    );
  }
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.supplierPartId)) {
      throw new CatalogExportError(
        'duplicate_part',
        `two items of buyer ${buyer.id} have the part number ${item.supplierPartId}; a catalog needs each once`,
      );
    }
    seen.add(item.supplierPartId);
  }
  const supplier = config.supplier.credentials[0] as { domain: string; identity: string };
  const punchoutUrl = punchoutUrlOf(config, buyer);
  if (format === 'cif') {
    let text: string;
    try {
      text = buildCifCatalog({
        supplierId: supplier,
        currency: storefront.currency,
        punchoutUrl,
        timestamp: options.now,
        items,
      });
    } catch (error) {
      if (!(error instanceof CatalogExportError)) throw error;
      throw new CatalogExportError(error.code, `buyer ${buyer.id}: ${error.message}`);
    }
    return { fileName: `${buyer.id}-catalog.cif`, contentType: 'text/plain; charset=utf-8', text };
  }
  return {
    fileName: `${buyer.id}-catalog.xml`,
    contentType: 'application/xml; charset=utf-8',
    text: buildCatalogIndex({
      supplierIds: config.supplier.credentials,
      punchoutUrl,
      items: items.map(indexItem),
    }),
  };
}
