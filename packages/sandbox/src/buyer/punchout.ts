/**
 * Opening a catalog session. cXML: the PunchOutSetupRequest goes to the gateway server to server, and the
 * StartPage it answers is opened in the requisition's catalog frame. OCI: there is no server-side step;
 * the requisition page posts the punch-in fields into the frame from the user's browser, as SAP does.
 * Both record what was exchanged on the requisition.
 */
import { buildSetupRequest } from './build-setup-request.ts';
import { buyerPayloadId } from './cxml-document.ts';
import type { DemoUser } from './demo-users.ts';
import { postCxml } from './gateway-client.ts';
import type { OciBuyerProfile } from './profiles.ts';
import type { PunchoutOperation, PunchoutSession, Requisition } from './requisition.ts';
import {
  findProfile,
  findUser,
  requisitionUrl,
  type SimulatorContext,
  withDocument,
  withNotice,
} from './simulator-context.ts';

/** The OCI punch-in fields in the order SAP's customizing sends them: login and extras first, then HOOK_URL and the `~` fields. */
function ociPunchInFields(
  profile: OciBuyerProfile,
  user: DemoUser,
  hookUrl: string,
): (readonly [string, string])[] {
  return [
    [profile.loginFields.username, profile.username],
    [profile.loginFields.password, profile.password],
    ['OCI_VERSION', profile.ociVersion],
    ...profile.punchInFields(user).map((field) => [field.name, field.value] as const),
    ['http_content_charset', profile.charset],
    ['HOOK_URL', hookUrl],
    ['~OkCode', profile.okCode],
    ['~TARGET', profile.target],
    ['~CALLER', profile.caller],
    ...(profile.returnTarget === undefined ? [] : [['returntarget', profile.returnTarget] as const]),
  ];
}

/** The punch-in endpoint of the profile's buyer on the gateway. */
export function ociPunchInUrl(ctx: SimulatorContext, profile: OciBuyerProfile): string {
  return `${ctx.gatewayUrl}/oci/${encodeURIComponent(profile.gatewayBuyerId)}`;
}

/**
 * Starts punch-out number n+1 of the requisition and returns its number, or undefined when the
 * requisition, its profile or its user is unknown. A failed setup is recorded as a failed session with
 * the gateway's Status, so the page can say why.
 *
 * @example
 * const number = await startPunchout(ctx, requisition.id, 'edit');
 */
export async function startPunchout(
  ctx: SimulatorContext,
  requisitionId: string,
  operation: PunchoutOperation,
): Promise<number | undefined> {
  const requisition = ctx.store.get(requisitionId);
  if (requisition === undefined) return undefined;
  const profile = findProfile(ctx, requisition.profileId);
  const user = findUser(ctx, requisition.userId);
  if (profile === undefined || user === undefined) return undefined;
  const number = requisition.punchouts.length + 1;
  const now = ctx.clock.now();
  const base = { number, operation, protocol: profile.protocol, startedAt: now.toISOString() };

  if (profile.protocol === 'oci') {
    const fields = ociPunchInFields(profile, user, `${requisitionUrl(ctx, requisitionId)}/oci-cart`);
    const session: PunchoutSession = { ...base, operation: 'create', punchInFields: fields, state: 'open' };
    ctx.store.update(requisitionId, (r) =>
      withDocument(closeOpenSessions({ ...r, punchouts: [...r.punchouts, session] }), now, {
        direction: 'sent',
        title: 'OCI punch-in (form fields)',
        route: `POST ${ociPunchInUrl(ctx, profile)} from the browser into the catalog frame`,
        body: fields.map(([name, value]) => `${name}=${value}`).join('\n'),
        note: `application/x-www-form-urlencoded, accept-charset ${profile.charset.toUpperCase()}`,
      }),
    );
    return number;
  }

  const buyerCookie = ctx.randomId();
  const payloadID = buyerPayloadId(profile.style, ctx.randomId, now);
  const xml = buildSetupRequest({
    profile,
    user,
    operation,
    buyerCookie,
    browserFormPost: `${requisitionUrl(ctx, requisitionId)}/cart`,
    payloadID,
    timestamp: now,
    lines: requisition.lines,
    ...(requisition.deploymentMode !== undefined && { deploymentMode: requisition.deploymentMode }),
  });
  const exchange = await postCxml(ctx.fetch, `${ctx.gatewayUrl}/cxml`, xml);
  const answeredAt = ctx.clock.now();
  const { status, startPageUrl } = exchange.answer;
  const opened =
    status.code >= 200 &&
    status.code < 300 &&
    startPageUrl !== undefined &&
    /^https?:\/\//i.test(startPageUrl);
  const session: PunchoutSession = {
    ...base,
    buyerCookie,
    ...(startPageUrl !== undefined && { startPageUrl }),
    state: opened ? 'open' : 'failed',
  };
  ctx.store.update(requisitionId, (r) => {
    let next = withDocument(closeOpenSessions({ ...r, punchouts: [...r.punchouts, session] }), now, {
      direction: 'sent',
      title: `PunchOutSetupRequest (${operation})`,
      route: `POST ${exchange.url}`,
      body: xml,
    });
    next = withDocument(next, answeredAt, {
      direction: 'received',
      title: 'PunchOutSetupResponse',
      route: `answer to POST ${exchange.url}${exchange.httpStatus === undefined ? '' : ` (HTTP ${exchange.httpStatus})`}`,
      body: exchange.body,
    });
    if (opened) return next;
    const why =
      status.code === 0
        ? status.detail
        : `The gateway answered ${status.code} ${status.text}${status.detail === '' ? '' : `: ${status.detail}`}`;
    const noStart =
      status.code >= 200 && status.code < 300 ? ' The answer has no http(s) StartPage URL.' : '';
    return withNotice(next, answeredAt, 'error', `The punch-out (${operation}) failed. ${why}${noStart}`);
  });
  return number;
}

/** A new catalog session replaces any still open one, as a procurement system keeps one per requisition. */
function closeOpenSessions(requisition: Requisition): Requisition {
  const last = requisition.punchouts.length - 1;
  return {
    ...requisition,
    punchouts: requisition.punchouts.map((p, index) =>
      index !== last && p.state === 'open' ? { ...p, state: 'closed' } : p,
    ),
  };
}
