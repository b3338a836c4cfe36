/**
 * SAP OCI 4.0/5.0 for the gateway: the punch-in route `GET|POST /oci/:buyer` with its FUNCTION calls
 * (DETAIL, VALIDATE, SOURCING, BACKGROUND_SEARCH) and the NEW_ITEM-* hand-back forms the punch-out routes
 * use for OCI sessions. The parsing, login and HOOK_URL checks and the form fields themselves are the pure
 * codec's (`src/oci`); this feature binds them to buyers, sessions, the catalog and the cart.
 *
 * @example
 * import { createGateway } from '../http/app.ts';
 * import { ociGateway } from './oci/index.ts';
 * const gateway = await createGateway(deps, ociGateway);
 * await gateway.app.request('/oci/sap1', { method: 'POST', body: punchInForm });
 */
import type { GatewayExtensions } from '../http/app.ts';
import { createOciRoutes } from './oci-routes.ts';
import { ociForms } from './return-forms.ts';

export { buyerUserFromPunchIn } from './oci-user.ts';
export { createOciRoutes, ociForms };

export const ociGateway: GatewayExtensions = {
  ociForms,
  routes: (app, ctx) => {
    app.route('/oci', createOciRoutes(ctx));
  },
};
