/**
 * Buyer profiles: how each simulated procurement system identifies itself and writes its documents.
 * The defaults copy what real Ariba, Coupa and SAP SRM installations send (credential sets, user agents,
 * timestamp forms, extrinsics, OCI `~` fields); their credentials must match the buyers of the gateway
 * config the simulator talks to (`gatewayBuyerId` names that buyer). README.md beside this file lists them.
 */
import type { DemoUser } from './demo-users.ts';
import { fullName } from './demo-users.ts';

export interface BuyerCredential {
  readonly domain: string;
  readonly identity: string;
}

export interface NamedValue {
  readonly name: string;
  readonly value: string;
}

/** The Header of every cXML document a profile sends. */
export interface CxmlIdentity {
  readonly from: readonly BuyerCredential[];
  readonly to: readonly BuyerCredential[];
  /** Sender credentials; each carries `sharedSecret`, as Ariba sends them. */
  readonly sender: readonly BuyerCredential[];
  readonly sharedSecret: string;
  readonly userAgent: string;
}

/** The habits of a buyer's cXML encoder. */
export interface CxmlDocumentStyle {
  /** DOCTYPE and root version, e.g. `1.2.044`. */
  readonly version: string;
  /** Write `encoding="UTF-8"` in the XML declaration (Ariba leaves it out). */
  readonly declareEncoding: boolean;
  /** `Z`, or an offset like `-08:00` for local time as the cXML guide asks. */
  readonly timeZone: string;
  /** Ariba's encoder writes a comment into every element that holds elements. */
  readonly encoderComments: boolean;
  /** Root `xml:lang` and the language of names and descriptions. */
  readonly lang: string;
  /** The host part of payloadIDs. */
  readonly payloadHost: string;
}

export interface AddressSpec {
  readonly addressID?: string;
  readonly name: string;
  readonly street: readonly string[];
  readonly city: string;
  readonly state?: string;
  readonly postalCode: string;
  readonly country: string;
  readonly isoCountryCode: string;
}

interface ProfileCommon {
  /** The simulator's own id for the profile, used in URLs and forms. */
  readonly id: string;
  readonly name: string;
  /** One line about what this profile imitates. */
  readonly summary: string;
  /** The buyer's id in the gateway config (OCI punch-in path, and what to align credentials with). */
  readonly gatewayBuyerId: string;
  /** Header of the cXML the profile sends: setup requests (cXML profiles) and every OrderRequest. */
  readonly cxml: CxmlIdentity;
  readonly style: CxmlDocumentStyle;
  readonly shipTo: AddressSpec;
  readonly billTo: AddressSpec;
  /** OrderRequestHeader extrinsics for the ordering user. */
  readonly orderExtrinsics: (user: DemoUser) => readonly NamedValue[];
  /**
   * The SharedSecret the supplier must send in a Sender credential of ConfirmationRequests and
   * ShipNoticeRequests; without it order-status documents are not authenticated.
   */
  readonly supplierSecret?: string;
  /**
   * The profile's own invoice URL, relative to the simulator (`/coupa/invoices`): InvoiceDetailRequests for
   * its purchase orders are taken there only, and that URL takes nothing else. Unset: invoices arrive at
   * the order-status endpoint with confirmations and ship notices.
   */
  readonly invoicePath?: string;
}

type CartEncoding = 'base64' | 'urlencoded';

export interface CxmlBuyerProfile extends ProfileCommon {
  readonly protocol: 'cxml';
  readonly setupExtrinsics: (user: DemoUser) => readonly NamedValue[];
  /** Send `<Contact role="endUser">` in setup requests (Coupa, Oracle). */
  readonly sendContact: boolean;
  /** Send the ShipTo address in setup requests (Ariba). */
  readonly sendShipTo: boolean;
  /** The `ReturnFrame` extrinsic (Aquiire, Vinimaya): the frame the cart form should target. */
  readonly returnFrame?: string;
  /** Cart form fields this buyer is set up to read; another one is accepted with a warning. */
  readonly cartEncodings: readonly CartEncoding[];
}

type OciCharsetName = 'utf-8' | 'iso-8859-1';

