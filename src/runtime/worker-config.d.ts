/**
 * The gateway config file wrangler bundles into the Worker: the `punchgate-worker-config` alias in
 * wrangler.toml (or `wrangler deploy --alias`) names it. Checked at start-up like any config file.
 */
declare module 'punchgate-worker-config' {
  const config: unknown;
  export default config;
}
