/**
 * SAP OCI 4.0/5.0 for the gateway: the punch-in route `GET|POST /oci/:buyer` with its FUNCTION calls
 * (DETAIL, VALIDATE, SOURCING, BACKGROUND_SEARCH) and the NEW_ITEM-* hand-back forms the punch-out routes
 * use for OCI sessions. The parsing, login and HOOK_URL checks and the form fields themselves are the pure
 * codec's (`src/oci`); this folder binds them to buyers, sessions, the catalog and the cart.
 */
import type { PunchoutProtocol } from '../punchout/protocol.ts';
import { createOciRoutes } from './oci-routes.ts';
import { ociCancelForm, ociCartForm, sendOciReturnPage } from './return-forms.ts';

export { buyerUserFromPunchIn } from './oci-user.ts';

export const ociProtocol: PunchoutProtocol = {
  mount(app, ctx) {
    app.route('/oci', createOciRoutes(ctx));
  },
  cartForm: ociCartForm,
  cancelForm: ociCancelForm,
  sendReturnPage: sendOciReturnPage,
};
