/**
 * The OCI hand-back forms the protocol-neutral punch-out routes call for OCI sessions: the cart
 * as NEW_ITEM-*[n] fields posted to the HOOK_URL stored at punch-in, into `returntarget` / `~TARGET` (else
 * `_top`), with the `~` fields echoed after the items, in the charset the punch-in was read in.
 *
 * Cancel: OCI has no cancel message, so cancelling posts the HOOK_URL a transfer without items (only the
 * echoed `~` fields): the user gets back to the procurement system with nothing added. Posting nothing at
 * all would leave the user stuck in our frame.
 */
import type { Context } from 'hono';
import {
  charsetLabel,
  type OciPageLabels,
  parseCharsetLabel,
  renderOciTransferForm,
} from '../../oci/index.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext, SessionParties } from '../context.ts';
import type { ResolvedBuyer, ResolvedOciBuyer } from '../deps.ts';
import type { Locale } from '../i18n/locale.ts';
import type { CartCharges } from '../punchout/cart-charges.ts';
import type { ReturnForm } from '../punchout/pages.ts';
import { frameAncestorsFor } from '../punchout/sessions.ts';
import { thumbnailLinksFor } from '../punchout/thumbnail-links.ts';
import { ociChargeLines } from './oci-charge-lines.ts';
import { itemFields, ociLineOfCartLine } from './oci-lines.ts';
import { ociPageResponse } from './oci-page.ts';
import { sessionCharset, sessionEchoFields } from './session-fields.ts';

/** The hand-back page's words in the session's language: a cart, or a return without items (cancel). */
function returnLabels(locale: Locale, hasItems: boolean): OciPageLabels {
  return hasItems
    ? {
        title: locale.t('oci.transferTitle'),
        notice: locale.t('oci.transferNotice'),
        submit: locale.t('oci.transferSubmit'),
      }
    : {
        title: locale.t('oci.emptyTitle'),
        notice: locale.t('oci.emptyNotice'),
        submit: locale.t('oci.emptySubmit'),
      };
}

function ociBuyer(buyer: ResolvedBuyer): ResolvedOciBuyer {
  if (buyer.protocol !== 'oci') throw new TypeError(`buyer ${buyer.id} does not punch out with OCI`);
  return buyer;
}

function formOf(
  buyer: ResolvedOciBuyer,
  session: PunchoutSession,
  items: readonly (readonly [string, string])[],
): ReturnForm {
  return {
    action: session.returnUrl,
    target: session.returnTarget ?? '_top',
    fields: [...items, ...sessionEchoFields(session)],
    acceptCharset: charsetLabel(sessionCharset(session, buyer)),
  };
}

export async function ociCartForm(
  ctx: GatewayContext,
  { buyer, storefront, session, locale }: SessionParties,
  lines: readonly CartLine[],
  charges: CartCharges,
): Promise<ReturnForm> {
  const oci = ociBuyer(buyer);
  const thumbnail =
    oci.cartThumbnails === 'off' ? undefined : await thumbnailLinksFor(ctx.config, lines, ctx.hmacSha256);
  const items = [
    ...lines.map((line) => ociLineOfCartLine(oci, storefront, locale, line, thumbnail?.(line))),
    ...ociChargeLines(oci, storefront, charges),
  ];
  return formOf(oci, session, itemFields(oci, sessionCharset(session, oci), items));
}

export function ociCancelForm(_ctx: GatewayContext, { buyer, session }: SessionParties): ReturnForm {
  return formOf(ociBuyer(buyer), session, []);
}

/**
 * The hand-back page in the buyer's charset (e.g. ISO-8859-1): bytes, meta charset and accept-charset
 * agree, which the generic UTF-8 page could not do. Its labels are the codec's, so `message` is unused.
 */
export async function sendOciReturnPage(
  _c: Context,
  { buyer, locale }: SessionParties,
  form: ReturnForm,
): Promise<Response> {
  const charset = parseCharsetLabel(form.acceptCharset ?? '') ?? 'utf-8';
  const hasItems = form.fields.some(([name]) => name.startsWith('NEW_ITEM-'));
  const page = renderOciTransferForm({
    hookUrl: form.action,
    fields: form.fields,
    target: form.target,
    charset,
    autoSubmit: true,
    lang: locale.language,
    labels: returnLabels(locale, hasItems),
  });
  return ociPageResponse(page, { charset, frameAncestors: frameAncestorsFor(buyer), autoSubmit: true });
}
