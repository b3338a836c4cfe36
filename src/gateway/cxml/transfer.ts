/**
 * The cart going back to a cXML buyer: a PunchOutOrderMessage in a form field the user's browser posts
 * to the BrowserFormPost URL stored at punch-in. `cxml-base64` by default; `cxml-urlencoded` (the XML
 * as the HTML-escaped value, which the browser URL-encodes) for buyers configured so.
 *
 * Cancel follows the operation: an empty cart on create, Status 204 (no change) on edit and inspect,
 * because an empty cart on edit would make the buyer delete the requisition's lines.
 */
import type { Credential, CxmlHeader, OrderMessageLine } from '../../cxml/index.ts';
import { buildNoChangeOrderMessage, buildOrderMessage, newPayloadId } from '../../cxml/index.ts';
import { bytesToBase64 } from '../../kernel/base64.ts';
import { formatMoney } from '../../kernel/money.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext, SessionParties } from '../context.ts';
import type { ResolvedCxmlBuyer, ResolvedStorefront } from '../deps.ts';
import { type Locale, localeOf } from '../i18n/locale.ts';
import { FALLBACK_LANGUAGE } from '../i18n/session-language.ts';
import { findProductBySku } from '../punchout/catalog.ts';
import type { CartCharges } from '../punchout/cart-charges.ts';
import { type KeptLine, keptLinesTotal, liveKeptLines } from '../punchout/kept-lines.ts';
import { supplierPartIdOf } from '../punchout/line-identity.ts';
import type { ReturnForm } from '../punchout/pages.ts';
import { proofLinksFor } from '../punchout/proof-links.ts';
import { thumbnailLinksFor } from '../punchout/thumbnail-links.ts';
import { formatPrice, formatTotal, lineTotal, priceBasisQuantity } from '../punchout/pricing.ts';
import { lineText } from '../punchout/product-text.ts';

const ZERO = { units: 0n, scale: 0 };

/**
 * The document's `xml:lang`: the language of the gateway's own texts in it (product names, charge
 * descriptions), the storefront's; English keeps the builder's `en-US`, as carts have always said.
 */
function documentLang(storefront: ResolvedStorefront): string | undefined {
  return storefront.language === 'en' ? undefined : storefront.language;
}

/** UNSPSC 82121500 "Printing": the classification of a product the config gives none. */
export const DEFAULT_UNSPSC = '82121500';

function headerFor(ctx: GatewayContext, buyer: ResolvedCxmlBuyer, session: PunchoutSession): CxmlHeader {
  const supplier: Credential[] = ctx.config.supplier.credentials.map((c) => ({ ...c }));
  // A test cart goes back to the buyer's test account where it has one of its own.
  const testAccount = session.deploymentMode === 'test' && buyer.test.credentials.length > 0;
  return {
    from: supplier,
    to: (testAccount ? buyer.test.credentials : buyer.from).map((c) => ({ ...c })),
    sender: { credentials: supplier, userAgent: ctx.config.supplier.userAgent },
  };
}

/** Where a line's links go: its proof's and its design thumbnail's, each signed for the whole cart at once. */
interface LineLinks {
  proofUrl(line: CartLine): string;
  thumbnailUrl(line: CartLine): string;
}

/**
 * The cart's lines as ItemIn, named as the buyer's settings say (part numbers, units, thumbnails),
 * described in the session's language where the product has a translation, labelled with the language
 * actually sent.
 */
