/**
 * A PunchOutSetupRequest answered: the BrowserFormPost checked against the buyer's return hosts, the lines
 * of an edit or inspect found by our line references, the session opened, and the start URL sent back in
 * a PunchOutSetupResponse.
 */
import { buildSetupResponse, newPayloadId, type PunchOutSetupRequest } from '../../cxml/index.ts';
import { type JsonObject, toJson } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedCxmlBuyer } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { buyerUserFromSetup } from '../punchout/buyer-user.ts';
import { isHostAllowed } from '../punchout/buyers.ts';
import { LINE_REF_PATTERN } from '../punchout/line-refs.ts';
import { openSession } from '../punchout/sessions.ts';

export async function punchOutSetup(
  ctx: GatewayContext,
  request: PunchOutSetupRequest,
  buyer: ResolvedCxmlBuyer,
): Promise<string> {
  if (!isHostAllowed(request.browserFormPost, buyer.returnUrlHosts)) {
    let host = request.browserFormPost;
    try {
      host = new URL(request.browserFormPost).host;
    } catch {
      // The codec has checked it is an http(s) URL; keep the raw text if the URL API disagrees.
    }
    throw new GatewayError(
      'return_host_not_allowed',
      `BrowserFormPost host ${host} is not an allowed return host for this buyer.`,
    );
  }
  const reopen = request.itemOut
    .filter(
      (item) =>
        item.supplierPartAuxiliaryID !== undefined &&
        LINE_REF_PATTERN.test(item.supplierPartAuxiliaryID.trim()),
    )
    .map((item) => ({
      lineRef: item.supplierPartAuxiliaryID?.trim() ?? '',
      quantity: item.quantityNumber,
    }));
  const selectedSku =
    request.selectedItem?.supplierPartID ??
    (request.operation === 'create'
      ? request.itemOut.find((i) => i.supplierPartAuxiliaryID === undefined)?.supplierPartID
      : undefined);

  const opened = await openSession(ctx, {
    buyer,
    protocol: 'cxml',
    operation: request.operation,
    user: buyerUserFromSetup(request),
    returnUrl: request.browserFormPost,
    buyerCookie: request.buyerCookie,
    ...(request.returnFrame !== undefined && { returnTarget: request.returnFrame }),
    extrinsics: Object.fromEntries(request.extrinsics.list.map((e) => [e.name, e.value])),
    ...(request.contacts[0] !== undefined && { contact: toJson<JsonObject>(request.contacts[0]) }),
    ...(request.shipTo !== undefined && { shipTo: toJson<JsonObject>(request.shipTo) }),
    ...(selectedSku !== undefined && { selectedSku }),
    reopen,
  });
  const now = ctx.clock.now();
  return buildSetupResponse({
    payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
    timestamp: now,
    startPageUrl: opened.startUrl,
  });
}
