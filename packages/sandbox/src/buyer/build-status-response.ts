/**
 * The simulator's answer to a document the supplier posts to its order-status endpoint: a bare cXML
 * Response with a Status, and the reason as the Status text content when the code is not 2xx.
 */
import { el } from 'punchgate/cxml';
import { writeBuyerDocument } from './cxml-document.ts';
import type { CxmlDocumentStyle } from './profiles.ts';
import type { StatusAnswer } from './requisition.ts';

export interface StatusResponseInput {
  readonly style: CxmlDocumentStyle;
  readonly payloadID: string;
  readonly timestamp: Date;
  readonly status: StatusAnswer;
}

export function buildStatusResponse(input: StatusResponseInput): string {
  const { status } = input;
  return writeBuyerDocument({
    style: input.style,
    payloadID: input.payloadID,
    timestamp: input.timestamp,
    body: el(
      'Response',
      {},
      el(
        'Status',
        { code: status.code, text: status.text, 'xml:lang': input.style.lang },
        status.detail === '' ? undefined : status.detail,
      ),
    ),
  });
}
