/**
 * `punchgate <command>`: the command-line entry point (Node only; `bin/punchgate.js` and `npm start` run
 * this file). Each command is one entry of COMMANDS: a name, a one-line summary, its help text, the options
 * (and the one operand) it takes, and a `run` that answers an exit code; `main` parses the arguments and
 * answers --help for all of them. Usage errors name the flag or file and exit 2.
 */

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { CatalogExportItem } from './gateway/catalog-export/catalog-item.ts';
import type { ResolvedConfig } from './gateway/deps.ts';
import type { LoadedConfig } from './runtime/host.ts';
import type { RunningServer } from './runtime/node.ts';

// Each command loads what it runs when it runs: `--help` and `check-config` need not load the gateway, the
// sandbox and the demo (a second of start-up on a small machine).
const load = {
  catalog: () => import('./gateway/catalog-export/buyer-catalog.ts'),
  reorders: () => import('./gateway/reorders/export-items.ts'),
  demo: () => import('./runtime/demo.ts'),
  gateway: () => import('./runtime/gateway-node.ts'),
  host: () => import('./runtime/host.ts'),
  logging: () => import('./runtime/logging.ts'),
  node: () => import('./runtime/node.ts'),
  sandbox: async () => (await import('./runtime/sandbox-package.ts')).loadSandboxPackage(),
};

interface Command {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  /** Its `--name VALUE` options; every command also takes --help. */
  readonly options: readonly string[];
  /** The name of its one operand (`FILE`), when it takes exactly one; otherwise it takes none. */
  readonly operand?: string;
  /** Runs with the parsed options and operands (checked against `options` and `operand`). */
  run(values: ParsedArgs['values'], positionals: ParsedArgs['positionals']): Promise<number>;
}

/** A mistake in how the command was called: printed with a pointer to --help, exit code 2. */
class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A listen that failed because the port is taken, said in one line with the way out; anything else is
 * passed on. Exit code 1 like every failure to run, since the command line itself was well formed.
 */
function listenFailure(error: unknown, how: string): unknown {
  const failure = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (failure.code !== 'EADDRINUSE') return error;
  return new Error(
    `port ${failure.port} on ${failure.address} is already in use; choose another with ${how}`,
  );
}

/** The words for what went wrong reaching a URL, from the system's error code under fetch's `TypeError`. */
const CONNECT_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'timed out connecting',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed',
};

function unreachable(url: string, error: unknown): Error {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const reason =
    code !== undefined
      ? `${CONNECT_FAILURES[code] ?? (typeof cause?.message === 'string' ? cause.message : 'failed')} (${code})`
      : error instanceof Error
        ? error.message
        : String(error);
  return new Error(`could not reach ${url}: ${reason}`);
}

const DEFAULT_SEED = new URL('../fixtures/sandbox-seed.json', import.meta.url);

function readInteger(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max} (got "${text}")`);
  }
  return Number(text);
}

interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/** node:util parseArgs (string options plus --help) with its errors turned into usage errors. */
function parseCommandArgs(
  args: string[],
  stringOptions: readonly string[],
  allowPositionals: boolean,
): ParsedArgs {
  const options: ParseArgsOptionsConfig = { help: { type: 'boolean' } };
  for (const name of stringOptions) options[name] = { type: 'string' };
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals, strict: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

const sandboxCommand: Command = {
  name: 'sandbox',
  summary: 'serve the sandbox print service (v2 API, editor host, /_sandbox control API)',
  help: `Usage: punchgate sandbox [--port 8090] [--seed FILE] [--merge-delay-ms N] [--session-idle-s N] [--host HOST]

Serves the emulated print ordering service: /api/v2 (and /api/v1), the editor host under /editor and the
/_sandbox control API, built from a seed file.

