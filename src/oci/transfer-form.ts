/**
 * The HTML pages that hand an OCI cart to the buyer: the transfer page (a form posting NEW_ITEM-* fields to
 * HOOK_URL, submitted by a script or by the user's click) and the BACKGROUND_SEARCH result page (the same
 * form, never submitted, which SAP fetches server to server and reads the inputs of).
 *
 * Both pages work without scripts and cookies, carry `<meta charset>` and `accept-charset` in the buyer's
 * charset, escape every value, and contain no inline style or event handler, so they run under
 * `default-src 'none'; script-src 'sha256-…'` with OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE. Do not add a
 * `form-action` directive: browsers apply it to redirects after the post, and SAP systems redirect.
 * Serialise with encodeHtml(page, charset) and send `Content-Type: text/html; charset=<label>`.
 */

import { charsetLabel, type OciCharset } from './charset.ts';
import { escapeHtml } from '../kernel/html-escape.ts';
import type { OciFormField } from './new-items.ts';

/** The form's id, which the auto-submit script looks up. */
const FORM_ID = 'oci-transfer';

/**
 * The whole inline auto-submit script. It calls the prototype's submit so that a field named `submit` could
 * never shadow it.
 */
export const OCI_AUTO_SUBMIT_SCRIPT = `HTMLFormElement.prototype.submit.call(document.getElementById("${FORM_ID}"));`;

/**
 * CSP source expression for OCI_AUTO_SUBMIT_SCRIPT (base64 SHA-256 of its UTF-8 bytes; a test recomputes it).
 *
 * @example
 * headers.set('content-security-policy', `default-src 'none'; script-src ${OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE}; base-uri 'none'`);
 */
export const OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE = "'sha256-Qgw5p8592X9awJAKa3GFmRHFqOcyhC5SQceJJIP3gv4='";

/** Visible texts of the pages, for buyers whose users do not read English. */
export interface OciPageLabels {
  readonly title: string;
  readonly notice: string;
  readonly submit: string;
}

const TRANSFER_LABELS: OciPageLabels = {
  title: 'Returning your cart',
  notice: 'Your cart is being returned to your procurement system. If nothing happens, press the button.',
  submit: 'Return cart',
};

const SEARCH_LABELS: OciPageLabels = {
  title: 'Search results',
  notice: 'Catalog items found for your search.',
  submit: 'Transfer these items',
};

export interface OciTransferFormInput {
  /** The HOOK_URL stored at punch-in, exactly as received. */
  readonly hookUrl: string;
  /** NEW_ITEM-* fields from buildOciItems. */
  readonly fields: readonly OciFormField[];
  /** Form target; default `_top`. Pass OciPunchIn.formTarget. */
  readonly target?: string;
  readonly charset: OciCharset;
  /** `~OkCode`, `~TARGET`, `~CALLER`, `returntarget` as received (OciPunchIn.echoFields); posted after the items. */
  readonly echoFields?: readonly OciFormField[];
  /** Submit the form on load (transfer, VALIDATE); the button stays for browsers without scripts. */
  readonly autoSubmit: boolean;
  /** A CSP nonce for the script element, when the page's policy uses nonces instead of the hash. */
  readonly scriptNonce?: string;
  readonly labels?: Partial<OciPageLabels>;
  /** Value of `<html lang>`; default en. */
  readonly lang?: string;
}

/**
 * Renders the page that posts the cart to HOOK_URL.
 *
 * @example
 * const fields = buildOciItems(cart.lines, { charset: punchIn.charset, unitMap: buyer.unitMap });
 * const page = renderOciTransferForm({
 *   hookUrl: session.hookUrl,
 *   fields,
 *   target: session.formTarget,
 *   echoFields: session.echoFields,
 *   charset: punchIn.charset,
 *   autoSubmit: true,
 * });
 * return new Response(encodeHtml(page, punchIn.charset), {
 *   headers: { 'content-type': `text/html; charset=${charsetLabel(punchIn.charset)}`, 'cache-control': 'no-store' },
 * });
 */
