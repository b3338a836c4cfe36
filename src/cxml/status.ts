/**
 * The single table from a `CxmlError` code to the cXML `<Status code text>` punchgate answers with.
 *
 * cXML wants an HTTP 200 carrying a cXML Status for every request, even a rejected one, because buyers
 * retry anything else for hours. The codes are the standard cXML ones:
 * - 406 Not Acceptable ("unacceptable, likely a parse failure"; Coupa uses it for "could not parse")
 *   for every document punchgate refused to read: malformed XML, a root that is not cXML, entity
 *   declarations, nesting over the cap, and documents over the size cap. cXML has no "too large" code
 *   (413 is HTTP only, 499 "Document size error" belongs to catalog uploads), and a document we refuse
 *   to parse is exactly what 406 describes; buyers such as Coupa do not retry 4xx, which is right here.
 *   A `multipart/related` message whose framing or parts cannot be read (`bad_mime`) is the same case.
 * - 400 Bad Request ("parsed correctly, but unacceptable") for a cXML document with no Request, a
 *   required field missing, or a value that cannot be read.
 * - 450 Not Implemented for a well-formed request punchgate does not handle (cXML 1.2 replaced 501 by 450).
 * The specific reason goes in the Status element's content (`error.message`), not in `text`, which is
 * the canonical wording of the code.
 */
import type { CxmlError, CxmlErrorCode } from './error.ts';

export interface CxmlStatus {
  readonly code: number;
  readonly text: string;
}

const NOT_ACCEPTABLE: CxmlStatus = { code: 406, text: 'Not Acceptable' };
const BAD_REQUEST: CxmlStatus = { code: 400, text: 'Bad Request' };
const NOT_IMPLEMENTED: CxmlStatus = { code: 450, text: 'Not Implemented' };

function statusForCode(code: CxmlErrorCode): CxmlStatus {
  switch (code) {
    case 'too_large':
    case 'bad_mime':
    case 'malformed':
    case 'entity_forbidden':
    case 'too_deep':
    case 'not_cxml':
      return NOT_ACCEPTABLE;
    case 'no_request':
    case 'missing_field':
    case 'invalid_value':
      return BAD_REQUEST;
    case 'unsupported_request':
      return NOT_IMPLEMENTED;
  }
}

/**
 * The cXML Status that answers a rejected document.
 *
 * @example
 * const { code, text } = cxmlStatusFor(error); // { code: 406, text: 'Not Acceptable' }
 * buildStatusResponse({ payloadID, timestamp, code, text, detail: error.message });
 */
export function cxmlStatusFor(error: Pick<CxmlError, 'code'>): CxmlStatus {
  return statusForCode(error.code);
}