function orderMessageLines(
  storefront: ResolvedStorefront,
  buyer: Pick<ResolvedCxmlBuyer, 'unitMap' | 'supplierPartIds' | 'cartThumbnails'>,
  locale: Locale,
  lines: readonly CartLine[],
  links: LineLinks,
  charges: CartCharges,
): OrderMessageLine[] {
  return lines.map((line, index) => {
    const product = findProductBySku(storefront, line.sku);
    const proof = links.proofUrl(line);
    const thumbnail = buyer.cartThumbnails === 'off' ? undefined : links.thumbnailUrl(line);
    const unitOfMeasure = buyer.unitMap[line.uom] ?? line.uom;
    const priceBasis = priceBasisQuantity(line.priceUnit, unitOfMeasure);
    const lineTax = charges.tax?.lines[index];
    const text = lineText(line, product, storefront, locale);
    const item: OrderMessageLine = {
      quantity: line.quantity,
      lineNumber: index + 1,
      supplierPartID: supplierPartIdOf(buyer.supplierPartIds, line),
      supplierPartAuxiliaryID: line.lineRef,
      unitPrice: { value: formatPrice(line.unitPrice, line.currency), currency: line.currency },
      description: text.name,
      // The document's own language is the storefront's (documentLang): only a translation says otherwise.
      ...(text.language !== storefront.language && { descriptionLang: text.language }),
      unitOfMeasure,
      ...(priceBasis !== undefined && { priceBasis }),
      classifications: [{ domain: 'UNSPSC', code: line.unspsc ?? DEFAULT_UNSPSC }],
      url: buyer.cartThumbnails === 'url' && thumbnail !== undefined ? thumbnail : proof,
      extrinsics: [
        { name: 'designId', value: String(line.designId) },
        { name: 'proofUrl', value: proof },
        ...(buyer.cartThumbnails === 'extrinsic' && thumbnail !== undefined
          ? [{ name: 'thumbnailUrl', value: thumbnail }]
          : []),
      ],
      ...(line.leadTimeDays !== undefined && { leadTimeDays: line.leadTimeDays }),
      ...(product?.manufacturerPartId !== undefined && { manufacturerPartID: product.manufacturerPartId }),
      ...(lineTax !== undefined &&
        charges.tax !== undefined && {
          tax: { value: lineTax, currency: line.currency, description: charges.tax.description },
        }),
    };
    return item;
  });
}

/**
 * A line kept from the edit's setup request, handed back as the buyer sent it. Only where the buyer sent
 * nothing that the DTD requires (a price, a unit, a classification, a description) is a neutral value
 * filled in: a zero price in the storefront's currency, EA, the printing UNSPSC, the SupplierPartID.
 */
function keptMessageLine(line: KeptLine, lineNumber: number, currency: string): OrderMessageLine {
  const classifications = line.classifications.filter((c) => c.domain.trim() !== '' && c.code.trim() !== '');
  return {
    quantity: line.quantity,
    lineNumber,
    supplierPartID: line.supplierPartID,
    ...(line.supplierPartAuxiliaryID !== undefined && {
      supplierPartAuxiliaryID: line.supplierPartAuxiliaryID,
    }),
    unitPrice: line.unitPrice ?? { value: formatMoney(ZERO, currency), currency },
    description: line.description.trim() !== '' ? line.description : line.supplierPartID,
    ...(line.shortName !== undefined && { shortName: line.shortName }),
    unitOfMeasure: line.unitOfMeasure ?? 'EA',
    ...(line.priceBasis !== undefined && { priceBasis: line.priceBasis }),
    classifications:
      classifications.length > 0 ? classifications : [{ domain: 'UNSPSC', code: DEFAULT_UNSPSC }],
    ...(line.manufacturerPartID !== undefined && { manufacturerPartID: line.manufacturerPartID }),
    ...(line.manufacturerName !== undefined && { manufacturerName: line.manufacturerName }),
    extrinsics: line.extrinsics,
  };
}

/**
 * Bytes per `String.fromCharCode` call: few enough for any engine's argument limit, many enough that the
 * calls cost little. 8 KB measured fastest on Node 24 (a 680 KB message: 2.8 ms, one call per byte 18-32 ms;
 * 32 KB chunks 8.7 ms).
 */
/** The UTF-8 bytes of `text` in base64, as the `cxml-base64` form field carries the cart. */
export function utf8Base64(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text));
}

