/**
 * The buyer's catalog for Level-2 punch-out as a download on the console's buyer page:
 * `GET /admin/ui/buyers/<buyer>/catalog.cif` (CIF 3.0) and `…/catalog.xml` (cXML Index), the same files
 * `punchgate catalog` writes (catalog-export/buyer-catalog.ts). A catalog that cannot be written is the
 * console's error page with the reason: the buyer, or the product and the field.
 */
import type { Hono } from 'hono';
import {
  type CatalogFile,
  type CatalogFormat,
  exportBuyerCatalog,
} from '../../catalog-export/buyer-catalog.ts';
import { CatalogExportError } from '../../catalog-export/export-error.ts';
import type { GatewayContext } from '../../context.ts';
import type { ResolvedBuyer } from '../../deps.ts';
import { GatewayError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { reorderExportItems } from '../../reorders/export-items.ts';
import type { ConsoleEnv } from './session.ts';

const FILES: Readonly<Record<string, CatalogFormat>> = { 'catalog.cif': 'cif', 'catalog.xml': 'cxml' };

function catalogPath(buyer: ResolvedBuyer, file: keyof typeof FILES): string {
  return `/admin/ui/buyers/${encodeURIComponent(buyer.id)}/${file}`;
}

/** The two download links of a buyer's section. */
export function catalogExportLinks(buyer: ResolvedBuyer): SafeHtml {
  return html`<p class="exports">Catalog for the buyer's search (Level-2 punch-out): <a href="${catalogPath(buyer, 'catalog.cif')}" download>CIF 3.0</a> · <a href="${catalogPath(buyer, 'catalog.xml')}" download>cXML Index</a></p>`;
}

export function mountCatalogExportRoutes(app: Hono<ConsoleEnv>, ctx: GatewayContext): void {
  for (const [file, format] of Object.entries(FILES)) {
    app.get(`/ui/buyers/:buyer/${file}`, async (c) => {
      let catalog: CatalogFile;
      // The storefront's products, then the buyer's reorder items read from the store.
      const buyerId = c.req.param('buyer');
      try {
        catalog = await exportBuyerCatalog(ctx.config, buyerId, format, {
          now: ctx.clock.now(),
          moreItems: await reorderExportItems(ctx.store, ctx.config, buyerId),
        });
      } catch (error) {
        if (!(error instanceof CatalogExportError)) throw error;
        const message = `The catalog cannot be exported: ${error.message}.`;
        throw new GatewayError(error.code === 'unknown_buyer' ? 'not_found' : 'conflict', message, {
          cause: error,
        });
      }
      return c.body(catalog.text, 200, {
        'Content-Type': catalog.contentType,
        'Content-Disposition': `attachment; filename="${catalog.fileName}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    });
  }
}
