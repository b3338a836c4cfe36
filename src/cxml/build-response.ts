/**
 * The synchronous answers punchgate gives on its cXML endpoint: a bare Status (every error, and the
 * 200 for an OrderRequest), a PunchOutSetupResponse with the one-time StartPage URL, and a
 * ProfileResponse listing the transactions punchgate accepts. Per cXML, a payload only ever follows a
 * 2xx Status.
 */
import {
  buildCxmlDocument,
  type CxmlEnvelopeInput,
  cxmlTimestampAttribute,
  optionalTimestampAttribute,
  requireText,
} from './envelope.ts';
import { el, type XmlElementSpec } from './xml-writer.ts';

export interface StatusInput {
  /** cXML status code: 200, 201, 204, 400, 401, 406, 450, 500… */
  readonly code: number;
  /** The code's canonical text (`OK`, `Bad Request`); the specifics go in `detail`. */
  readonly text: string;
  /** Free text in the Status element, e.g. the parse error. */
  readonly detail?: string;
}

export function statusElement(status: StatusInput, lang: string): XmlElementSpec {
  if (!Number.isInteger(status.code) || status.code < 100 || status.code > 999) {
    throw new TypeError(`Status code must be a three-digit integer, got ${status.code}`);
  }
  const detail = status.detail === undefined || status.detail === '' ? undefined : status.detail;
  return el(
    'Status',
    { code: status.code, text: requireText(status.text, 'Status text'), 'xml:lang': detail && lang },
    detail,
  );
}

function absoluteUrl(value: string, field: string): string {
  if (!URL.canParse(value)) throw new TypeError(`${field} must be an absolute URL, got "${value}"`);
  return value;
}

/**
 * `<Response><Status/></Response>`: the answer to a request that carries no payload back.
 *
 * @example
 * buildStatusResponse({ payloadID, timestamp: new Date(), code: 200, text: 'OK' });
 */
export function buildStatusResponse(input: CxmlEnvelopeInput & StatusInput): string {
  const lang = input.lang ?? 'en-US';
  return buildCxmlDocument(input, 'cXML', [el('Response', {}, statusElement(input, lang))]);
}

/** `<Response>` with `200 OK` and then its payload: per cXML, a payload only ever follows a 2xx Status. */
function buildOkResponse(input: CxmlEnvelopeInput, payload: XmlElementSpec): string {
  const lang = input.lang ?? 'en-US';
  return buildCxmlDocument(input, 'cXML', [
    el('Response', {}, statusElement({ code: 200, text: 'OK' }, lang), payload),
  ]);
}

export interface SetupResponseInput extends CxmlEnvelopeInput {
  /** The session's one-time start URL. */
  readonly startPageUrl: string;
}

/**
 * `200 OK` with `<PunchOutSetupResponse><StartPage><URL>`.
 *
 * @example
 * buildSetupResponse({ payloadID, timestamp: clock.now(), startPageUrl: 'https://gw.example/s/abc' });
 */
export function buildSetupResponse(input: SetupResponseInput): string {
  const startPage = el('StartPage', {}, el('URL', {}, absoluteUrl(input.startPageUrl, 'startPageUrl')));
  return buildOkResponse(input, el('PunchOutSetupResponse', {}, startPage));
}

export interface ProfileOption {
  readonly name: string;
  readonly value: string;
}

export interface ProfileTransaction {
  /** A request element name, e.g. `PunchOutSetupRequest`. */
  readonly requestName: string;
  readonly url: string;
  /** e.g. `{ name: 'operationAllowed', value: 'create edit inspect' }`. */
  readonly options?: readonly ProfileOption[];
}

export interface ProfileResponseInput extends CxmlEnvelopeInput {
  readonly transactions: readonly ProfileTransaction[];
  /** When these services became available; defaults to the document timestamp. */
  readonly effectiveDate?: Date | string;
  readonly lastRefresh?: Date | string;
  /** Options that apply to the whole profile. */
  readonly options?: readonly ProfileOption[];
}

const NMTOKEN = /^[A-Za-z0-9._:-]+$/;

function optionElements(options: readonly ProfileOption[] | undefined): XmlElementSpec[] {
  return (options ?? []).map((option) =>
    el('Option', { name: requireText(option.name, 'Option name') }, option.value),
  );
}

/**
 * `200 OK` with `<ProfileResponse>`: what punchgate accepts and where.
 *
 * @example
 * buildProfileResponse({ payloadID, timestamp, transactions: [
 *   { requestName: 'PunchOutSetupRequest', url, options: [{ name: 'operationAllowed', value: 'create edit inspect' }] },
 *   { requestName: 'OrderRequest', url },
 * ] });
 */
export function buildProfileResponse(input: ProfileResponseInput): string {
  if (input.transactions.length === 0)
    throw new TypeError('A ProfileResponse needs at least one transaction');
  const transactions = input.transactions.map((transaction) => {
    if (!NMTOKEN.test(transaction.requestName)) {
      throw new TypeError(`requestName must be an element name, got "${transaction.requestName}"`);
    }
    return el(
      'Transaction',
      { requestName: transaction.requestName },
      el('URL', {}, absoluteUrl(transaction.url, 'Transaction url')),
      optionElements(transaction.options),
    );
  });
  const profile = el(
    'ProfileResponse',
    {
      effectiveDate: cxmlTimestampAttribute(input.effectiveDate ?? input.timestamp, 'effectiveDate'),
      lastRefresh: optionalTimestampAttribute(input.lastRefresh, 'lastRefresh'),
    },
    optionElements(input.options),
    transactions,
  );
  return buildOkResponse(input, profile);
}