function formFor(buyer: ResolvedCxmlBuyer, session: PunchoutSession, xml: string): ReturnForm {
  const target = session.returnTarget ?? '_top';
  if (buyer.cartEncoding === 'urlencoded') {
    return { action: session.returnUrl, target, fields: [['cxml-urlencoded', xml]] };
  }
  return { action: session.returnUrl, target, fields: [['cxml-base64', utf8Base64(xml)]] };
}

/**
 * The PunchOutOrderMessage form of `lines`. Every URL in it ends up stored in the requisition, so a proof
 * is linked by a gateway proof link (`proofUrl`), never by the editor host's URL with a PIPO token, and a
 * design's picture by a gateway thumbnail link, never by the editor host's, whose design ids can be counted.
 */
function cartMessageForm(
  ctx: GatewayContext,
  buyer: ResolvedCxmlBuyer,
  storefront: ResolvedStorefront,
  locale: Locale,
  session: PunchoutSession,
  lines: readonly CartLine[],
  links: LineLinks,
  charges: CartCharges,
): ReturnForm {
  const now = ctx.clock.now();
  const kept = liveKeptLines(session).map(({ line }) => line);
  const charge = (quoted: { amount: string; description: string } | undefined) =>
    quoted === undefined
      ? undefined
      : { value: quoted.amount, currency: storefront.currency, description: quoted.description };
  const shipping = charge(charges.shipping);
  const tax = charge(charges.tax);
  const items = [
    ...orderMessageLines(storefront, buyer, locale, lines, links, charges),
    ...kept.map((line, index) => keptMessageLine(line, lines.length + index + 1, storefront.currency)),
  ];
  const lang = documentLang(storefront);
  const xml = buildOrderMessage({
    payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
    timestamp: now,
    ...(lang !== undefined && { lang }),
    header: headerFor(ctx, buyer, session),
    deploymentMode: session.deploymentMode,
    buyerCookie: session.buyerCookie ?? '',
    operationAllowed: session.operation === 'inspect' ? 'inspect' : 'edit',
    total: {
      value: formatTotal(
        [...lines.map((l) => lineTotal(l, l.currency)), keptLinesTotal(kept, storefront.currency)],
        storefront.currency,
      ),
      currency: storefront.currency,
    },
    ...(shipping !== undefined && { shipping }),
    ...(tax !== undefined && { tax }),
    items,
    asciiOnly: buyer.cartEncoding === 'urlencoded',
  });
  return formFor(buyer, session, xml);
}

export async function cxmlCartForm(
  ctx: GatewayContext,
  buyer: ResolvedCxmlBuyer,
  { storefront, session, locale }: SessionParties,
  lines: readonly CartLine[],
  charges: CartCharges,
): Promise<ReturnForm> {
  const links: LineLinks = {
    proofUrl: await proofLinksFor(ctx, lines),
    thumbnailUrl:
      buyer.cartThumbnails === 'off' ? () => '' : await thumbnailLinksFor(ctx.config, lines, ctx.hmacSha256),
  };
  return cartMessageForm(ctx, buyer, storefront, locale, session, lines, links, charges);
}

export function cxmlCancelForm(
  ctx: GatewayContext,
  buyer: ResolvedCxmlBuyer,
  storefront: ResolvedStorefront,
  session: PunchoutSession,
): ReturnForm {
  if (session.operation === 'create') {
    // An empty cart: no line, so no link to sign.
    const none: LineLinks = { proofUrl: () => '', thumbnailUrl: () => '' };
    return cartMessageForm(ctx, buyer, storefront, localeOf(FALLBACK_LANGUAGE), session, [], none, {});
  }
  const now = ctx.clock.now();
  const xml = buildNoChangeOrderMessage({
    payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
    timestamp: now,
    header: headerFor(ctx, buyer, session),
    deploymentMode: session.deploymentMode,
    buyerCookie: session.buyerCookie ?? '',
    operationAllowed: session.operation,
    currency: storefront.currency,
    asciiOnly: buyer.cartEncoding === 'urlencoded',
  });
  return formFor(buyer, session, xml);
}
