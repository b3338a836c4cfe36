/**
 * The CSV exports in the console: `GET /admin/ui/export/{orders|invoices|refusals}.csv?from&to&buyer`, the admin
 * API's downloads (csv-exports.ts) under the console session, and the links to them, which carry the
 * buyer and days the PO list is filtered by.
 */
import type { Hono } from 'hono';
import type { GatewayContext } from '../../context.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { parsed } from '../admin-openapi.ts';
import { ExportQuery } from '../admin-schemas.ts';
import { EXPORTS, type ExportKind, exportResponse } from '../csv-exports.ts';
import type { ConsoleEnv } from './session.ts';

const LABELS: Readonly<Record<ExportKind, string>> = {
  orders: 'Purchase orders (CSV)',
  invoices: 'Invoices (CSV)',
  refusals: 'Refusals (CSV)',
};

/** The export links for a buyer and window (each empty: every buyer, no bound), as the list filters them. */
export function exportLinks(filter: { buyer: string; from: string; to: string }): SafeHtml {
  const params = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ''));
  const query = params.size === 0 ? '' : `?${params.toString()}`;
  const scope = [
    filter.buyer === '' ? 'every buyer' : `buyer ${filter.buyer}`,
    filter.from === '' && filter.to === ''
      ? 'all dates'
      : `${filter.from || 'the start'} to ${filter.to || 'now'}`,
  ].join(', ');
  const links = EXPORTS.map(
    (kind) => html`<a href="/admin/ui/export/${kind}.csv${query}" download>${LABELS[kind]}</a>`,
  );
  return html`<p class="exports">Export for accounting (${scope}): ${links.map((link, i) => (i === 0 ? link : html` · ${link}`))}</p>`;
}

export function mountExportRoutes(app: Hono<ConsoleEnv>, ctx: GatewayContext): void {
  for (const kind of EXPORTS) {
    app.get(`/ui/export/${kind}.csv`, (c) =>
      exportResponse(
        ctx,
        kind,
        parsed(ExportQuery, {
          from: c.req.query('from'),
          to: c.req.query('to'),
          buyer: c.req.query('buyer'),
        }),
      ),
    );
  }
}
