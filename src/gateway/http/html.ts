/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already `SafeHtml`.
 * Pages never concatenate strings into markup by hand, so a buyer name, an extrinsic or a design name can
 * only ever reach a page as text.
 */
import { escapeHtml } from '../../kernel/html-escape.ts';

/** Markup that is known to be safe: produced by `html` or deliberately marked with `trustedHtml`. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * @example
 * const page = html`<p>Hello ${buyerName}</p>`; // buyerName is escaped
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Marks a constant string (never user data) as markup, e.g. an inline script whose hash is in the CSP. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