export interface OciBuyerProfile extends ProfileCommon {
  readonly protocol: 'oci';
  readonly username: string;
  readonly password: string;
  /** Names of the login fields, as customised in SAP. */
  readonly loginFields: { readonly username: string; readonly password: string };
  /** Charset of the punch-in form (`http_content_charset` and `accept-charset`). */
  readonly charset: OciCharsetName;
  readonly okCode: string;
  readonly target: string;
  readonly caller: string;
  /** SRM 5/7 Web Dynpro sends `returntarget`; leave undefined to send none. */
  readonly returnTarget?: string;
  readonly ociVersion: string;
  /** Further punch-in fields (user details, client, language) in the order sent. */
  readonly punchInFields: (user: DemoUser) => readonly NamedValue[];
  /** SAP turns its internal units (T006) back into ISO codes in the purchase order: `{ ST: 'EA' }`. */
  readonly poUnitMap: Readonly<Record<string, string>>;
}

export type BuyerProfile = CxmlBuyerProfile | OciBuyerProfile;

const ACME_HAMBURG: AddressSpec = {
  addressID: '0100',
  // Ariba sends the plant code as the address name; a reader that coerces values turns it into 100.
  name: '0100',
  street: ['Kieler Straße 371-377'],
  city: 'Hamburg',
  postalCode: '22525',
  country: 'Germany',
  isoCountryCode: 'DE',
};

const ACME_BILLING: AddressSpec = {
  addressID: 'BILL-01',
  name: 'ACME Corporation – Accounts Payable',
  street: ['1 Market Street', 'Suite 400'],
  city: 'San Francisco',
  state: 'CA',
  postalCode: '94105',
  country: 'United States',
  isoCountryCode: 'US',
};

const ACME_CHICAGO: AddressSpec = {
  addressID: 'CHI-2',
  name: 'ACME Chicago Office',
  street: ['233 S Wacker Dr', 'Floor 12'],
  city: 'Chicago',
  state: 'IL',
  postalCode: '60606',
  country: 'United States',
  isoCountryCode: 'US',
};

const ACME_MUENCHEN: AddressSpec = {
  addressID: '1000',
  name: 'ACME Deutschland GmbH',
  street: ['Müllerstraße 12'],
  city: 'München',
  postalCode: '80469',
  country: 'Deutschland',
  isoCountryCode: 'DE',
};

/** Ariba Buying ("Buyer 14s2"): three From and two Sender credentials, comments everywhere, local time. */
export const ARIBA_PROFILE: CxmlBuyerProfile = {
  id: 'ariba',
  name: 'Ariba-style cXML',
  summary:
    'SAP Ariba Buying: three From and two Sender credentials, encoder comments between elements, ' +
    'local time with offset, UniqueName and UserEmail extrinsics, cart expected as cxml-base64.',
  protocol: 'cxml',
  gatewayBuyerId: 'acme',
  cxml: {
    from: [
      { domain: 'SystemID', identity: 'ACME-PROD' },
      { domain: 'NetworkID', identity: 'AN01000000001' },
      { domain: 'EndPointID', identity: 'Ariba' },
    ],
    to: [
      { domain: 'NetworkID', identity: 'AN02000000002' },
      { domain: 'internalsupplierid', identity: '0000001524' },
    ],
    sender: [
      { domain: 'SystemID', identity: 'ACME-PROD' },
      { domain: 'NetworkId', identity: 'AN01000000001' },
    ],
    sharedSecret: 'acme-secret',
    userAgent: 'Buyer 14s2',
  },
  style: {
    version: '1.2.044',
    declareEncoding: false,
    timeZone: '-08:00',
    encoderComments: true,
    lang: 'en',
    payloadHost: 'app299.eu1.ariba.example',
  },
  setupExtrinsics: (user) => [
    { name: 'UniqueName', value: user.id },
    { name: 'UserEmail', value: user.email },
    { name: 'CompanyCode', value: '0126' },
  ],
  sendContact: false,
  sendShipTo: true,
  cartEncodings: ['base64'],
  shipTo: ACME_HAMBURG,
  billTo: ACME_BILLING,
  orderExtrinsics: (user) => [
    { name: 'UniqueName', value: user.id },
    { name: 'UserEmail', value: user.email },
    { name: 'CompanyCode', value: '0126' },
    { name: 'CostCenter', value: user.costCenter },
  ],
};

