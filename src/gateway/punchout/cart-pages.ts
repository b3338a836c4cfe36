/**
 * The cart and hand-back pages of a session, as the pure renderers in pages.ts draw them: prices from the
 * catalog and cart, thumbnails from the editor host, proofs through the gateway's proof links, every other
 * link a session page URL. The catalog page is catalog-page.ts.
 */
import type { Context } from 'hono';
import type { CartLine } from '../../store/types.ts';
import type { GatewayContext, SessionParties } from '../context.ts';
import { sendPage } from '../http/send-page.ts';
import { findProductBySku, isCatalogLine, priceBreaks, quantityBounds, quantityProblem } from './catalog.ts';
import { keptLinesTotal, liveKeptLines } from './kept-lines.ts';
import { type ReturnForm, renderCartPage, renderReturnFormPage } from './pages.ts';
import { formatPrice, formatTotal, lineTotal, pricedUnitText } from './pricing.ts';
import { lineText } from './product-text.ts';
import { proofLinksFor } from './proof-links.ts';
import { type SessionScope, sessionPageSecurity, sessionPageUrl } from './session-scope.ts';

/** A quantity update the cart refused: shown next to its line, with what the user typed kept in the input. */
export interface RefusedQuantity {
  lineRef: string;
  typed: string;
  problem: string;
}

/**
 * Why a stored line's quantity cannot be ordered: an edit brings back the requisition's quantity as it
 * is, so the user sees it and fixes it here instead of the gateway changing it silently.
 */
function storedQuantityProblem(s: SessionScope, line: CartLine): string | undefined {
  const product = findProductBySku(s.storefront, line.sku);
  return product && quantityProblem(product, line.quantity, s.locale);
}

/**
 * Why the cart cannot be transferred as it is, or undefined when it can. An inspect is never held back:
 * nothing in it can be changed, and it hands back what the requisition already holds.
 */
export function transferBlockedReason(s: SessionScope, lines: readonly CartLine[]): string | undefined {
  if (s.session.operation === 'inspect') return undefined;
  return lines.some((line) => storedQuantityProblem(s, line) !== undefined)
    ? s.locale.t('cart.transferBlocked')
    : undefined;
}

/**
 * Whether transferring this cart needs the user's explicit yes: an edit that hands back no line at all
 * makes the buyer's system delete every line of the requisition, so it is never the result of one click.
 */
export function emptyTransferNeedsConfirm(s: SessionScope, lines: readonly CartLine[]): boolean {
  return s.session.operation === 'edit' && lines.length === 0 && liveKeptLines(s.session).length === 0;
}

/**
 * The cart. Its proof links are gateway proof links like those of the cart handed back (the page sits in
 * the buyer's frame and browser history), never the editor host's URL with the session's PIPO token.
 */
export async function cartPage(
  ctx: GatewayContext,
  s: SessionScope,
  lines: readonly CartLine[],
  notice: string | undefined,
  refused?: RefusedQuantity,
): Promise<string> {
  const readOnly = s.session.operation === 'inspect';
  const proofUrl = await proofLinksFor(ctx, lines);
  const urls = ctx.editorUrlsFor(s.storefront);
  const link = (rest: string) => sessionPageUrl(ctx, s.token, rest);
  const kept = liveKeptLines(s.session);
  const { locale } = s;
  return renderCartPage({
    locale,
    title: s.storefront.name ?? locale.t('page.catalogTitle'),
    buyerName: s.buyer.name ?? s.buyer.id,
    currency: s.storefront.currency,
    readOnly,
    notice,
    catalogUrl: link('catalog'),
    transferAction: link('transfer'),
    transferLabel: locale.t(readOnly ? 'cart.return' : 'cart.transfer'),
    cancelAction: readOnly ? undefined : link('cancel'),
    transferBlocked: transferBlockedReason(s, lines),
    ...(emptyTransferNeedsConfirm(s, lines) && { confirmEmpty: locale.t('cart.confirmEmpty') }),
    total: formatTotal(
      [
        ...lines.map((l) => lineTotal(l, l.currency)),
        keptLinesTotal(
          kept.map(({ line }) => line),
          s.storefront.currency,
        ),
      ],
      s.storefront.currency,
    ),
    keptLines: kept.map(({ index, line }) => ({
      supplierPartID: line.supplierPartID,
      supplierPartAuxiliaryID: line.supplierPartAuxiliaryID,
      description: line.description || line.supplierPartID,
      quantity: line.quantity,
      unitPrice: line.unitPrice && locale.money(line.unitPrice.value, line.unitPrice.currency),
      uom: line.unitOfMeasure,
      removeAction: readOnly ? undefined : link(`kept/${index}/remove`),
    })),
    lines: lines.map((line) => {
      const product = findProductBySku(s.storefront, line.sku);
      const refusal = refused?.lineRef === line.lineRef ? refused : undefined;
      return {
        lineRef: line.lineRef,
        name: lineText(line, product, s.storefront, locale).name,
        sku: line.sku,
        designId: line.designId,
        quantity: line.quantity,
        quantityInput: refusal?.typed ?? String(line.quantity),
        bounds: product && quantityBounds(product),
        priceBreaks: product && priceBreaks(product, line.currency),
        quantityProblem: refusal?.problem ?? (readOnly ? undefined : storedQuantityProblem(s, line)),
        unitPrice: formatPrice(line.unitPrice, line.currency),
        total: formatTotal([lineTotal(line, line.currency)], line.currency),
        uom: pricedUnitText(line.priceUnit, line.uom, locale.language),
        thumbnailUrl: urls.thumbnailUrl({ productId: line.designId, width: 80, height: 56 }),
        proofUrl: proofUrl(line),
        editUrl:
          line.userRef === s.session.pipoUserRef && !isCatalogLine(s.storefront, line)
            ? link(`cart/${line.lineRef}/edit`)
            : undefined,
        quantityAction: link(`cart/${line.lineRef}/quantity`),
        removeAction: link(`cart/${line.lineRef}/remove`),
      };
    }),
  });
}

/** The hand-back page every protocol without an encoding of its own uses: UTF-8, the form submits itself. */
export function sendReturnFormPage(
  c: Context,
  parties: SessionParties,
  form: ReturnForm,
  message: string,
): Promise<Response> {
  const { locale } = parties;
  const page = renderReturnFormPage({
    locale,
    title: parties.storefront.name ?? locale.t('page.catalogTitle'),
    message,
    form,
  });
  // No form-action directive: buyer systems redirect after receiving the cart, and browsers apply
  // form-action to those redirects too.
  return sendPage(c, page, sessionPageSecurity(parties, { formActions: 'any' }));
}
