/**
 * Reading forms out of HTML the way a browser would submit them, for tests that click through pages.
 * Good enough for the pages of this project: attributes in double quotes, inputs and buttons only.
 */

export interface HtmlForm {
  action: string;
  method: string;
  target?: string;
  acceptCharset?: string;
  fields: [string, string][];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return ENTITIES[lower] ?? whole;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

export function findForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const tag = match[1] ?? '';
    const inner = match[2] ?? '';
    const fields: [string, string][] = [];
    const controls =
      /<input\b([^>]*)>|<textarea\b([^>]*)>([\s\S]*?)<\/textarea>|<select\b([^>]*)>([\s\S]*?)<\/select>/gi;
    for (const control of inner.matchAll(controls)) {
      if (control[1] !== undefined) {
        const attrs = control[1];
        const name = attribute(attrs, 'name');
        const type = (attribute(attrs, 'type') ?? 'text').toLowerCase();
        if (name === undefined || type === 'submit') continue;
        if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/i.test(attrs)) continue;
        fields.push([name, attribute(attrs, 'value') ?? (type === 'checkbox' ? 'on' : '')]);
      } else if (control[2] !== undefined) {
        const name = attribute(control[2], 'name');
        if (name !== undefined) fields.push([name, decodeEntities(control[3] ?? '')]);
      } else {
        const name = attribute(control[4] ?? '', 'name');
        const options = [...(control[5] ?? '').matchAll(/<option\b([^>]*)>/gi)].map((o) => o[1] ?? '');
        const chosen = options.find((o) => /\sselected\b/i.test(o)) ?? options[0];
        if (name !== undefined && chosen !== undefined) fields.push([name, attribute(chosen, 'value') ?? '']);
      }
    }
    const form: HtmlForm = {
      action: attribute(tag, 'action') ?? '',
      method: (attribute(tag, 'method') ?? 'get').toLowerCase(),
      fields,
    };
    const target = attribute(tag, 'target');
    if (target !== undefined) form.target = target;
    const acceptCharset = attribute(tag, 'accept-charset');
    if (acceptCharset !== undefined) form.acceptCharset = acceptCharset;
    forms.push(form);
  }
  return forms;
}

export function findLinks(html: string): { href: string; text: string }[] {
  return [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi)].map((m) => ({
    href: decodeEntities(m[1] ?? ''),
    text: decodeEntities((m[2] ?? '').replace(/<[^>]+>/g, '').trim()),
  }));
}

export function formBody(fields: readonly (readonly [string, string])[]): string {
  return new URLSearchParams(fields.map(([k, v]) => [k, v])).toString();
}
