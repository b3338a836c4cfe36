/**
 * Sending an HTML page of ours: its Content-Security-Policy (hashes of its inline style and script) and
 * `no-store`, because every page holds a session token, a price or a buyer's address.
 */
import type { Context } from 'hono';
import { contentSecurityPolicy, type PageSecurity } from './layout.ts';

/** The statuses a page of ours is sent with. */
export type PageStatus = 200 | 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 429 | 500 | 502 | 503;

export async function sendPage(
  c: Context,
  body: string,
  security: PageSecurity,
  status: PageStatus = 200,
): Promise<Response> {
  c.header('Content-Security-Policy', await contentSecurityPolicy(security));
  c.header('Cache-Control', 'no-store');
  return c.html(body, status);
}