export function renderOciTransferForm(input: OciTransferFormInput): string {
  const labels = { ...TRANSFER_LABELS, ...input.labels };
  const script = input.autoSubmit
    ? `<script${input.scriptNonce === undefined ? '' : ` nonce="${escapeHtml(input.scriptNonce)}"`}>${OCI_AUTO_SUBMIT_SCRIPT}</script>\n`
    : '';
  return renderPage(input, labels, '', script);
}

/** The transfer form's input without auto-submit, plus the search string the result table is captioned with. */
export interface OciSearchResultsInput extends Omit<OciTransferFormInput, 'autoSubmit' | 'scriptNonce'> {
  readonly searchString: string;
}

/**
 * Renders the BACKGROUND_SEARCH answer: a form with every hit's NEW_ITEM-* fields (SAP reads the inputs of
 * the fetched page) plus a readable table of the hits. Never submitted by itself; no script, no cookie.
 *
 * @example
 * const fields = buildOciItems(hits, { charset: punchIn.charset });
 * const page = renderOciSearchResults({
 *   hookUrl: punchIn.hookUrl,
 *   fields,
 *   charset: punchIn.charset,
 *   searchString: punchIn.searchString ?? '',
 * });
 */
export function renderOciSearchResults(input: OciSearchResultsInput): string {
  const labels = { ...SEARCH_LABELS, ...input.labels };
  return renderPage(input, labels, renderResultTable(input.fields, input.searchString), '');
}

function renderPage(
  input: Omit<OciTransferFormInput, 'autoSubmit'>,
  labels: OciPageLabels,
  beforeForm: string,
  afterForm: string,
): string {
  const label = charsetLabel(input.charset);
  const target = input.target === undefined || input.target.trim() === '' ? '_top' : input.target.trim();
  const inputs = [...input.fields, ...(input.echoFields ?? [])]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">\n`)
    .join('');
  return (
    '<!DOCTYPE html>\n' +
    `<html lang="${escapeHtml(input.lang ?? 'en')}">\n` +
    '<head>\n' +
    `<meta charset="${label}">\n` +
    '<meta name="referrer" content="origin">\n' +
    '<meta name="robots" content="noindex">\n' +
    `<title>${escapeHtml(labels.title)}</title>\n` +
    '</head>\n' +
    '<body>\n' +
    `<p>${escapeHtml(labels.notice)}</p>\n` +
    beforeForm +
    `<form id="${FORM_ID}" method="post" action="${escapeHtml(input.hookUrl)}" accept-charset="${label}" target="${escapeHtml(target)}">\n` +
    inputs +
    `<button type="submit">${escapeHtml(labels.submit)}</button>\n` +
    '</form>\n' +
    afterForm +
    '</body>\n' +
    '</html>\n'
  );
}

const TABLE_COLUMNS = ['DESCRIPTION', 'VENDORMAT', 'QUANTITY', 'UNIT', 'PRICE', 'CURRENCY'] as const;

function renderResultTable(fields: readonly OciFormField[], searchString: string): string {
  const items = new Map<string, Map<string, string>>();
  for (const [name, value] of fields) {
    const match = /^NEW_ITEM-([A-Z0-9_]+)\[(\d+)\]$/.exec(name);
    if (!match) continue;
    const item = items.get(match[2]!) ?? new Map<string, string>();
    item.set(match[1]!, value);
    items.set(match[2]!, item);
  }
  const header = `<tr>${TABLE_COLUMNS.map((column) => `<th>${column}</th>`).join('')}</tr>\n`;
  const rows = [...items.values()]
    .map(
      (item) =>
        `<tr>${TABLE_COLUMNS.map((column) => `<td>${escapeHtml(item.get(column) ?? '')}</td>`).join('')}</tr>\n`,
    )
    .join('');
  return `<table>\n<caption>${escapeHtml(searchString)} (${items.size})</caption>\n${header}${rows}</table>\n`;
}
