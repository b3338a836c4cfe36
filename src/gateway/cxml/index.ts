/**
 * cXML for the gateway: `POST /cxml` with every request a buyer sends (PunchOutSetupRequest,
 * OrderRequest, ProfileRequest), and the PunchOutOrderMessage a cart goes back as. The documents
 * themselves are the pure codec's (`src/cxml`); a new request type is a case in route.ts's dispatch.
 */

import { ANONYMOUS_DOCUMENT_BYTES, orderDocumentLimit } from '../../../schemas/config.ts';
import type { PunchoutProtocol } from '../context.ts';
import type { ResolvedBuyer, ResolvedCxmlBuyer } from '../deps.ts';
import { html } from '../http/html.ts';
import { createOrderIntake } from '../orders/intake.ts';
import { sendReturnFormPage } from '../punchout/cart-pages.ts';
import { cxmlAdmission } from './admission.ts';
import { createCxmlRoute, documentTooLarge } from './route.ts';
import { cxmlCancelForm, cxmlCartForm } from './transfer.ts';
import { cxmlOnboarding } from './onboarding.ts';

function cxmlBuyer(buyer: ResolvedBuyer): ResolvedCxmlBuyer {
  if (buyer.protocol !== 'cxml') throw new TypeError(`buyer ${buyer.id} does not punch out with cXML`);
  return buyer;
}

const PATH = '/cxml';

export const cxmlProtocol: PunchoutProtocol = {
  label: 'cXML',
  path: PATH,
  mount(app, ctx) {
    // Before the route reads a body: unauthenticated uploads are admitted a bounded few at once.
    app.use(PATH, cxmlAdmission(ctx));
    app.route(PATH, createCxmlRoute(ctx, createOrderIntake(ctx)));
  },
  cartForm: (ctx, parties, lines, charges) =>
    cxmlCartForm(ctx, cxmlBuyer(parties.buyer), parties, lines, charges),
  cancelForm: (ctx, { buyer, storefront, session }) =>
    cxmlCancelForm(ctx, cxmlBuyer(buyer), storefront, session),
  sendReturnPage: sendReturnFormPage,
  consoleFacts: (buyer) =>
    html`<dt>Order status to</dt><dd>${buyer.orderStatusUrl ?? 'not sent (no orderStatusUrl)'}</dd>`,
  onboarding: cxmlOnboarding,
  testPunchoutAs: 'a cXML PunchOutSetupRequest with this buyer’s From, Sender and SharedSecret',
  requestBodies: (ctx) => [
    {
      name: 'cxml',
      // Not strict: `/cxml/` is the same endpoint.
      paths: /^\/cxml\/?$/,
      // The largest document anyone may send: `orders.maxDocumentBytes` for a proven buyer's OrderRequest
      // (16 MiB by default). Streamed, because the route reads a document's head and proves its sender
      // before reading on, and holds everything else and every stranger to ANONYMOUS_DOCUMENT_BYTES.
      limit: {
        maxBytes: Math.max(orderDocumentLimit(ctx.config), ANONYMOUS_DOCUMENT_BYTES),
        reading: 'streamed',
      },
      // The Status 406 the route itself answers a document too large with.
      refuse: (c, limit) => documentTooLarge(ctx, c, limit),
    },
  ],
};