Options:
  --port N             port to listen on (default 8090; 0 picks a free one)
  --seed FILE          seed file (default fixtures/sandbox-seed.json of this package)
  --merge-delay-ms N   how long processed print files take to merge (default 3000)
  --session-idle-s N   PIPO session idle period in seconds (default 1800)
  --host HOST          address to bind (default 127.0.0.1; the control API has no authentication,
                       so bind beyond loopback only on a trusted network)
  --help               this text`,
  options: ['port', 'seed', 'merge-delay-ms', 'session-idle-s', 'host'],
  async run(values) {
    const port = readInteger('port', text(values.port), 0, 65535) ?? 8090;
    const mergeDelayMs = readInteger('merge-delay-ms', text(values['merge-delay-ms']), 0, 86_400_000);
    const sessionIdleSeconds = readInteger('session-idle-s', text(values['session-idle-s']), 1, 31_536_000);
    const seedFile = text(values.seed) ?? DEFAULT_SEED;
    const seedName = typeof seedFile === 'string' ? seedFile : 'fixtures/sandbox-seed.json';
    const [{ serveNode }, { createSandbox, deriveSandboxKey, readSeedFile }, { createNodeLogger }] =
      await Promise.all([load.node(), load.sandbox(), load.logging()]);
    const seed = await readSeedFile(seedFile);
    if (!seed.ok) {
      process.stderr.write(`punchgate sandbox: the seed ${seedName} has problems:\n`);
      for (const problem of seed.problems) process.stderr.write(`  ${problem.path}: ${problem.message}\n`);
      return 2;
    }
    const { app } = createSandbox(seed.seed, {
      logger: createNodeLogger('sandbox'),
      ...(mergeDelayMs === undefined ? {} : { mergeDelayMs }),
      ...(sessionIdleSeconds === undefined ? {} : { sessionIdleSeconds }),
    });
    const host = text(values.host);
    const server = await serveNode(app, { port, ...(host === undefined ? {} : { hostname: host }) }).catch(
      (error: unknown) => {
        throw listenFailure(error, '--port');
      },
    );
    const out: string[] = [
      `punchgate sandbox print service on ${server.url} (seed ${seedName})`,
      `  API base URL: ${server.url}        (endpoints under ${server.url}/api/v2)`,
      `  Editor URL:   ${server.url}/editor`,
      `  Control API:  ${server.url}/_sandbox   (no authentication: never expose it)`,
      '  API keys (token:key for HTTP Basic):',
    ];
    for (const license of seed.seed.licenses) {
      for (const key of license.apiKeys) {
        if (!key.active || key.deleted) continue;
        const derived = await deriveSandboxKey(key.token, seed.seed.keyRounds);
        out.push(`    ${license.tier.padEnd(12)} ${key.token}:${derived}  ${key.label}`);
      }
    }
    process.stdout.write(`${out.join('\n')}\n`);
    await stopSignal();
    await server.close();
    return 0;
  },
};

/** Resolves on Ctrl-C or a termination signal (with its name), so servers close their sockets and stores cleanly. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

/** How long serve lets requests in progress finish after a stop signal before closing their connections. */
const DRAIN_GRACE_MS = 10_000;
/** When serve exits (code 1) whatever is still running: the grace period plus time to close the store. */
const HARD_STOP_MS = 15_000;

/** Reads a config file; one that cannot be read is a usage error naming `what` (the operand or the flag). */
async function readConfig(
  readConfigFile: (path: string) => Promise<LoadedConfig>,
  file: string,
  what: string,
): Promise<LoadedConfig> {
  try {
    return await readConfigFile(file);
  } catch (error) {
    if ((error as Error).name === 'ConfigFileUnreadable') {
      throw new UsageError(`cannot read ${what} ${(error as Error).message}`);
    }
    throw error;
  }
}

function printProblems(
  command: string,
  file: string,
  problems: readonly { path: string; message: string }[],
): void {
  process.stderr.write(
    `punchgate ${command}: ${file} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n`,
  );
  for (const problem of problems) process.stderr.write(`  ${problem.path}: ${problem.message}\n`);
}

const demoCommand: Command = {
  name: 'demo',
  summary: 'the whole story on one port: sandbox print service, gateway and buyer simulator',
  help: `Usage: punchgate demo [--port 8080] [--host HOST] [--public-url URL]

