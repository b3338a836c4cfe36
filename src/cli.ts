/**
 * `punchgate <command>`: the command-line entry point (Node only; `bin/punchgate.js` and `npm start` run
 * this file). Each command is one entry of COMMANDS: a name, a one-line summary, its help text and a
 * `run(args)` that answers an exit code. Usage errors name the flag or file and exit 2.
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { createConsoleLogger, readSeedFile, serveNode } from './runtime/node.ts';
import { createSandbox, deriveSandboxKey } from './sandbox/print/index.ts';

interface Command {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  run(args: string[]): Promise<number>;
}

/** A mistake in how the command was called: printed with a pointer to --help, exit code 2. */
class UsageError extends Error {
  override name = 'UsageError';
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
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      ['port', 'seed', 'merge-delay-ms', 'session-idle-s', 'host'],
      false,
    );
    if (values.help === true) {
      process.stdout.write(`${this.help}\n`);
      return 0;
    }
    const port = readInteger('port', text(values.port), 0, 65535) ?? 8090;
    const mergeDelayMs = readInteger('merge-delay-ms', text(values['merge-delay-ms']), 0, 86_400_000);
    const sessionIdleSeconds = readInteger('session-idle-s', text(values['session-idle-s']), 1, 31_536_000);
    const seedFile = text(values.seed) ?? DEFAULT_SEED;
    const seedName = typeof seedFile === 'string' ? seedFile : 'fixtures/sandbox-seed.json';
    const seed = await readSeedFile(seedFile);
    if (!seed.ok) {
      process.stderr.write(`punchgate sandbox: the seed ${seedName} has problems:\n`);
      for (const problem of seed.problems) process.stderr.write(`  ${problem.path}: ${problem.message}\n`);
      return 2;
    }
    const { app } = createSandbox(seed.seed, {
      logger: createConsoleLogger('sandbox'),
      ...(mergeDelayMs === undefined ? {} : { mergeDelayMs }),
      ...(sessionIdleSeconds === undefined ? {} : { sessionIdleSeconds }),
    });
    const host = text(values.host);
    const server = await serveNode(app, { port, ...(host === undefined ? {} : { hostname: host }) });
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
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return 0;
  },
};

const keygenCommand: Command = {
  name: 'keygen',
  summary: 'print the sandbox API key of a token',
  help: `Usage: punchgate keygen TOKEN [--rounds N]

Prints the key the sandbox expects for an API token (hex): k0 = TOKEN, k(i+1) = lowercase hex SHA-256 of
k(i), key = k(N). The real service's derivation is not published; this is the sandbox's.

Options:
  --rounds N   number of SHA-256 rounds (default 1000, the seed's keyRounds default)
  --help       this text`,
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, ['rounds'], true);
    if (values.help === true) {
      process.stdout.write(`${this.help}\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError('keygen takes exactly one TOKEN');
    const token = positionals[0]!;
    if (!/^[0-9a-fA-F]+$/.test(token)) throw new UsageError(`TOKEN must be a hex string (got "${token}")`);
    const rounds = readInteger('rounds', text(values.rounds), 1, 100_000) ?? 1000;
    process.stdout.write(`${await deriveSandboxKey(token.toLowerCase(), rounds)}\n`);
    return 0;
  },
};

/** Every implemented command, in the order the top-level help lists them. */
const COMMANDS: readonly Command[] = [sandboxCommand, keygenCommand];

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
    return await command.run(args);
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
