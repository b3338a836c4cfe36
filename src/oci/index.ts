/**
 * punchgate's SAP OCI 4.0/5.0 codec: pure functions from punch-in request bytes to a typed OciPunchIn, and
 * from cart lines to the NEW_ITEM-* transfer page in the buyer's charset. No I/O; Web APIs only.
 *
 * @example
 * import { acceptOciPunchIn, buildOciItems, encodeHtml, renderOciTransferForm } from './oci/index.ts';
 */

export { charsetLabel, type OciCharset, parseCharsetLabel } from './charset.ts';
export { encodeHtml } from './encode-html.ts';
export { OciError, type OciErrorCode } from './error.ts';
export { checkHookUrl, type HookUrlPolicy, isHookUrlHostPattern } from './hook-url.ts';
export {
  buildOciItems,
  OCI_FIELD_LENGTHS,
  type OciCartLine,
  type OciFormField,
  type OciItemsOptions,
} from './new-items.ts';
export { ociParamValue, ociParamValues, receivedParamName } from './params.ts';
export { DEFAULT_OCI_PARSE_LIMITS } from './parse-limits.ts';
export {
  acceptOciPunchIn,
  type OciBuyerSettings,
  type OciParseOptions,
  type OciPunchIn,
  type OciPunchInRequest,
  parsePunchInRequest,
  verifyOciLogin,
} from './punch-in.ts';
export {
  OCI_AUTO_SUBMIT_SCRIPT,
  OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE,
  type OciPageLabels,
  renderOciSearchResults,
  renderOciTransferForm,
} from './transfer-form.ts';