Runs the sandbox print service (under /sandbox), the gateway (at the root) and the buyer simulator (under
/buyer) in one process, from fixtures/demo.config.json and fixtures/sandbox-seed.json, with the data in
.punchgate/. Open the printed buyer URL and punch out. \`npm start\` runs this.

Options:
  --port N            port to listen on (default 8080, or PORT from the environment)
  --host HOST         address to bind (default 127.0.0.1)
  --public-url URL    where browsers reach the demo, when not at the bound address (a container, a
                      remote machine, 0.0.0.0), e.g. http://localhost:8080; the demo calls
                      itself there too, so it must be reachable from inside as well
  --help              this text`,
  options: ['port', 'host', 'public-url'],
  async run(values) {
    const port = readInteger('port', text(values.port) ?? process.env.PORT, 0, 65535) ?? 8080;
    const host = text(values.host);
    const publicUrl = text(values['public-url']);
    if (publicUrl !== undefined && !/^https?:\/\/[^/]+$/.test(publicUrl)) {
      throw new UsageError(`--public-url must be an http(s) origin without a path (got "${publicUrl}")`);
    }
    const { startDemo } = await load.demo();
    const demo = await startDemo({
      port,
      ...(host === undefined ? {} : { host }),
      ...(publicUrl === undefined ? {} : { publicUrl }),
    }).catch((error: unknown) => {
      throw listenFailure(error, '--port or PORT');
    });
    process.stdout.write(
      [
        `punchgate demo on ${demo.server.url}`,
        `  Buyer simulator (start here): ${demo.urls.buyer}`,
        `  Gateway cXML endpoint:        ${demo.urls.gateway}`,
        `  Sandbox print service API:    ${demo.urls.sandbox}`,
        `  Operator console:             ${demo.urls.admin}/ (admin token demo-admin-token-for-local-use-only)`,
        `  Admin API (Bearer demo-admin-token-for-local-use-only): ${demo.urls.admin}/orders`,
        '',
      ].join('\n'),
    );
    await stopSignal();
    await demo.close();
    return 0;
  },
};

const checkConfigCommand: Command = {
  name: 'check-config',
  summary: 'validate a gateway config file and list every problem by path',
  help: `Usage: punchgate check-config FILE

Validates a gateway config file against schemas/config.ts (JSON Schema: schemas/config.schema.json),
including the environment variables its {"env": "NAME"} secrets name. Exits 0 when the file is valid,
1 with every problem listed by path (e.g. buyers[1].sharedSecret) when it is not, 2 when it cannot be
read. Warnings (e.g. a buyer without authAllowedAddresses) are printed to stderr and keep exit 0.

Options:
  --help   this text`,
  options: [],
  operand: 'FILE',
  async run(_values, positionals) {
    const file = positionals[0]!;
    const [{ readConfigFile }, { configWarnings }] = await Promise.all([load.gateway(), load.host()]);
    const result = await readConfig(readConfigFile, file, 'FILE');
    if (!result.ok) {
      printProblems('check-config', file, result.problems);
      return 1;
    }
    const { config } = result;
    for (const warning of configWarnings(config)) {
      process.stderr.write(`punchgate check-config: warning: ${warning.path}: ${warning.message}\n`);
    }
    const protocols = config.buyers.map((b) => `${b.id} (${b.protocol})`).join(', ');
    const runtime =
      config.store.kind === 'd1' ? ' (for the Worker; punchgate serve needs another store)' : '';
    process.stdout.write(
      `${file} is valid: ${config.storefronts.length} storefront(s), ${config.buyers.length} buyer(s): ${protocols}; store ${config.store.kind}${runtime}\n`,
    );
    return 0;
  },
};

