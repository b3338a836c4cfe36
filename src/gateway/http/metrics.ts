/**
 * What the gateway did and how its order flow stands, served as Prometheus text at `GET /metrics`.
 *
 * Counters (cXML answers, sessions, carts, print-service calls with their latency) live in memory per
 * process: a scraper sums the instances. The order-flow figures (POs, jobs and outbox messages by state,
 * the oldest PO not yet a print order) are read from the store at scrape time, so every instance reports
 * the same shared truth and nothing drifts. Counts and ages only — no buyer data, no secrets, no tokens.
 * docs/operations.md lists every metric with its meaning.
 */
import type { FetchLike } from '../../print-api/transport.ts';
import type { StoreStats } from '../../store/types.ts';

type Labels = Readonly<Record<string, string>>;

/** What `/metrics` reads at scrape time, outside this object. */
interface ScrapeFigures {
  now: Date;
  /** The store's figures, or `undefined` when the store did not answer (then `punchgate_store_up 0`). */
  stats: StoreStats | undefined;
  /** The readiness rule's verdict on the background round (see `backgroundRoundOverdue`). */
  backgroundRoundOverdue: boolean;
  /**
   * When the last background round completed, as the readiness rule read it: this instance's own rounds,
   * or on Workers the heartbeat in the store (the Cron round runs in another isolate).
   */
  lastBackgroundRoundAt: Date | undefined;
}

export interface Metrics {
  /** Adds `by` (default 1) to the counter `name` with these labels. */
  count(name: MetricName, labels?: Labels, by?: number): void;
  /**
   * Wraps one storefront's print-service transport so every call (each retry is a call) is counted by
   * endpoint, method and outcome, with its latency. Endpoints are path patterns (`/api/v2/order/{id}`).
   */
  instrumentFetch(send: typeof fetch, storefrontId: string): typeof fetch;
  instrumentFetch(send: FetchLike, storefrontId: string): FetchLike;
  /** Records that a background round finished (the heartbeat `/readyz` and the metrics watch). */
  backgroundRoundCompleted(at: Date): void;
  /** When the last background round finished; `undefined` before the first. */
  lastBackgroundRoundAt(): Date | undefined;
  /**
   * Print-service calls of the last hour that failed on the service's side (5xx, timeout, no answer), for
   * the operators' overview: the counter above only ever grows, so it cannot say "lately".
   */
  printApiFailuresLastHour(): number;
  /**
   * The storefronts whose every print-service call has failed on the service's side since some moment (no
   * call answered in between), each with how long that has lasted.
   */
  printApiFailing(): PrintApiOutage[];
  /** The Prometheus text exposition (version 0.0.4); with `figures`, the order-flow gauges too. */
  render(figures?: ScrapeFigures): string;
}

export interface PrintApiOutage {
  storefrontId: string;
  failingForMs: number;
}

const COUNTERS = {
  punchgate_cxml_requests_total: 'cXML requests answered, by request kind and cXML Status code',
  punchgate_refusals_unrecorded_total:
    'Refused requests not stored in the refusals log because their client address had used up its entries of the minute, by channel (cxml, oci)',
  punchgate_sessions_opened_total:
    'Punch-out sessions opened, by protocol, operation and mode (production, test)',
  punchgate_orders_accepted_total:
    'Purchase orders accepted, by type and mode (production, test) and where they go (a storefront id, or none: a test PO never sent to a print service)',
  punchgate_carts_returned_total: 'Carts handed back to procurement systems, by protocol and outcome',
  punchgate_buyer_document_posts_total:
    'Posts of queued documents to buyers, by document kind (confirmation, ship_notice, invoice, …) and outcome (delivered, retry, dead)',
  punchgate_invoices_total:
    'Invoices to buyers, by purpose (standard, creditMemo) and outcome (issued, held: waiting for an operator or an invoice number)',
  punchgate_print_api_requests_total:
    'Calls to the print service (each retry counts), by storefront, endpoint, method and outcome (2xx, 3xx, 4xx, 5xx, timeout, error)',
} as const;

type MetricName = keyof typeof COUNTERS;

const LATENCY = 'punchgate_print_api_request_duration_seconds';
/** Up to the print client's default 10 s deadline; a slow service shows in the upper buckets. */
const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

/** Prometheus sample values: integers as they are, fractions without float noise. */
function sampleValue(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
}

