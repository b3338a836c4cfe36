/**
 * Clicking through a punch-out as the buyer's user would, for the round-trip tests: the start URL, the
 * catalog, the sandbox's real editor form, the return, the cart and the hand-back form.
 */
import { expect } from 'vitest';
import { decodeEntities, findForms, findLinks, formBody, type HtmlForm } from './html-forms.ts';
import type { PunchoutSession } from '../../src/store/types.ts';
import { setupRequest } from './cxml-documents.ts';
import type { BrowserResponse, Stack } from './stack.ts';

/** Anything that can browse: the in-process stack, or a browser over real ports. */
type Browser = Pick<Stack, 'browse'>;

export function startUrlOf(setupResponse: string): string {
  const match = /<StartPage>\s*<URL>([^<]+)<\/URL>/.exec(setupResponse);
  if (!match?.[1]) throw new Error(`no StartPage in:\n${setupResponse}`);
  return decodeEntities(match[1]);
}

export function statusOf(response: string): { code: number; text: string; detail: string } {
  const match = /<Status code="(\d+)" text="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/Status>)/.exec(response);
  if (!match) throw new Error(`no Status in:\n${response}`);
  return {
    code: Number(match[1]),
    text: decodeEntities(match[2] ?? ''),
    detail: decodeEntities(match[3] ?? ''),
  };
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

export async function submit(
  stack: Browser,
  page: BrowserResponse,
  form: HtmlForm,
  edits: Record<string, string> = {},
) {
  const fields = form.fields.map(([name, value]): [string, string] => [name, edits[name] ?? value]);
  return stack.browse(new URL(form.action, page.url).toString(), {
    method: 'POST',
    body: formBody(fields),
    headers: FORM,
  });
}

/** From a page with the catalog, designs a product in the editor and returns to the cart. */
export async function designProduct(
  stack: Browser,
  catalog: BrowserResponse,
  productName: string,
  text: Record<string, string> = {},
  /** The link's words: "Design <name>" on an English catalog. */
  linkText = `Design ${productName}`,
): Promise<BrowserResponse> {
  const link = findLinks(catalog.text).find((l) => l.text === linkText);
  expect(link, `a "${linkText}" link on the catalog`).toBeDefined();
  const editor = await stack.browse(link?.href ?? '');
  return saveInEditor(stack, editor, text);
}

/** Saves the sandbox editor's form, with text fields changed; follows the redirect back to the gateway. */
export async function saveInEditor(
  stack: Browser,
  editor: BrowserResponse,
  text: Record<string, string> = {},
): Promise<BrowserResponse> {
  expect(editor.status, editor.text.slice(0, 500)).toBe(200);
  expect(editor.url).toContain('/editor/online-editor');
  const form = findForms(editor.text).find((f) => f.action.includes('save'));
  expect(form, 'the editor save form').toBeDefined();
  const edits = Object.fromEntries(Object.entries(text).map(([k, v]) => [`text.${k}`, v]));
  return submit(stack, editor, form as HtmlForm, edits);
}

export async function clickButton(
  stack: Browser,
  page: BrowserResponse,
  label: string,
): Promise<BrowserResponse> {
  const forms = findForms(page.text);
  const index = [...page.text.matchAll(/<form\b[\s\S]*?<\/form>/gi)].findIndex((m) =>
    m[0].includes(`>${label}</button>`),
  );
  expect(index, `a "${label}" button`).toBeGreaterThanOrEqual(0);
  return submit(stack, page, forms[index] as HtmlForm);
}

/** The cart page's quantity form of its first line, submitted with `quantity` ("Update"). */
export async function changeQuantity(
  stack: Browser,
  page: BrowserResponse,
  quantity: string,
): Promise<BrowserResponse> {
  const form = findForms(page.text).find((f) => f.fields.some(([name]) => name === 'quantity'));
  expect(form, 'a quantity form on the cart').toBeDefined();
  return submit(stack, page, form as HtmlForm, { quantity });
}

/** The hand-back form of a transfer or cancel page: where it posts and what. */
export function returnFormOf(page: BrowserResponse): HtmlForm {
  const form = findForms(page.text).find((f) => page.text.includes('data-autosubmit') && f.method === 'post');
  expect(form, 'an auto-submitting return form').toBeDefined();
  return form as HtmlForm;
}

export function cxmlFromForm(form: HtmlForm): string {
  const field = form.fields.find(([name]) => name.toLowerCase().startsWith('cxml-'));
  if (!field) throw new Error('no cxml-* field in the return form');
  if (field[0] === 'cxml-urlencoded') return field[1];
  return new TextDecoder().decode(Uint8Array.from(atob(field[1]), (c) => c.charCodeAt(0)));
}

/**
 * A fresh cXML punch-in of the default setup, opened to its catalog: the session's token and its stored
 * record, for benchmarks that then put lines into the cart through the store.
 */
export async function freshPunchIn(
  stack: Pick<Stack, 'browse' | 'postCxml' | 'gateway' | 'store'>,
): Promise<{ token: string; session: PunchoutSession }> {
  const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
  const token = /\/punchout\/s\/([^/]+)\/catalog/.exec(catalog.url)?.[1];
  if (catalog.status !== 200 || token === undefined) throw new Error(`no catalog: ${catalog.status}`);
  const ctx = stack.gateway.context;
  const { sid } = await ctx.tokens.verify(token, 'session', ctx.clock.now());
  const session = await stack.store.sessions.get(sid);
  if (session === undefined) throw new Error('no session');
  return { token, session };
}
