/**
 * The catalog, cart and hand-back pages of a session, as the pure renderers in pages.ts draw them: prices
 * from the catalog and cart, thumbnails and proofs from the editor host, every link a session page URL.
 */
import type { Context } from 'hono';
import type { CartLine } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { sendPage } from '../http/send-page.ts';
import { type ReturnForm, renderCartPage, renderCatalogPage, renderReturnFormPage } from './pages.ts';
import { formatAmount, lineTotal, sumAmounts } from './pricing.ts';
import type { SessionParties } from './protocol.ts';
import { type SessionScope, sessionPageSecurity, sessionPageUrl } from './session-scope.ts';

export function catalogPage(ctx: GatewayContext, s: SessionScope, cartCount: number): string {
  const urls = ctx.editorUrlsFor(s.storefront);
  const link = (rest: string) => sessionPageUrl(ctx, s.token, rest);
  return renderCatalogPage({
    title: s.storefront.name ?? 'Print catalog',
    buyerName: s.buyer.name ?? s.buyer.id,
    cartUrl: link('cart'),
    cartCount,
    products: s.storefront.products.map((p) => ({
      sku: p.sku,
      name: p.name,
      description: p.description,
      thumbnailUrl: urls.thumbnailUrl({ productId: p.productId, width: 200, height: 140 }),
      priceFrom: formatAmount(Math.min(...p.prices.map((t) => t.unitPrice))),
      currency: s.storefront.currency,
      uom: p.uom,
      designUrl: link(`design/${encodeURIComponent(p.sku)}`),
    })),
  });
}

export function cartPage(
  ctx: GatewayContext,
  s: SessionScope,
  lines: readonly CartLine[],
  notice: string | undefined,
): string {
  const readOnly = s.session.operation === 'inspect';
  const pipoToken = s.session.pipoToken?.token ?? '';
  const urls = ctx.editorUrlsFor(s.storefront);
  const link = (rest: string) => sessionPageUrl(ctx, s.token, rest);
  return renderCartPage({
    title: s.storefront.name ?? 'Print catalog',
    buyerName: s.buyer.name ?? s.buyer.id,
    currency: s.storefront.currency,
    readOnly,
    notice,
    catalogUrl: link('catalog'),
    transferAction: link('transfer'),
    transferLabel: readOnly ? 'Return to procurement system' : 'Transfer cart to procurement system',
    cancelAction: readOnly ? undefined : link('cancel'),
    total: formatAmount(sumAmounts(lines.map((l) => lineTotal(Number(l.unitPrice), l.quantity)))),
    lines: lines.map((line) => ({
      lineRef: line.lineRef,
      name: line.name,
      sku: line.sku,
      designId: line.designId,
      quantity: line.quantity,
      unitPrice: formatAmount(Number(line.unitPrice)),
      total: formatAmount(lineTotal(Number(line.unitPrice), line.quantity)),
      uom: line.uom,
      thumbnailUrl: urls.thumbnailUrl({ productId: line.designId, width: 80, height: 56 }),
      proofUrl: pipoToken ? urls.proofUrl({ token: pipoToken, productId: line.designId }) : undefined,
      editUrl: line.userRef === s.session.pipoUserRef ? link(`cart/${line.lineRef}/edit`) : undefined,
      quantityAction: link(`cart/${line.lineRef}/quantity`),
      removeAction: link(`cart/${line.lineRef}/remove`),
    })),
  });
}

/** The hand-back page every protocol without an encoding of its own uses: UTF-8, the form submits itself. */
export function sendReturnFormPage(
  c: Context,
  parties: SessionParties,
  form: ReturnForm,
  message: string,
): Promise<Response> {
  const page = renderReturnFormPage({ title: parties.storefront.name ?? 'Print catalog', message, form });
  // No form-action directive: buyer systems redirect after receiving the cart, and browsers apply
  // form-action to those redirects too.
  return sendPage(c, page, sessionPageSecurity(parties, { formActions: 'any' }));
}
