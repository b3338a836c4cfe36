/**
 * Reading the gateway's synchronous answer: a cXML `<Response>` with its `<Status>` (code, text, and the
 * detail text inside it) and, for a setup request, the `PunchOutSetupResponse/StartPage/URL`.
 */

import type { StatusAnswer } from './requisition.ts';
import { SimulatorError } from './simulator-error.ts';
import { attr, first, path, readCxmlRoot, text } from './xml-reader.ts';

export interface CxmlAnswer {
  readonly status: StatusAnswer;
  readonly startPageUrl?: string;
}

/**
 * @example
 * const answer = readCxmlResponse(await response.text());
 * if (answer.status.code === 200) iframe.src = answer.startPageUrl;
 */
export function readCxmlResponse(xml: string): CxmlAnswer {
  const root = readCxmlRoot(xml);
  const response = first(root, 'Response');
  if (response === undefined) {
    throw new SimulatorError('unexpected_document', 'The answer is cXML but holds no <Response>.');
  }
  const status = first(response, 'Status');
  if (status === undefined) throw new SimulatorError('missing_field', 'The Response has no <Status>.');
  const code = Number(attr(status, 'code'));
  if (!Number.isInteger(code)) throw new SimulatorError('missing_field', 'The Status has no numeric code.');
  const startPage = text(path(response, 'PunchOutSetupResponse', 'StartPage', 'URL')).trim();
  return {
    status: { code, text: attr(status, 'text') ?? '', detail: text(status).trim() },
    ...(startPage !== '' && { startPageUrl: startPage }),
  };
}
