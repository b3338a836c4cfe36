/**
 * A PunchOutSetupRequest answered: the BrowserFormPost checked against the buyer's return hosts, the lines
 * of an edit or inspect found by our line references, the session opened, and the start URL sent back in
 * a PunchOutSetupResponse.
 */
import {
  buildSetupResponse,
  type DeploymentMode,
  type ItemOut,
  newPayloadId,
  type PunchOutSetupRequest,
} from '../../cxml/index.ts';
import { readDecimal, safeIntegerOf } from '../../kernel/decimal.ts';
import { type JsonObject, toJson } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { LogFields, ResolvedBuyer } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { languageOfTag } from '../i18n/session-language.ts';
import { buyerUserFromSetup } from '../punchout/buyer-user.ts';
import { isHostAllowed } from '../punchout/buyers.ts';
import type { KeptLine } from '../punchout/kept-lines.ts';
import { LINE_REF_PATTERN } from '../punchout/line-refs.ts';
import { openSession, type ReopenedLine } from '../punchout/sessions.ts';

/** An ItemOut exactly as sent, for a line the gateway may not know (kept-lines.ts). */
function asSent(item: ItemOut): KeptLine {
  return {
    supplierPartID: item.supplierPartID,
    ...(item.supplierPartAuxiliaryID !== undefined && {
      supplierPartAuxiliaryID: item.supplierPartAuxiliaryID,
    }),
    quantity: item.quantity,
    ...(item.unitPrice !== undefined && {
      unitPrice: { value: item.unitPrice.value, currency: item.unitPrice.currency },
    }),
    description: item.description,
    ...(item.shortName !== undefined && { shortName: item.shortName }),
    ...(item.unitOfMeasure !== undefined && { unitOfMeasure: item.unitOfMeasure }),
    ...(item.priceBasis !== undefined && { priceBasis: item.priceBasis }),
    classifications: item.classifications.map((c) => ({ domain: c.domain, code: c.code })),
    ...(item.manufacturerPartID !== undefined && { manufacturerPartID: item.manufacturerPartID }),
    ...(item.manufacturerName !== undefined && { manufacturerName: item.manufacturerName }),
    extrinsics: item.extrinsics.map((e) => ({ name: e.name, value: e.value })),
  };
}

/** cXML's quantity spellings (`5`, `+5`, `5.`, `5e0`), as the codec accepted them. */
const QUANTITY_SYNTAX = { signed: true, barePoint: true, exponent: true } as const;

/** Every ItemOut: ours by line reference when it carries one, and each as sent for when it is not ours. */
function reopenedLines(request: PunchOutSetupRequest): ReopenedLine[] {
  return request.itemOut.map((item) => {
    const reference = item.supplierPartAuxiliaryID?.trim();
    // A cart holds whole quantities: a fraction leaves the cart line's own (openSession decides).
    const decimal = readDecimal(item.quantity, QUANTITY_SYNTAX);
    const quantity = decimal === undefined ? undefined : safeIntegerOf(decimal);
    return {
      ...(reference !== undefined && LINE_REF_PATTERN.test(reference) && { lineRef: reference }),
      ...(quantity !== undefined && { quantity }),
      asSent: asSent(item),
    };
  });
}

/**
 * The PunchOutSetupResponse to a proven buyer's setup, and what the access line says of the session it
 * opened; a buyer configured for OCI is refused.
 */
export async function punchOutSetup(
  ctx: GatewayContext,
  request: PunchOutSetupRequest,
  buyer: ResolvedBuyer,
  deploymentMode: DeploymentMode,
): Promise<{ xml: string; accessFields: LogFields }> {
  if (buyer.protocol !== 'cxml') {
    throw new GatewayError(
      'bad_request',
      `Buyer ${buyer.id} punches out with ${buyer.protocol.toUpperCase()}, not cXML.`,
    );
  }
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
  const selectedPartId =
    request.selectedItem?.supplierPartID ??
    (request.operation === 'create'
      ? request.itemOut.find((i) => i.supplierPartAuxiliaryID === undefined)?.supplierPartID
      : undefined);

  // The setup comes from the buyer's server, not the user's browser: its Accept-Language says nothing of
  // the user, so without a known xml:lang the start page decides from the browser's.
  const language = languageOfTag(request.lang);
  const opened = await openSession(ctx, {
    buyer,
    protocol: 'cxml',
    operation: request.operation,
    deploymentMode,
    user: buyerUserFromSetup(request),
    returnUrl: request.browserFormPost,
    buyerCookie: request.buyerCookie,
    ...(request.returnFrame !== undefined && { returnTarget: request.returnFrame }),
    extrinsics: Object.fromEntries(request.extrinsics.map((e) => [e.name, e.value])),
    ...(request.contacts[0] !== undefined && { contact: toJson<JsonObject>(request.contacts[0]) }),
    ...(request.shipTo !== undefined && { shipTo: toJson<JsonObject>(request.shipTo) }),
    ...(selectedPartId !== undefined && { selectedPartId }),
    ...(language !== undefined && { language }),
    reopen: reopenedLines(request),
  });
  const now = ctx.clock.now();
  const xml = buildSetupResponse({
    payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
    timestamp: now,
    startPageUrl: opened.startUrl,
  });
  return { xml, accessFields: opened.accessFields };
}
