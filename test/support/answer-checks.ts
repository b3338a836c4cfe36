/**
 * What every gateway answer must be, however bad the request: a well-formed cXML Response with a Status
 * (HTTP 200, as buyers require), a clear HTML page under 500 with the security headers, or a redirect to
 * our own pages or the print service's editor. Never a stack trace.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { GATEWAY_ORIGIN, SANDBOX_ORIGIN } from './stack.ts';

export class AnswerProblem extends Error {}

const STACK_TRACE = /\bat \S+ \(|\.ts:\d+:\d+|node:internal|TypeError|ReferenceError/;

const reader = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

function fail(message: string, body: string): never {
  throw new AnswerProblem(`${message}\n--- answer ---\n${body.slice(0, 800)}`);
}

/** Checks a POST /cxml answer and returns its Status code. */
export async function checkCxmlAnswer(res: Response): Promise<number> {
  const body = await res.text();
  if (res.status !== 200) fail(`HTTP ${res.status}, not 200`, body);
  if (!/^text\/xml\b/.test(res.headers.get('Content-Type') ?? '')) fail('not text/xml', body);
  if (STACK_TRACE.test(body)) fail('a stack trace or error name in the answer', body);
  const valid = XMLValidator.validate(body);
  if (valid !== true) fail(`not well-formed XML: ${valid.err.msg}`, body);
  const status = reader.parse(body)?.cXML?.Response?.Status;
  const code = Number(status?.['@code']);
  if (!Number.isInteger(code) || typeof status?.['@text'] !== 'string') fail('no cXML Response/Status', body);
  return code;
}

/** Checks a browser-facing answer: a redirect to us or the editor, or a clear page. Returns the status. */
export async function checkPageAnswer(res: Response): Promise<number> {
  if (res.status >= 300 && res.status < 400) {
    const location = res.headers.get('Location') ?? '';
    const allowed = [`${GATEWAY_ORIGIN}/punchout/`, `${GATEWAY_ORIGIN}/oci/s/`, `${SANDBOX_ORIGIN}/editor/`];
    if (!allowed.some((prefix) => location.startsWith(prefix))) {
      fail(`redirect to ${location}`, '');
    }
    return res.status;
  }
  const body = await res.text();
  if (res.status >= 500) fail(`HTTP ${res.status}`, body);
  if (!/^text\/html\b/.test(res.headers.get('Content-Type') ?? '')) fail('not text/html', body);
  if (!/^<!doctype html>/i.test(body) || !/<(h1|form)\b/.test(body)) fail('not a page', body);
  if (STACK_TRACE.test(body)) fail('a stack trace or error name on the page', body);
  for (const header of ['Content-Security-Policy', 'X-Content-Type-Options', 'Referrer-Policy']) {
    if (!res.headers.get(header)) fail(`no ${header} header`, body);
  }
  return res.status;
}

/**
 * A page holding one hand-back form is exactly its own markup: one form, at most one script (the hashed
 * auto-submit), and no input tag broken open by a value.
 */
export function expectEscapedFormPage(page: string): void {
  if ((page.match(/<script\b/gi)?.length ?? 0) > 1) fail('more than one script element', page);
  if (page.match(/<form\b/gi)?.length !== 1) fail('not exactly one form', page);
  for (const tag of page.match(/<input\b[^>]*>/gi) ?? []) {
    if (!/^<input( [a-z-]+="[^"<>]*")*\s*\/?>$/i.test(tag)) fail(`an input tag broken open: ${tag}`, page);
  }
}
