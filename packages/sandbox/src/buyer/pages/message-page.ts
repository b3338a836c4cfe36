/**
 * A short page for what has no requisition to show it on: an unknown requisition, a form that is
 * missing a choice. It too lifts itself out of the catalog frame.
 */
import { html } from 'hono/html';
import type { SimulatorContext } from '../simulator-context.ts';
import { type Html, layout } from './layout.ts';

export function renderMessagePage(ctx: SimulatorContext, title: string, message: string): Html {
  return layout({
    title,
    homeUrl: ctx.publicUrl,
    breakout: true,
    body: html`<h1>${title}</h1><div class="notice error" role="alert">${message}</div><p><a href="${ctx.publicUrl}">Back to the simulator's home</a></p>`,
  });
}
