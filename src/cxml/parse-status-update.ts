/**
 * `StatusUpdateRequest` (Fulfill.dtd): `(DocumentReference?, Status, (PaymentStatus | SourcingStatus |
 * InvoiceStatus | DocumentStatus | IntegrationStatus)?, Extrinsic*)`. What punchgate acts on is the Status
 * and an InvoiceStatus; the other status elements are accepted and left unread (their Status says it).
 */
import { CxmlError } from './error.ts';
import { readExtrinsics } from './extrinsics.ts';
import { readComments } from './read-item-out.ts';
import { readMoney } from './read-money.ts';
import {
  INVOICE_STATUS_TYPES,
  type InvoiceStatus,
  type InvoiceStatusType,
  type ReportedStatus,
  type StatusUpdateRequest,
} from './request-types.ts';
import { readTimestampValue } from './timestamp.ts';
import { attr, child, requiredAttr, text, type XmlNode } from './xml-node.ts';

type StatusUpdateFields = Pick<
  StatusUpdateRequest,
  'kind' | 'documentPayloadID' | 'status' | 'invoiceStatus' | 'extrinsics'
>;

const STATUS_CODE = /^\d{1,3}$/;

function readStatus(node: XmlNode): ReportedStatus {
  const status = child(node, 'Status');
  if (status === undefined) throw new CxmlError('missing_field', 'StatusUpdateRequest has no Status');
  const code = requiredAttr(status, 'code', 'StatusUpdateRequest/Status');
  if (!STATUS_CODE.test(code)) {
    throw new CxmlError('invalid_value', `StatusUpdateRequest/Status code "${code}" is not a status code`);
  }
  return { code: Number(code), text: attr(status, 'text') ?? '', message: text(status) };
}

function isInvoiceStatusType(value: string): value is InvoiceStatusType {
  return (INVOICE_STATUS_TYPES as readonly string[]).includes(value);
}

function optionalTimestamp(node: XmlNode | undefined, name: string) {
  const raw = attr(node, name);
  return raw === undefined || raw === '' ? undefined : readTimestampValue(raw);
}

function readInvoiceStatus(node: XmlNode | undefined): InvoiceStatus | undefined {
  if (node === undefined) return undefined;
  const type = requiredAttr(node, 'type', 'InvoiceStatus');
  if (!isInvoiceStatusType(type)) {
    throw new CxmlError(
      'invalid_value',
      `InvoiceStatus type "${type}" is not one of ${INVOICE_STATUS_TYPES.join(', ')}`,
    );
  }
  const idInfo = child(node, 'InvoiceIDInfo');
  const invoiceID =
    idInfo === undefined ? undefined : requiredAttr(idInfo, 'invoiceID', 'InvoiceStatus/InvoiceIDInfo');
  const invoiceDate = optionalTimestamp(idInfo, 'invoiceDate');
  const partial = child(node, 'PartialAmount');
  const paymentNetDueDate = optionalTimestamp(node, 'paymentNetDueDate');
  return {
    type,
    ...(invoiceID !== undefined && { invoiceID }),
    ...(invoiceDate !== undefined && { invoiceDate }),
    ...(partial !== undefined && { partialAmount: readMoney(partial, 'InvoiceStatus/PartialAmount') }),
    ...(paymentNetDueDate !== undefined && { paymentNetDueDate }),
    comments: readComments(node),
  };
}

/** The fields of a StatusUpdateRequest, or a `CxmlError` naming the element at fault. */
export function readStatusUpdateRequest(node: XmlNode): StatusUpdateFields {
  const reference = child(node, 'DocumentReference');
  const documentPayloadID =
    reference === undefined
      ? undefined
      : requiredAttr(reference, 'payloadID', 'StatusUpdateRequest/DocumentReference');
  const status = readStatus(node);
  const invoiceStatus = readInvoiceStatus(child(node, 'InvoiceStatus'));
  if (documentPayloadID === undefined && invoiceStatus?.invoiceID === undefined) {
    throw new CxmlError(
      'missing_field',
      'StatusUpdateRequest has no DocumentReference (it may be left out only for an InvoiceStatus with InvoiceIDInfo)',
    );
  }
  return {
    kind: 'StatusUpdateRequest',
    ...(documentPayloadID !== undefined && { documentPayloadID }),
    status,
    ...(invoiceStatus !== undefined && { invoiceStatus }),
    extrinsics: readExtrinsics(node),
  };
}
