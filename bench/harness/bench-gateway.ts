/**
 * The gateway's config in the benchmarks: the test config with a SQLite store in `databasePath`, its
 * storefronts pointed at a running sandbox, and PIPO tokens reused for `reuseSeconds`. Shared by the
 * gateway server (servers/gateway-server.ts) and the cases that build a gateway in process (floors).
 */
import type { ResolvedConfig } from '../../schemas/config.ts';
import { resolveTestConfig, testConfig } from '../../test/support/stack.ts';

export function benchGatewayConfig(options: {
  readonly sandboxUrl: string;
  readonly reuseSeconds: number;
  readonly databasePath: string;
}): ResolvedConfig {
  const base = testConfig();
  return resolveTestConfig({
    ...base,
    store: { kind: 'sqlite', path: options.databasePath },
    sessions: { pipoTokenReuseSeconds: options.reuseSeconds },
    storefronts: (base.storefronts ?? []).map((storefront) => ({
      ...storefront,
      apiBaseUrl: options.sandboxUrl,
      editorUrl: `${options.sandboxUrl}/editor`,
    })),
  });
}

/** Logging is I/O the measurement should not include (a terminal is slower than any log shipper). */
export const SILENT_LOGGER = { info() {}, warn() {}, error() {} };