const serveCommand: Command = {
  name: 'serve',
  summary: 'run the gateway from a config file',
  help: `Usage: punchgate serve --config FILE [--port 8080] [--host HOST]

Runs the punch-out gateway: POST /cxml, GET|POST /oci/:buyer, the punch-out pages under /punchout,
/events, /admin, /metrics, /healthz and /readyz, and its background work (purchase orders to print orders,
webhooks and reconciliation, documents to buyers, housekeeping) every background.intervalSeconds.
Secrets written as {"env": "NAME"} in the config are read from the environment. A config with problems
is refused (exit 1) with every problem listed, as check-config lists them; a config file that cannot be
read is a usage error (exit 2). On SIGTERM or SIGINT it stops taking connections, lets the requests in
progress (up to 10 s) and the background round finish, and exits 0.

Options:
  --config FILE   the gateway config (JSON; see schemas/config.schema.json)
  --port N        port to listen on (default 8080, or PORT from the environment; 0 picks a free one)
  --host HOST     address to bind (default 127.0.0.1; use 0.0.0.0 behind a reverse proxy)
  --help          this text`,
  options: ['config', 'port', 'host'],
  async run(values) {
    const file = text(values.config);
    if (file === undefined) throw new UsageError('--config FILE is required');
    const port = readInteger('port', text(values.port) ?? process.env.PORT, 0, 65535) ?? 8080;
    const [
      { createNodeGateway, readConfigFile },
      { createNodeLogger, nodeLogFormat },
      { serveNode },
      { configWarnings },
    ] = await Promise.all([load.gateway(), load.logging(), load.node(), load.host()]);
    const result = await readConfig(readConfigFile, file, '--config');
    if (!result.ok) {
      printProblems('serve', file, result.problems);
      return 1;
    }
    if (result.config.store.kind === 'd1') {
      printProblems('serve', file, [
        {
          path: 'store.kind',
          message: '"d1" is a Cloudflare D1 binding: use it on Workers (docs/workers.md)',
        },
      ]);
      return 1;
    }
    const logger = createNodeLogger('gateway');
    // Start and stop are written whatever LOG_LEVEL holds back: the banner says where the gateway listens
    // (a supervisor or a test waits for it), and a stop must be seen to have drained.
    const lifecycle =
      process.env.LOG_LEVEL?.trim().toLowerCase() === 'debug'
        ? logger
        : createNodeLogger('gateway', { ...process.env, LOG_LEVEL: 'info' });
    const format = nodeLogFormat();
    // Listened for before the server listens: a signal in between would otherwise end the process
    // unlogged, with whatever it had accepted.
    const stopping = stopSignal();
    if (result.config.store.kind === 'sqlite' && result.config.store.path === ':memory:') {
      logger.warn(
        'store.path ":memory:": sessions, carts and purchase orders are lost when the process stops',
      );
    }
    for (const warning of configWarnings(result.config)) {
      logger.warn(`${warning.path}: ${warning.message}`, { path: warning.path });
    }
    const node = await createNodeGateway(result.config, { logger });
    const host = text(values.host);
    let server: RunningServer;
    try {
      server = await serveNode(node.gateway.app, { port, ...(host === undefined ? {} : { hostname: host }) });
    } catch (error) {
      await node.close();
      throw listenFailure(error, '--port or PORT');
    }
    node.startBackground();
    const publicUrl = result.config.publicUrl.replace(/\/+$/, '');
    const banner = `punchgate gateway on ${server.url} (public URL ${publicUrl})`;
    const addresses = { cxmlEndpoint: `${publicUrl}/cxml`, operatorConsole: `${publicUrl}/admin/` };
    if (format === 'json') {
      // A log shipper reading JSON lines gets the banner as one more record, not a line it cannot parse.
      lifecycle.info(banner, { url: server.url, publicUrl, ...addresses });
    } else {
      process.stdout.write(
        `${banner}\n  cXML endpoint:    ${addresses.cxmlEndpoint}\n  Operator console: ${addresses.operatorConsole}\n`,
      );
    }
    const signal = await stopping;
    // An orchestrator stopping or replacing the instance sends SIGTERM: the requests in progress and the
    // background round are finished, not cut, so no buyer sees a reset and no claimed job waits for its lease.
    lifecycle.info('shutting down: draining requests in progress and the background round', {
      signal,
      graceSeconds: DRAIN_GRACE_MS / 1000,
    });
    // Something that does not let go (a round stuck on an unanswering database) must not keep an
    // orchestrator waiting for ever; it would kill the process anyway, without the log line.
    const hardStop = setTimeout(() => {
      logger.error('shutdown did not finish: stopping now', { afterSeconds: HARD_STOP_MS / 1000 });
      process.exit(1);
    }, HARD_STOP_MS);
    hardStop.unref();
    const { forced } = await server.drain(DRAIN_GRACE_MS);
    await node.close();
    clearTimeout(hardStop);
    if (forced > 0) {
      logger.warn('connections still open after the grace period were closed', { connections: forced });
    }
    lifecycle.info('stopped', { signal });
    return 0;
  },
};