/** Coupa: one DUNS credential, `Z` timestamps, FirstName/LastName/UserEmail extrinsics, an endUser Contact. */
export const COUPA_PROFILE: CxmlBuyerProfile = {
  id: 'coupa',
  name: 'Coupa-style cXML',
  summary:
    'Coupa: one DUNS credential per party, UTC timestamps with Z, name and e-mail extrinsics plus an ' +
    'endUser Contact, no ReturnFrame; reads the cart as cxml-urlencoded or cxml-base64.',
  protocol: 'cxml',
  gatewayBuyerId: 'coupa',
  cxml: {
    from: [{ domain: 'DUNS', identity: 'COUPA-ACME' }],
    to: [{ domain: 'DUNS', identity: 'PRINTCO' }],
    sender: [{ domain: 'DUNS', identity: 'COUPA-ACME' }],
    sharedSecret: 'coupa-secret',
    userAgent: 'Coupa Procurement 1.0',
  },
  style: {
    version: '1.2.014',
    declareEncoding: true,
    timeZone: 'Z',
    encoderComments: false,
    lang: 'en-US',
    payloadHost: 'acme.coupahost.example',
  },
  setupExtrinsics: (user) => [
    { name: 'FirstName', value: user.firstName },
    { name: 'LastName', value: user.lastName },
    { name: 'UniqueName', value: user.id },
    { name: 'UserEmail', value: user.email },
    { name: 'User', value: user.id },
    { name: 'BusinessUnit', value: user.department },
  ],
  sendContact: true,
  sendShipTo: false,
  cartEncodings: ['urlencoded', 'base64'],
  shipTo: ACME_CHICAGO,
  billTo: ACME_BILLING,
  orderExtrinsics: (user) => [
    { name: 'UserEmail', value: user.email },
    { name: 'BusinessUnit', value: user.department },
  ],
  // Coupa takes cXML invoices at an endpoint of their own, beside the one for order confirmations.
  invoicePath: '/coupa/invoices',
};

/** SAP SRM 7 (Web Dynpro) with OCI 4.0; its purchase orders go out as cXML over SAP's integration. */
export const SAP_PROFILE: OciBuyerProfile = {
  id: 'sap',
  name: 'SAP-style OCI',
  summary:
    'SAP SRM 7: OCI 4.0 punch-in by form POST with USERNAME/PASSWORD, HOOK_URL, ~OkCode=ADDI, ' +
    '~TARGET=_top, ~CALLER=CTLG and returntarget=_parent; the purchase order follows as a cXML OrderRequest.',
  protocol: 'oci',
  gatewayBuyerId: 'sap1',
  username: 'sap1',
  password: 'sap1-secret',
  loginFields: { username: 'USERNAME', password: 'PASSWORD' },
  charset: 'utf-8',
  okCode: 'ADDI',
  target: '_top',
  caller: 'CTLG',
  returnTarget: '_parent',
  ociVersion: '4.0',
  punchInFields: (user) => [
    { name: 'OPI_VERSION', value: '1.0' },
    { name: 'sap-client', value: '100' },
    { name: 'sap-language', value: 'EN' },
    { name: 'userid', value: user.id.toUpperCase() },
    { name: 'fname', value: user.firstName },
    { name: 'lname', value: user.lastName },
    { name: 'email', value: user.email },
  ],
  poUnitMap: { ST: 'EA' },
  cxml: {
    from: [{ domain: 'NetworkID', identity: 'SAP1-ORDERS' }],
    to: [{ domain: 'NetworkID', identity: 'PRINTCO' }],
    sender: [{ domain: 'NetworkID', identity: 'SAP1-ORDERS' }],
    sharedSecret: 'sap1-order-secret',
    userAgent: 'SAP SRM 7.0',
  },
  style: {
    version: '1.2.050',
    declareEncoding: true,
    timeZone: '+01:00',
    encoderComments: false,
    lang: 'de-DE',
    payloadHost: 'srm.acme.example',
  },
  shipTo: ACME_MUENCHEN,
  billTo: ACME_MUENCHEN,
  orderExtrinsics: (user) => [
    { name: 'CompanyCode', value: '1000' },
    { name: 'PurchaseGroup', value: '002' },
    { name: 'PurchaseOrganization', value: '1000' },
    { name: 'Requester', value: fullName(user) },
  ],
};

export const DEFAULT_BUYER_PROFILES: readonly BuyerProfile[] = [ARIBA_PROFILE, COUPA_PROFILE, SAP_PROFILE];
