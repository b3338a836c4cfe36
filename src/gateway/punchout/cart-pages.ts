/**
 * The cart and hand-back pages of a session, as the pure renderers in pages.ts draw them: prices from the
 * catalog and cart, thumbnails from the editor host, proofs through the gateway's proof links, every other
 * link a session page URL. The catalog page is catalog-page.ts.
 */
import type { Context } from 'hono';
import type { CartLine } from '../../store/types.ts';
import type { GatewayContext, SessionParties } from '../context.ts';
import { sendPage } from '../http/send-page.ts';
import {
  findProductBySku,
  isCatalogLine,
  priceBreaksText,
  quantityBounds,
  quantityProblem,
} from './catalog.ts';
import { keptLinesTotal, liveKeptLines } from './kept-lines.ts';
import { type ReturnForm, renderCartPage, renderReturnFormPage } from './pages.ts';
import { formatPrice, formatTotal, lineTotal, pricedUnitText } from './pricing.ts';
import { proofLinksFor } from './proof-links.ts';
import { type SessionScope, sessionPageSecurity, sessionPageUrl } from './session-scope.ts';

/** A quantity update the cart refused: shown next to its line, with what the user typed kept in the input. */
export interface RefusedQuantity {
  lineRef: string;
  typed: string;
  problem: string;
}

const TRANSFER_BLOCKED =
  'This cart cannot be transferred until the marked quantities are changed. You can still cancel and return.';

/**
 * Why a stored line's quantity cannot be ordered: an edit brings back the requisition's quantity as it
 * is, so the user sees it and fixes it here instead of the gateway changing it silently.
 */
function storedQuantityProblem(s: SessionScope, line: CartLine): string | undefined {
  const product = findProductBySku(s.storefront, line.sku);
  return product && quantityProblem(product, line.quantity);
}

/**
 * Why the cart cannot be transferred as it is, or undefined when it can. An inspect is never held back:
 * nothing in it can be changed, and it hands back what the requisition already holds.
 */
export function transferBlockedReason(s: SessionScope, lines: readonly CartLine[]): string | undefined {
  if (s.session.operation === 'inspect') return undefined;
  return lines.some((line) => storedQuantityProblem(s, line) !== undefined) ? TRANSFER_BLOCKED : undefined;
}

const CONFIRM_EMPTY =
  'Send an empty cart: every line of the requisition will be removed in your procurement system.';

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
    transferBlocked: transferBlockedReason(s, lines),
    ...(emptyTransferNeedsConfirm(s, lines) && { confirmEmpty: CONFIRM_EMPTY }),
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
      unitPrice: line.unitPrice && `${line.unitPrice.value} ${line.unitPrice.currency}`,
      uom: line.unitOfMeasure,
      removeAction: readOnly ? undefined : link(`kept/${index}/remove`),
    })),
    lines: lines.map((line) => {
      const product = findProductBySku(s.storefront, line.sku);
      const refusal = refused?.lineRef === line.lineRef ? refused : undefined;
      return {
        lineRef: line.lineRef,
        name: line.name,
        sku: line.sku,
        designId: line.designId,
        quantity: line.quantity,
        quantityInput: refusal?.typed ?? String(line.quantity),
        bounds: product && quantityBounds(product),
        priceBreaks: product && priceBreaksText(product, line.currency),
        quantityProblem: refusal?.problem ?? (readOnly ? undefined : storedQuantityProblem(s, line)),
        unitPrice: formatPrice(line.unitPrice, line.currency),
        total: formatTotal([lineTotal(line, line.currency)], line.currency),
        uom: pricedUnitText(line.priceUnit, line.uom),
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
  const page = renderReturnFormPage({ title: parties.storefront.name ?? 'Print catalog', message, form });
  // No form-action directive: buyer systems redirect after receiving the cart, and browsers apply
  // form-action to those redirects too.
  return sendPage(c, page, sessionPageSecurity(parties, { formActions: 'any' }));
}
