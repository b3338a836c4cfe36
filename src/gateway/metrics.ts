/**
 * Counters of what the gateway did, served as Prometheus text at `GET /metrics`. In memory and per
 * process: a scraper sums the instances. Counts only — no buyer data, no secrets.
 */

type Labels = Readonly<Record<string, string>>;

interface Family {
  help: string;
  values: Map<string, { labels: Labels; value: number }>;
}

export interface Metrics {
  /** Adds `by` (default 1) to the counter `name` with these labels. */
  count(name: MetricName, labels?: Labels, by?: number): void;
  /** The Prometheus text exposition (version 0.0.4). */
  render(): string;
}

const HELP = {
  punchgate_cxml_requests_total: 'cXML requests answered, by request kind and cXML Status code',
  punchgate_sessions_opened_total: 'Punch-out sessions opened, by protocol and operation',
  punchgate_carts_returned_total: 'Carts handed back to procurement systems, by protocol and outcome',
} as const;

export type MetricName = keyof typeof HELP;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

export function createMetrics(): Metrics {
  const families = new Map<MetricName, Family>();
  return {
    count(name, labels = {}, by = 1) {
      let family = families.get(name);
      if (family === undefined) {
        family = { help: HELP[name], values: new Map() };
        families.set(name, family);
      }
      const key = labelText(labels);
      const entry = family.values.get(key);
      if (entry === undefined) family.values.set(key, { labels, value: by });
      else entry.value += by;
    },
    render() {
      const lines: string[] = [];
      for (const name of Object.keys(HELP) as MetricName[]) {
        lines.push(`# HELP ${name} ${HELP[name]}`, `# TYPE ${name} counter`);
        for (const [key, entry] of families.get(name)?.values ?? [])
          lines.push(`${name}${key} ${entry.value}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
