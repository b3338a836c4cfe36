/**
 * punchgate's pure cXML codec: lenient reading of what buyers send, strict building of what punchgate
 * sends. Web APIs only, so it runs unchanged on Node and on Workers.
 */
export type {
  ChargeInput,
  MoneyInput,
  OrderReferenceInput,
  PriceBasisInput,
} from './build-common-elements.ts';
export {
  buildConfirmationRequest,
  type ConfirmationItemInput,
  type ConfirmationRequestInput,
  type ConfirmationStatusInput,
  type ConfirmationStatusType,
  type ConfirmationType,
} from './build-confirmation.ts';
export {
  buildInvoiceDetailRequest,
  type InvoiceDetailRequestInput,
  type InvoiceDistributionInput,
  type InvoiceIdReferenceInput,
  type InvoiceLineInput,
  type InvoicePartnerAddress,
  type InvoicePartnerInput,
  type InvoicePurpose,
  type InvoiceSummaryInput,
  type InvoiceTaxAt,
  type InvoiceTaxExemptionInput,
  type InvoiceTaxInput,
  type OriginalInvoiceInput,
} from './build-invoice.ts';
export {
  buildNoChangeOrderMessage,
  buildOrderMessage,
  type NoChangeOrderMessageInput,
  type OrderMessageInput,
  type OrderMessageLine,
} from './build-order-message.ts';
export { buildCatalogIndex, type CatalogIndexInput, type IndexPunchoutItem } from './build-index.ts';
export {
  buildProfileResponse,
  buildSetupResponse,
  buildStatusResponse,
  type ProfileOption,
  type ProfileResponseInput,
  type ProfileTransaction,
  type SetupResponseInput,
  type StatusInput,
} from './build-response.ts';
export {
  buildShipNoticeRequest,
  type ShipNoticeCarrier,
  type ShipNoticeLine,
  type ShipNoticeRequestInput,
} from './build-ship-notice.ts';
export { type CxmlDtdModule, type CxmlEnvelopeInput, DEFAULT_CXML_VERSION } from './envelope.ts';
export { CXML_ERROR_CODES, CxmlError, type CxmlErrorCode, isCxmlError } from './error.ts';
export { extrinsicValue } from './extrinsics.ts';
export {
  assertReferencedPartsPresent,
  type CxmlMessage,
  cxmlPartInHead,
  type MimeAttachment,
  type MultipartFraming,
  multipartFraming,
  readCxmlMessage,
} from './mime-message.ts';
export { type CxmlParseLimits, type CxmlParseOptions, DEFAULT_PARSE_LIMITS } from './parse-options.ts';
export { parseCxmlRequest } from './parse-request.ts';
export { HEADER_SCAN_CHARS, type PeekedDocument, peekCxmlHeader, wholeTags } from './peek-header.ts';
export { newPayloadId } from './payload-id.ts';
export { credentialsInDomain } from './read-header.ts';
export { type ConfirmationRead, readConfirmationRequest } from './read-confirmation.ts';
export { readShipNoticeLineNumbers } from './read-ship-notice.ts';
export { redactSharedSecrets, withSharedSecret } from './shared-secret.ts';
export * from './request-types.ts';
export { type CxmlStatus, cxmlStatusFor } from './status.ts';
export { type CxmlTimestamp, formatCxmlTimestamp, parseCxmlTimestamp } from './timestamp.ts';
export { decodeXmlText } from './xml-node.ts';
export { el, serializeXml, type XmlElementSpec } from './xml-writer.ts';
