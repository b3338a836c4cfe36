/**
 * The PunchOutSetupRequest a cXML profile posts to the gateway: create for a new cart, edit or inspect
 * with the requisition's lines as ItemOut (SupplierPartID, the supplier's SupplierPartAuxiliaryID cookie
 * and the quantity, plus the detail the catalog sent), in DTD order: BuyerCookie, Extrinsic*,
 * BrowserFormPost, Contact*, ShipTo?, ItemOut*.
 */
import { el } from 'punchgate/cxml';
import { addressElement, extrinsicElements, requestAttributes, writeBuyerDocument } from './cxml-document.ts';
import type { DemoUser } from './demo-users.ts';
import { fullName } from './demo-users.ts';
import { itemOutElement } from './item-out.ts';
import type { CxmlBuyerProfile } from './profiles.ts';
import type { PunchoutOperation, RequisitionLine } from './requisition.ts';

export interface SetupRequestInput {
  readonly profile: CxmlBuyerProfile;
  readonly user: DemoUser;
  readonly operation: PunchoutOperation;
  readonly buyerCookie: string;
  /** Where the browser posts the cart back. */
  readonly browserFormPost: string;
  readonly payloadID: string;
  readonly timestamp: Date;
  /** The lines to reopen (edit, inspect); ignored for create. */
  readonly lines?: readonly RequisitionLine[];
  /** `test` for a test requisition: the Request carries `deploymentMode="test"`. */
  readonly deploymentMode?: 'test';
}

/**
 * @example
 * const xml = buildSetupRequest({
 *   profile: ARIBA_PROFILE, user: DEMO_USERS[0], operation: 'create', buyerCookie: 'c0ffee',
 *   browserFormPost: 'http://127.0.0.1:8080/buyer/requisitions/r1/cart',
 *   payloadID: '1714557600000.abc@app299.eu1.ariba.example', timestamp: new Date(),
 * });
 */
export function buildSetupRequest(input: SetupRequestInput): string {
  const { profile, user } = input;
  const lang = profile.style.lang;
  const extrinsics = [
    ...profile.setupExtrinsics(user),
    ...(profile.returnFrame === undefined ? [] : [{ name: 'ReturnFrame', value: profile.returnFrame }]),
  ];
  const lines = input.operation === 'create' ? [] : (input.lines ?? []);
  const request = el(
    'PunchOutSetupRequest',
    { operation: input.operation },
    el('BuyerCookie', {}, input.buyerCookie),
    extrinsicElements(extrinsics),
    el('BrowserFormPost', {}, el('URL', {}, input.browserFormPost)),
    profile.sendContact &&
      el(
        'Contact',
        { role: 'endUser' },
        el('Name', { 'xml:lang': lang }, fullName(user)),
        el('Email', {}, user.email),
      ),
    profile.sendShipTo &&
      el('ShipTo', {}, addressElement(profile.shipTo, lang, { deliverTo: fullName(user) })),
    lines.map((line, index) => itemOutElement(line, { lineNumber: index + 1, lang })),
  );
  return writeBuyerDocument({
    style: profile.style,
    payloadID: input.payloadID,
    timestamp: input.timestamp,
    identity: profile.cxml,
    body: el('Request', requestAttributes(input.deploymentMode), request),
  });
}
