/**
 * Background work (webhook deliveries) must outlive the answer. Node keeps running anyway; Workers need the
 * promise handed to `waitUntil`, which Hono exposes as `c.executionCtx` (a getter that throws elsewhere).
 */
import type { Context } from 'hono';
import type { KeepAlive } from '../webhooks.ts';

export function keepAliveOf(c: Context): KeepAlive | undefined {
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(work);
  } catch {
    return undefined;
  }
}
