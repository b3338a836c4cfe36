/**
 * SAP OCI 4.0/5.0 for the gateway: the punch-in route `GET|POST /oci/:buyer` with its FUNCTION calls
 * (DETAIL, VALIDATE, SOURCING, BACKGROUND_SEARCH) and the NEW_ITEM-* hand-back forms the punch-out routes
 * use for OCI sessions. The parsing, login and HOOK_URL checks and the form fields themselves are the pure
 * codec's (`src/oci`); this folder binds them to buyers, sessions, the catalog and the cart.
 */

import { DEFAULT_OCI_PARSE_LIMITS } from '../../oci/index.ts';
import type { PunchoutProtocol } from '../context.ts';
import { html } from '../http/html.ts';
import { ociBuyerProblems } from './buyer-settings.ts';
import { createOciRoutes, ociBodyTooLarge } from './oci-routes.ts';
import { ociCancelForm, ociCartForm, sendOciReturnPage } from './return-forms.ts';
import { ociOnboarding } from './onboarding.ts';

const PATH = '/oci';

export const ociProtocol: PunchoutProtocol = {
  label: 'SAP OCI',
  path: PATH,
  mount(app, ctx) {
    app.route(PATH, createOciRoutes(ctx));
  },
  cartForm: ociCartForm,
  cancelForm: ociCancelForm,
  sendReturnPage: sendOciReturnPage,
  consoleFacts: (buyer) =>
    html`<dt>OCI user name</dt><dd>${buyer.protocol === 'oci' ? buyer.username : ''}</dd>`,
  onboarding: ociOnboarding,
  testPunchoutAs: 'an OCI punch-in with this buyer’s user name and password',
  configProblems: ociBuyerProblems,
  requestBodies: (ctx) => [
    {
      name: 'oci',
      // The punch-in `/oci/:buyer`; the session pages under `/oci/s/…` are pages.
      paths: /^\/oci\/[^/]+\/?$/,
      // The codec's own limit for a punch-in, read whole before the route parses it.
      limit: { maxBytes: DEFAULT_OCI_PARSE_LIMITS.maxBodyBytes, reading: 'buffered' },
      // The buyer's punch-in error page.
      refuse: (c, limit) => ociBodyTooLarge(ctx, c, limit),
    },
  ],
};