/**
 * The endpoint label of a print-service URL: the path from `/api/` on (a base URL may carry a prefix),
 * numeric ids as `{id}`, anything that is not a plain word as `{token}`, no query. Bounded and secret-free
 * whatever the caller sends, since labels are kept forever.
 */
export function printApiEndpoint(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '{unparsable}';
  }
  const api = path.indexOf('/api/');
  if (api > 0) path = path.slice(api);
  const segments = path.split('/').map((segment) => {
    if (segment === '') return segment;
    if (/^\d+$/.test(segment)) return '{id}';
    if (/^[a-z][a-z_-]{0,31}$/i.test(segment) || /^v\d{1,2}$/.test(segment)) return segment;
    return '{token}';
  });
  return segments.join('/') || '/';
}

/** A thrown transport failure that is really a deadline (the print client aborts at its own deadline). */
function isTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Object && depth < 4; depth++) {
    const { name, code } = e as { name?: unknown; code?: unknown };
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    if (typeof code === 'string' && /TIMEOUT|TIMEDOUT/.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

interface Histogram {
  labels: Labels;
  buckets: number[];
  sum: number;
  count: number;
}

export interface MetricsOptions {
  /** Milliseconds from a monotonic clock, for call latency. Default `performance.now`. */
  now?: () => number;
}

/**
 * @example
 * const metrics = createMetrics();
 * const printApi = createPrintApi({ ...account, fetch: metrics.instrumentFetch(fetch, 'demo') });
 * metrics.backgroundRoundCompleted(new Date());
 */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const now = options.now ?? (() => performance.now());
  const counters = new Map<MetricName, Map<string, { value: number }>>();
  const latencies = new Map<string, Histogram>();
  let lastRoundAt: Date | undefined;
  // One slot per minute of the last hour: the minute it counts (monotonic clock) and its failures.
  const failureMinutes: { minute: number; failures: number }[] = [];
  // Per storefront, when its current unbroken run of failed calls began; any answered call ends the run.
  const failingSince = new Map<string, number>();

  function recordFailure(): void {
    const minute = Math.floor(now() / 60_000);
    const slot = failureMinutes[minute % 60];
    if (slot !== undefined && slot.minute === minute) slot.failures += 1;
    else failureMinutes[minute % 60] = { minute, failures: 1 };
  }

  const count: Metrics['count'] = (name, labels = {}, by = 1) => {
    let family = counters.get(name);
    if (family === undefined) {
      family = new Map();
      counters.set(name, family);
    }
    const key = labelText(labels);
    const entry = family.get(key);
    if (entry === undefined) family.set(key, { value: by });
    else entry.value += by;
  };

  function observeLatency(labels: Labels, seconds: number): void {
    const key = labelText(labels);
    let histogram = latencies.get(key);
    if (histogram === undefined) {
      histogram = { labels, buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      latencies.set(key, histogram);
    }
    LATENCY_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound && histogram.buckets[i] !== undefined) histogram.buckets[i] += 1;
    });
    histogram.sum += seconds;
    histogram.count += 1;
  }

  function renderLatency(lines: string[]): void {
    lines.push(
      `# HELP ${LATENCY} Latency of print-service calls until the answer's headers, by storefront, endpoint and method`,
      `# TYPE ${LATENCY} histogram`,
    );
    for (const histogram of latencies.values()) {
      LATENCY_BUCKETS.forEach((bound, i) => {
        const labels = labelText({ ...histogram.labels, le: String(bound) });
        lines.push(`${LATENCY}_bucket${labels} ${histogram.buckets[i] ?? 0}`);
      });
      lines.push(`${LATENCY}_bucket${labelText({ ...histogram.labels, le: '+Inf' })} ${histogram.count}`);
      lines.push(`${LATENCY}_sum${labelText(histogram.labels)} ${sampleValue(histogram.sum)}`);
      lines.push(`${LATENCY}_count${labelText(histogram.labels)} ${histogram.count}`);
    }
  }

  return {
    count,
    instrumentFetch(send: typeof fetch | FetchLike, storefrontId: string) {
      // Called the way it was called: FetchLike callers pass strings, fetch callers anything fetch takes.
      const forward = send as typeof fetch;
      return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
        const labels = {
          storefront: storefrontId,
          endpoint: printApiEndpoint(url),
          method: method.toUpperCase(),
        };
        const started = now();
        let outcome = 'error';
        try {
          const response = await forward(input, init);
          outcome = `${Math.floor(response.status / 100)}xx`;
          return response;
        } catch (error) {
          outcome = isTimeout(error) ? 'timeout' : 'error';
          throw error;
        } finally {
          count('punchgate_print_api_requests_total', { ...labels, outcome });
          if (outcome === '5xx' || outcome === 'timeout' || outcome === 'error') {
            recordFailure();
            if (!failingSince.has(storefrontId)) failingSince.set(storefrontId, started);
          } else {
            failingSince.delete(storefrontId);
          }
          observeLatency(labels, Math.max(0, now() - started) / 1000);
        }
      };
    },
    backgroundRoundCompleted(at) {
      if (lastRoundAt === undefined || at > lastRoundAt) lastRoundAt = at;
    },
    lastBackgroundRoundAt: () => lastRoundAt,
    printApiFailuresLastHour() {
      const minute = Math.floor(now() / 60_000);
      return failureMinutes.reduce((sum, slot) => (slot.minute > minute - 60 ? sum + slot.failures : sum), 0);
    },
    printApiFailing() {
      const at = now();
      return [...failingSince].map(([storefrontId, since]) => ({
        storefrontId,
        failingForMs: Math.max(0, at - since),
      }));
    },
    render(figures) {
      const lines: string[] = [];
      for (const name of Object.keys(COUNTERS) as MetricName[]) {
        lines.push(`# HELP ${name} ${COUNTERS[name]}`, `# TYPE ${name} counter`);
        for (const [key, entry] of counters.get(name) ?? []) lines.push(`${name}${key} ${entry.value}`);
      }
      renderLatency(lines);
      if (figures !== undefined) renderFigures(lines, figures);
      return `${lines.join('\n')}\n`;
    },
  };
}

