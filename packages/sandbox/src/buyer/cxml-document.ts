/**
 * The envelope of every cXML document the simulated buyer writes, in the profile's own habits: XML
 * declaration with or without encoding, DOCTYPE of the profile's cXML version, timestamps in local time
 * or `Z`, and, for Ariba, the encoder's comment inside every element that holds elements. Elements and
 * escaping come from the project's xml-writer, so text and attributes are escaped in one place.
 */
import { el, formatCxmlTimestamp, newPayloadId, serializeXml, type XmlElementSpec } from 'punchgate/cxml';
import type { AddressSpec, CxmlDocumentStyle, CxmlIdentity, NamedValue } from './profiles.ts';

const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/**
 * A cXML timestamp in the profile's zone: `Z` writes UTC with the designator Coupa uses, an offset
 * writes local time as the cXML guide asks.
 *
 * @example
 * buyerTimestamp(new Date('2026-05-01T12:00:00Z'), '-08:00'); // '2026-05-01T04:00:00-08:00'
 */
export function buyerTimestamp(date: Date, timeZone: string): string {
  if (timeZone === 'Z') return formatCxmlTimestamp(date).replace(/\+00:00$/, 'Z');
  const match = OFFSET.exec(timeZone);
  if (match === null) throw new TypeError(`timeZone must be Z or ±hh:mm, got "${timeZone}"`);
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return formatCxmlTimestamp(date, match[1] === '-' ? -minutes : minutes);
}

/** A payloadID in the recommended `<epoch-ms>.<random>@<host>` form. */
export function buyerPayloadId(style: CxmlDocumentStyle, randomId: () => string, now: Date): string {
  return newPayloadId(randomId, style.payloadHost, now);
}

function credentialElements(credentials: CxmlIdentity['from'], secret?: string): XmlElementSpec[] {
  return credentials.map((credential) =>
    el(
      'Credential',
      { domain: credential.domain },
      el('Identity', {}, credential.identity),
      secret !== undefined && el('SharedSecret', {}, secret),
    ),
  );
}

function headerElement(identity: CxmlIdentity): XmlElementSpec {
  return el(
    'Header',
    {},
    el('From', {}, credentialElements(identity.from)),
    el('To', {}, credentialElements(identity.to)),
    el(
      'Sender',
      {},
      credentialElements(identity.sender, identity.sharedSecret),
      el('UserAgent', {}, identity.userAgent),
    ),
  );
}

export function extrinsicElements(extrinsics: readonly NamedValue[]): XmlElementSpec[] {
  return extrinsics.map((extrinsic) => el('Extrinsic', { name: extrinsic.name }, extrinsic.value));
}

/** An `<Address>`; `deliverTo` names the person the parcel is for. */
export function addressElement(
  address: AddressSpec,
  lang: string,
  extra: { deliverTo?: string; email?: string } = {},
): XmlElementSpec {
  return el(
    'Address',
    { isoCountryCode: address.isoCountryCode, addressID: address.addressID },
    el('Name', { 'xml:lang': lang }, address.name),
    el(
      'PostalAddress',
      {},
      extra.deliverTo !== undefined && el('DeliverTo', {}, extra.deliverTo),
      address.street.map((street) => el('Street', {}, street)),
      el('City', {}, address.city),
      address.state !== undefined && el('State', {}, address.state),
      el('PostalCode', {}, address.postalCode),
      el('Country', { isoCountryCode: address.isoCountryCode }, address.country),
    ),
    extra.email !== undefined && el('Email', {}, extra.email),
  );
}

const OPEN_TAG_LINE = /^(\s*)<[A-Za-z][^<>]*[^/]>$/;
const ARIBA_COMMENT = '<!-- class: ariba.encoder.xml.AXComponent -->';

/**
 * Ariba's encoder leaves a comment inside every element that holds elements. The serializer writes such
 * an element's start tag alone on its line (text elements stay on one line, and `>` in attribute values
 * is escaped), so a line that is exactly one start tag is where the comment goes.
 */
function withEncoderComments(xml: string): string {
  return xml
    .split('\n')
    .map((line) => {
      const match = OPEN_TAG_LINE.exec(line);
      return match === null ? line : `${line}\n${match[1]}  ${ARIBA_COMMENT}`;
    })
    .join('\n');
}

export interface BuyerDocumentInput {
  readonly style: CxmlDocumentStyle;
  readonly payloadID: string;
  readonly timestamp: Date;
  /** Requests carry a Header; Responses do not. */
  readonly identity?: CxmlIdentity;
  /** `Request` or `Response`. */
  readonly body: XmlElementSpec;
}

/** The Request element's attributes: `deploymentMode="test"` for a test requisition, none for production. */
export function requestAttributes(deploymentMode: 'test' | undefined): Record<string, string> {
  return deploymentMode === 'test' ? { deploymentMode: 'test' } : {};
}

export function writeBuyerDocument(input: BuyerDocumentInput): string {
  const { style } = input;
  const root = el(
    'cXML',
    {
      version: style.version,
      payloadID: input.payloadID,
      timestamp: buyerTimestamp(input.timestamp, style.timeZone),
      'xml:lang': style.lang,
    },
    input.identity !== undefined && headerElement(input.identity),
    input.body,
  );
  const serialized = serializeXml(root);
  return (
    `<?xml version="1.0"${style.declareEncoding ? ' encoding="UTF-8"' : ''}?>\n` +
    `<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/${style.version}/cXML.dtd">\n` +
    `${style.encoderComments ? withEncoderComments(serialized) : serialized}\n`
  );
}
