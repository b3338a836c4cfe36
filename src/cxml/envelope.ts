/**
 * The envelope of every document punchgate sends: XML declaration (UTF-8, no BOM), the DOCTYPE of
 * the DTD module that defines the document, and the `<cXML>` root with payloadID and timestamp, which
 * callers pass in so documents are reproducible and a retry repeats the same payloadID.
 */
import type { CxmlHeader, DeploymentMode } from './request-types.ts';
import { formatCxmlTimestamp, STRICT_CXML_TIMESTAMP } from './timestamp.ts';
import {
  el,
  type SerializeOptions,
  serializeXml,
  type XmlContent,
  type XmlElementSpec,
} from './xml-writer.ts';

export interface CxmlEnvelopeInput {
  /** Unique per document and unchanged on retries; see `newPayloadId`. */
  readonly payloadID: string;
  /** A Date (written at +00:00) or a string already in `YYYY-MM-DDThh:mm:ss±hh:mm` form. */
  readonly timestamp: Date | string;
  /** Root `xml:lang` and the language of Descriptions; default `en-US`. */
  readonly lang?: string;
  /** The cXML version of the DOCTYPE and root; default `1.2.071`, the vendored DTDs. */
  readonly dtdVersion?: string;
}

/**
 * The DTD module that defines a document: cXML.dtd, Fulfill.dtd for confirmations and ship notices, or
 * InvoiceDetail.dtd for invoices.
 */
export type CxmlDtdModule = 'cXML' | 'Fulfill' | 'InvoiceDetail';

export const DEFAULT_CXML_VERSION = '1.2.071';
const VERSION = /^\d+\.\d+\.\d{3}$/;
const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

/** Check a caller's timestamp and put it in cXML form; misuse is a programming error, hence TypeError. */
export function cxmlTimestampAttribute(value: Date | string, field: string): string {
  if (value instanceof Date) return formatCxmlTimestamp(value);
  if (!STRICT_CXML_TIMESTAMP.test(value)) {
    throw new TypeError(`${field} must be a Date or YYYY-MM-DDThh:mm:ss±hh:mm, got "${value}"`);
  }
  return value;
}

/** The same for a date the caller may leave out: left out, the attribute is not written. */
export function optionalTimestampAttribute(
  value: Date | string | undefined,
  field: string,
): string | undefined {
  return value === undefined ? undefined : cxmlTimestampAttribute(value, field);
}

export function envelopeLang(envelope: CxmlEnvelopeInput): string {
  return languageTagAttribute(envelope.lang ?? 'en-US', 'lang');
}

/** An `xml:lang` value as given, checked to be a language tag; misuse is a programming error. */
export function languageTagAttribute(lang: string, field: string): string {
  if (!LANG.test(lang)) throw new TypeError(`${field} must be a language tag such as en-US, got "${lang}"`);
  return lang;
}

export function requireText(value: string | undefined, field: string): string {
  if (value === undefined || value.trim() === '') throw new TypeError(`${field} must not be empty`);
  return value;
}

function credentialElements(
  credentials: CxmlHeader['from'],
  party: string,
  withSecrets: boolean,
): XmlElementSpec[] {
  if (credentials.length === 0) throw new TypeError(`Header ${party} needs at least one credential`);
  return credentials.map((credential) => {
    if (credential.type !== undefined && credential.type !== 'marketplace') {
      throw new TypeError(`Credential type must be "marketplace", got "${credential.type}"`);
    }
    return el(
      'Credential',
      { domain: requireText(credential.domain, `${party} credential domain`), type: credential.type },
      el('Identity', {}, requireText(credential.identity, `${party} credential identity`)),
      withSecrets && credential.sharedSecret !== undefined && el('SharedSecret', {}, credential.sharedSecret),
    );
  });
}

/**
 * `<Header>`. Shared secrets are written only when `withSecrets` is set: a document that travels
 * through the user's browser (PunchOutOrderMessage) must not carry one.
 */
export function headerElement(header: CxmlHeader, withSecrets: boolean): XmlElementSpec {
  return el(
    'Header',
    {},
    el('From', {}, credentialElements(header.from, 'From', withSecrets)),
    el('To', {}, credentialElements(header.to, 'To', withSecrets)),
    el(
      'Sender',
      {},
      credentialElements(header.sender.credentials, 'Sender', withSecrets),
      el('UserAgent', {}, requireText(header.sender.userAgent, 'Sender userAgent')),
    ),
  );
}

/**
 * `<Request>` around a document sent to a buyer: `deploymentMode="test"` when it answers a test document,
 * and production left to the DTD's default, as buyers' systems write it.
 */
export function requestElement(deploymentMode: DeploymentMode | undefined, document: XmlElementSpec) {
  return el('Request', { deploymentMode: deploymentMode === 'test' ? 'test' : undefined }, document);
}

/** The whole document text: declaration, DOCTYPE and `<cXML>` around `body`. */
export function buildCxmlDocument(
  envelope: CxmlEnvelopeInput,
  dtd: CxmlDtdModule,
  body: readonly XmlContent[],
  options: SerializeOptions = {},
): string {
  const version = envelope.dtdVersion ?? DEFAULT_CXML_VERSION;
  if (!VERSION.test(version)) throw new TypeError(`dtdVersion must look like 1.2.071, got "${version}"`);
  const root = el(
    'cXML',
    {
      version,
      payloadID: requireText(envelope.payloadID, 'payloadID'),
      timestamp: cxmlTimestampAttribute(envelope.timestamp, 'timestamp'),
      'xml:lang': envelopeLang(envelope),
    },
    body,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/${version}/${dtd}.dtd">\n` +
    `${serializeXml(root, options)}\n`
  );
}