function gauge(lines: string[], name: string, help: string, samples: [Labels, number][]): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
  for (const [labels, value] of samples) lines.push(`${name}${labelText(labels)} ${sampleValue(value)}`);
}

function ageSeconds(now: Date, since: Date | undefined): number {
  return since === undefined ? 0 : Math.max(0, (now.getTime() - since.getTime()) / 1000);
}

function byState(counts: Readonly<Record<string, number>>): [Labels, number][] {
  return Object.entries(counts).map(([state, value]) => [{ state }, value]);
}

function renderFigures(lines: string[], figures: ScrapeFigures): void {
  const { now, stats, lastBackgroundRoundAt: lastRoundAt } = figures;
  gauge(lines, 'punchgate_store_up', 'Whether the store answered this scrape (1) or not (0)', [
    [{}, stats === undefined ? 0 : 1],
  ]);
  // Without the store its figures are unknown, not zero: absent series make that plain to alerts.
  if (stats !== undefined) {
    gauge(lines, 'punchgate_purchase_orders', 'Purchase orders by state', byState(stats.ordersByState));
    gauge(
      lines,
      'punchgate_oldest_unordered_purchase_order_age_seconds',
      'Age of the oldest purchase order not yet turned into a print order (received or processing); 0 when none',
      [[{}, ageSeconds(now, stats.oldestUnorderedAt)]],
    );
    gauge(lines, 'punchgate_jobs', 'Background jobs by state', byState(stats.jobsByState));
    gauge(
      lines,
      'punchgate_outbox_messages',
      'Documents to buyers still to deliver (pending, sending) and given up (dead letters)',
      byState({ pending: stats.outbox.pending, sending: stats.outbox.sending, dead: stats.outbox.dead }),
    );
    gauge(
      lines,
      'punchgate_outbox_oldest_pending_age_seconds',
      'Age of the oldest document to a buyer still to deliver; 0 when none',
      [[{}, ageSeconds(now, stats.outbox.oldestPendingAt)]],
    );
    gauge(lines, 'punchgate_invoices_held', 'Invoices held for an operator now (until sent or waived)', [
      [{}, stats.invoicesHeld],
    ]);
  }
  gauge(
    lines,
    'punchgate_background_round_last_completed_timestamp_seconds',
    'Unix time the last background round completed (on Workers: the last Cron round, whichever isolate ran it); absent before the first',
    lastRoundAt === undefined ? [] : [[{}, Math.floor(lastRoundAt.getTime() / 1000)]],
  );
  gauge(
    lines,
    'punchgate_background_round_overdue',
    'Whether no background round completed within background.staleAfterSeconds (1: /readyz fails)',
    [[{}, figures.backgroundRoundOverdue ? 1 : 0]],
  );
}
