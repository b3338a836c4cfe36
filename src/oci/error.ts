/**
 * The one error type of the OCI codec. Every failure of parsing a punch-in, checking a HOOK_URL or building
 * the NEW_ITEM-* fields carries a stable `code` the gateway maps to an HTML error page, and `param` names
 * the offending request parameter or form field so the page can say what to fix.
 *
 * Messages never contain the value of a login field.
 */

export type OciErrorCode =
  /** The punch-in used a method other than GET or POST. */
  | 'bad_method'
  /** A POST body came with a content type other than urlencoded or multipart form data. */
  | 'unsupported_content_type'
  /** The body could not be read as the form encoding its content type announced. */
  | 'malformed_body'
  /** The body or query string is bigger than the parse limits allow. */
  | 'body_too_large'
  /** More parameters than the parse limits allow. */
  | 'too_many_params'
  /** A parameter name or value is bigger than the parse limits allow. */
  | 'param_too_large'
  /** The buyer's configured login field names are unusable (empty or clashing). */
  | 'bad_login_fields'
  /** The user name or password parameter is missing or empty. */
  | 'missing_login'
  /** The user name or password does not match the buyer's. */
  | 'bad_login'
  /** HOOK_URL (or the buyer's name for it) is missing or empty. */
  | 'missing_hook_url'
  /** HOOK_URL is not an absolute URL, or hides whitespace, control characters or backslashes. */
  | 'hook_url_malformed'
  /** HOOK_URL uses a scheme the buyer does not allow (javascript:, data:, SAPEVENT: when not enabled…). */
  | 'hook_url_scheme'
  /** HOOK_URL points at a host outside the buyer's hookUrlHosts, or carries user information. */
  | 'hook_url_not_allowed'
  /** FUNCTION has a value the codec does not know. */
  | 'bad_function'
  /** DETAIL, DETAILADD or VALIDATE came without PRODUCTID. */
  | 'missing_product_id'
  /** BACKGROUND_SEARCH came without SEARCHSTRING. */
  | 'missing_search_string'
  /** A quantity (VALIDATE's QUANTITY or a cart line's) is not a positive decimal SAP can hold. */
  | 'bad_quantity'
  /** A cart line's price is not a non-negative decimal that fits NEW_ITEM-PRICE. */
  | 'bad_price'
  /** A cart line's price unit is not a whole number from 1 to 99999. */
  | 'bad_price_unit'
  /** A cart line's lead time is not a number of days from 0 to 99999. */
  | 'bad_lead_time'
  /** A cart line lacks a required value or references an unknown parent. */
  | 'bad_line'
  /** A NEW_ITEM-* value is longer than its SAP field and may not be cut. */
  | 'field_too_long'
  /** More cart lines than SAP's five-digit item number can address. */
  | 'too_many_items';

export class OciError extends Error {
  override readonly name = 'OciError';
  readonly code: OciErrorCode;
  /** The request parameter or NEW_ITEM-* field the error is about, as named in the request or form. */
  readonly param: string | undefined;

  constructor(code: OciErrorCode, message: string, param?: string) {
    super(message);
    this.code = code;
    this.param = param;
  }
}