const sendCommand: Command = {
  name: 'send',
  summary: 'post a cXML document and print the answer',
  help: `Usage: punchgate send FILE --to URL

Posts the cXML document in FILE (as text/xml) to URL and prints the HTTP status and the answer. Exits 0
when the answer is a cXML Status in the 200 range, 1 otherwise (also when URL cannot be reached: the
reason is printed, e.g. "connection refused (ECONNREFUSED)").

Options:
  --to URL   where to post, e.g. http://127.0.0.1:8080/cxml
  --help     this text`,
  options: ['to'],
  operand: 'FILE',
  async run(values, positionals) {
    const to = text(values.to);
    if (to === undefined) throw new UsageError('--to URL is required');
    if (!/^https?:\/\//.test(to)) throw new UsageError(`--to must be an http(s) URL (got "${to}")`);
    const file = positionals[0]!;
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      throw new UsageError(`cannot read FILE ${file}`);
    }
    const response = await fetch(to, {
      method: 'POST',
      body: new Uint8Array(body),
      headers: { 'Content-Type': 'text/xml; charset=UTF-8' },
    }).catch((error: unknown) => {
      // fetch says only "fetch failed"; the reason is the system's code underneath.
      throw unreachable(to, error);
    });
    const answer = await response.text();
    process.stdout.write(`HTTP ${response.status}\n${answer}${answer.endsWith('\n') ? '' : '\n'}`);
    const code = /<Status\b[^>]*\bcode="(\d+)"/.exec(answer)?.[1];
    return response.ok && code?.startsWith('2') ? 0 : 1;
  },
};

const catalogCommand: Command = {
  name: 'catalog',
  summary: "write a buyer's catalog for Level-2 punch-out (CIF 3.0 or cXML Index)",
  help: `Usage: punchgate catalog --config FILE --buyer ID --format cif|cxml [--out FILE]

Writes the catalog a buyer's procurement system loads so that its users find the products in their own
search and punch out straight onto one (Level 2): every product of the buyer's storefront as a punch-out
item (part number, description, UNSPSC, unit, price at the product's minimum quantity, lead time, a
thumbnail link), as a CIF 3.0 file (cif) or a cXML Index (cxml). The console's buyer page offers the same
files. Exits 1 naming the buyer when it is not configured or has nothing to export, and naming the product
and the field when a product lacks one the format requires (CIF requires a UNSPSC code).

Options:
  --config FILE   the gateway config (JSON; see schemas/config.schema.json)
  --buyer ID      the buyer's id in the config
  --format F      cif (CIF 3.0, UTF-8) or cxml (cXML Index, valid against cXML.dtd)
  --out FILE      write the catalog to FILE (default: standard output)
  --help          this text`,
  options: ['config', 'buyer', 'format', 'out'],
  async run(values) {
    const file = text(values.config);
    if (file === undefined) throw new UsageError('--config FILE is required');
    const buyerId = text(values.buyer);
    if (buyerId === undefined) throw new UsageError('--buyer ID is required');
    const format = text(values.format);
    if (format !== 'cif' && format !== 'cxml') {
      throw new UsageError(
        format === undefined
          ? '--format cif|cxml is required'
          : `--format must be cif or cxml (got "${format}")`,
      );
    }
    const out = text(values.out);
    const [{ readConfigFile }, { exportBuyerCatalog }] = await Promise.all([load.gateway(), load.catalog()]);
    const result = await readConfig(readConfigFile, file, '--config');
    if (!result.ok) {
      printProblems('catalog', file, result.problems);
      return 1;
    }
    // A CatalogExportError (unknown buyer, nothing to export, a field missing) reaches main's one line, exit 1.
    // The storefront's products, then the buyer's reorder items read from the config's store.
    const catalog = await exportBuyerCatalog(result.config, buyerId, format, {
      now: new Date(),
      moreItems: await storedReorderItems(result.config, buyerId),
    });
    if (out === undefined) {
      process.stdout.write(catalog.text);
      return 0;
    }
    try {
      await writeFile(out, catalog.text);
    } catch (error) {
      throw new UsageError(`cannot write --out ${out}: ${(error as Error).message}`);
    }
    process.stdout.write(
      `wrote the ${format === 'cif' ? 'CIF 3.0' : 'cXML Index'} catalog of buyer ${buyerId} to ${out}\n`,
    );
    return 0;
  },
};

