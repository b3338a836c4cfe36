/**
 * `GET|POST /oci/:buyer`: the OCI punch-in, and the two session pages its FUNCTION calls open.
 *
 * The request is read from its raw bytes by the codec (query and urlencoded or multipart body, in the
 * buyer's charset), the login checked in constant time (wrong passwords count towards the failed-secret
 * throttle of the buyer and client address, like wrong cXML SharedSecrets), HOOK_URL checked against the
 * buyer's hosts and kept in the session; later requests never carry it. Then, by FUNCTION:
 * - none: a session, and a 303 to its one-time start URL (the catalog);
 * - `DETAIL` / `DETAILADD`: a session, and a 303 to the product page of PRODUCTID (a SKU, or a line
 *   reference from an earlier transfer, shown with its design); "Design" opens the editor, then the usual
 *   cart and transfer;
 * - `SOURCING`: a session and the products matching SEARCHSTRING, each with "Design" (the catalog when
 *   there is no SEARCHSTRING). Our products need a design before they can be ordered, so sourcing leads into
 *   the editor rather than transferring bare products;
 * - `VALIDATE`: no session, no UI: a page that posts the one item at its current price for QUANTITY to
 *   HOOK_URL at once. A whole-piece quantity below the product's minimum is raised to it (as a shop rounds up
 *   to a packaging unit); above the maximum it is refused;
 * - `BACKGROUND_SEARCH`: no session, server to server: the matching products (the first catalog page of
 *   them, 48) as NEW_ITEM-* inputs of a form that is never submitted, with no script and no cookie, each at
 *   its minimum quantity.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { acceptOciPunchIn, OciError, type OciPunchIn, type OciPunchInRequest } from '../../oci/index.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedOciBuyer } from '../deps.ts';
import { addAccessFields } from '../http/request-id.ts';
import { sendPage } from '../http/send-page.ts';
import { localeOf } from '../i18n/locale.ts';
import { requestLocale } from '../i18n/page-locale.ts';
import { FALLBACK_LANGUAGE } from '../i18n/session-language.ts';
import { renderMessagePage } from '../punchout/pages.ts';
import { frameAncestorsFor } from '../punchout/sessions.ts';
import { checkOciBuyers, punchInSettings } from './buyer-settings.ts';
import { punchInErrorPage } from './punch-in-errors.ts';
import { createOciRefusals, type OciRefusals } from './refused-punch-ins.ts';
import {
  backgroundSearch,
  detail,
  noStoreRedirect,
  openOciSession,
  type PunchInScope,
  sourcing,
  validate,
} from './punch-in-functions.ts';
import { createOciSessionPages } from './session-pages.ts';
import { punchInLanguage } from './session-fields.ts';

function ociBuyerNamed(ctx: GatewayContext, id: string): ResolvedOciBuyer | undefined {
  const buyer = ctx.buyers.byId(id);
  return buyer?.protocol === 'oci' ? buyer : undefined;
}

/**
 * A punch-in at an address no OCI buyer has, recorded in the refusals log as claiming the buyer its path
 * names, if that is one of ours at all (a cXML buyer given the OCI URL).
 */
async function noCatalogPage(
  ctx: GatewayContext,
  c: Context,
  refusals: OciRefusals,
  named: string,
  bodyRead = true,
): Promise<Response> {
  // The refusals log in English, the page in the browser's language.
  const english = localeOf(FALLBACK_LANGUAGE);
  const answer = {
    status: 404,
    heading: english.t('oci.noCatalogHeading'),
    message: english.t('oci.noCatalog'),
  };
  await refusals.record(c, ctx.buyers.byId(named)?.id, answer, bodyRead);
  const locale = requestLocale(c.req.header('accept-language'));
  const page = renderMessagePage({
    locale,
    title: locale.t('page.catalogTitle'),
    heading: locale.t('oci.noCatalogHeading'),
    message: locale.t('oci.noCatalog'),
    kind: 'error',
  });
  return sendPage(c, page, { frameAncestors: [] }, 404);
}