/**
 * The buyer's reorder items in the config's store, for `punchgate catalog`: none when the buyer has reorders
 * off, and none from a store the command cannot read here or that holds nothing yet (D1 lives on Workers;
 * a SQLite file not written yet, which the command does not create).
 */
async function storedReorderItems(config: ResolvedConfig, buyerId: string): Promise<CatalogExportItem[]> {
  const buyer = config.buyers.find((b) => b.id === buyerId);
  if (buyer === undefined || !buyer.catalog.reorders) return [];
  const { store } = config;
  if (store.kind === 'd1') return [];
  if (store.kind === 'sqlite' && (store.path === ':memory:' || !existsSync(store.path))) return [];
  const [{ openStore }, { reorderExportItems }] = await Promise.all([load.gateway(), load.reorders()]);
  const opened = await openStore(store);
  try {
    return await reorderExportItems(opened, config, buyerId);
  } finally {
    await opened.close();
  }
}

const keygenCommand: Command = {
  name: 'keygen',
  summary: 'print the sandbox API key of a token',
  help: `Usage: punchgate keygen TOKEN [--rounds N]

Prints the key the sandbox expects for an API token (hex): k0 = TOKEN, k(i+1) = lowercase hex SHA-256 of
k(i), key = k(N). The real service's derivation is not published; this is the sandbox's.

Options:
  --rounds N   number of SHA-256 rounds (default 1000, the seed's keyRounds default)
  --help       this text`,
  options: ['rounds'],
  operand: 'TOKEN',
  async run(values, positionals) {
    const token = positionals[0]!;
    if (!/^[0-9a-fA-F]+$/.test(token)) throw new UsageError(`TOKEN must be a hex string (got "${token}")`);
    const rounds = readInteger('rounds', text(values.rounds), 1, 100_000) ?? 1000;
    const { deriveSandboxKey } = await load.sandbox();
    process.stdout.write(`${await deriveSandboxKey(token.toLowerCase(), rounds)}\n`);
    return 0;
  },
};

/** Every implemented command, in the order the top-level help lists them. */
const COMMANDS: readonly Command[] = [
  demoCommand,
  serveCommand,
  checkConfigCommand,
  catalogCommand,
  sendCommand,
  sandboxCommand,
  keygenCommand,
];

function topLevelHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: punchgate <command> [options]

Commands:
${lines.join('\n')}

Run punchgate <command> --help for a command's options.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${topLevelHelp()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    process.stderr.write(`punchgate: unknown command "${name}"\n\n${topLevelHelp()}\n`);
    return 2;
  }
  try {
    const { values, positionals } = parseCommandArgs(args, command.options, command.operand !== undefined);
    if (values.help === true) {
      process.stdout.write(`${command.help}\n`);
      return 0;
    }
    if (command.operand !== undefined && positionals.length !== 1) {
      throw new UsageError(`${command.name} takes exactly one ${command.operand}`);
    }
    return await command.run(values, positionals);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(
        `punchgate ${command.name}: ${error.message}\nRun punchgate ${command.name} --help for usage.\n`,
      );
      return 2;
    }
    process.stderr.write(
      `punchgate ${command.name}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