/**
 * A punch-in body past `limit` (the gateway's body limit, before the route reads it): the buyer's punch-in
 * error page, framed as the buyer's pages are; no catalog page for a buyer that is not an OCI buyer.
 */
export function ociBodyTooLarge(ctx: GatewayContext, c: Context, limit: number): Promise<Response> {
  const named = /^\/oci\/([^/]+)/.exec(c.req.path)?.[1] ?? '';
  let buyerId = named;
  try {
    buyerId = decodeURIComponent(named);
  } catch {
    // Not a name any buyer has: the no-catalog page.
  }
  const buyer = ociBuyerNamed(ctx, buyerId);
  const refusals = createOciRefusals(ctx);
  if (buyer === undefined) return noCatalogPage(ctx, c, refusals, buyerId, false);
  const error = new OciError('body_too_large', `The request body is larger than ${limit} bytes.`);
  return punchInErrorPage(ctx, c, error, {
    buyer: buyer.id,
    frameAncestors: frameAncestorsFor(buyer),
    refusals,
    bodyRead: false,
  });
}

/**
 * @example
 * app.route('/oci', createOciRoutes(ctx));
 */
export function createOciRoutes(ctx: GatewayContext): Hono {
  checkOciBuyers(ctx.config);
  const app = new Hono();
  const refusals = createOciRefusals(ctx);

  async function readRequest(c: Context): Promise<OciPunchInRequest> {
    const contentType = c.req.header('content-type');
    return {
      method: c.req.method,
      query: new URL(c.req.url).search,
      ...(contentType !== undefined && { contentType }),
      body: new Uint8Array(await c.req.arrayBuffer()),
    };
  }

  // The body is already within the codec's limit: the gateway's body limit (http/body-limits.ts) held it
  // there before this route ran, as this protocol's `requestBodies` (index.ts) asks, and answered
  // ociBodyTooLarge past it.
  app.all('/:buyer', async (c) => {
    const buyer = ociBuyerNamed(ctx, c.req.param('buyer'));
    if (buyer === undefined) return noCatalogPage(ctx, c, refusals, c.req.param('buyer'));
    const frameAncestors = frameAncestorsFor(buyer);
    const address = ctx.clientAddress(c);
    try {
      const punchIn = await acceptLogin(await readRequest(c), buyer, address);
      ctx.logger.info('oci punch-in accepted', {
        buyer: buyer.id,
        method: c.req.method,
        function: punchIn.function ?? 'shop',
        charset: punchIn.charset,
        charsetSource: punchIn.charsetSource,
      });
      if (c.req.method === 'GET') {
        ctx.logger.warn('oci punch-in by GET: the password travels in the URL', { buyer: buyer.id });
      }
      const scope: PunchInScope = {
        buyer,
        storefront: ctx.storefront(buyer.storefront),
        punchIn,
        frameAncestors,
        locale: localeOf(punchInLanguage(punchIn, c.req.header('accept-language'), buyer)),
        addAccessFields: (fields) => addAccessFields(c, fields),
      };
      switch (punchIn.function) {
        case 'VALIDATE':
          return await validate(ctx, scope);
        case 'BACKGROUND_SEARCH':
          return backgroundSearch(scope);
        case 'DETAIL':
        case 'DETAILADD':
          return await detail(ctx, scope);
        case 'SOURCING':
          return await sourcing(ctx, scope);
        case undefined:
          return noStoreRedirect((await openOciSession(ctx, scope)).startUrl);
      }
    } catch (error) {
      return punchInErrorPage(ctx, c, error, { buyer: buyer.id, frameAncestors, refusals });
    }
  });

  /** The codec's whole punch-in check, a wrong password counted against the buyer and the address. */
  function acceptLogin(
    request: OciPunchInRequest,
    buyer: ResolvedOciBuyer,
    address: string,
  ): Promise<OciPunchIn> {
    return ctx.secretThrottle.guard(
      buyer.id,
      address,
      () => acceptOciPunchIn(request, punchInSettings(buyer)),
      // One password per request: one failure.
      (error) => (error instanceof OciError && error.code === 'bad_login' ? 1 : 0),
    );
  }

  app.route('/', createOciSessionPages(ctx));

  return app;
}
