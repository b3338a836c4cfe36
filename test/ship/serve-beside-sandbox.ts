/**
 * The stack the ship tests run as a print shop would: a buyer's procurement system on its own port,
 * `punchgate sandbox` and `punchgate serve --config FILE` as processes, the config written from the
 * configuration reference with its secrets in the environment and a SQLite store in a fresh folder.
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createPrintApi } from '../../src/print-api/index.ts';
import { receivedDocuments } from '../support/order-flow.ts';
import { followRedirects } from '../support/stack.ts';
import { type BuyerSystem, startBuyerSystem } from './buyer-system.ts';
import {
  childEnv,
  eventually,
  freePort,
  type PunchgateProcess,
  type SandboxProcess,
  type ServeProcess,
  SHIP_TEST_TIMEOUT_MS,
  startSandboxCommand,
  startServeCommand,
  stopAllCommands,
} from './processes.ts';
import { type ConfigJson, freshFolder, serveConfig, writeConfigFile } from './user-config.ts';

export interface ServeBesideSandbox {
  buyer: BuyerSystem;
  sandbox: SandboxProcess;
  serve: ServeProcess;
  /** The secrets serve's config names, as its environment holds them. */
  secrets: Record<string, string>;
  port: number;
}

export interface ServeBesideSandboxOptions {
  sandboxArgs?: readonly string[];
  /** Changes the config before serve starts; the running sandbox is at hand for its printed keys. */
  adjustConfig?: (config: ConfigJson, sandbox: SandboxProcess) => void;
  /** More environment for serve, e.g. LOG_LEVEL. */
  serveEnv?: Record<string, string>;
  /** serve's open-file limit (`ulimit -n`), when the test needs a small one. */
  openFileLimit?: number;
  /**
   * A PostgreSQL database for serve's store (asked for when the stack starts), configured as the docs
   * write it: `{"kind": "postgres", "url": {"env": "DATABASE_URL"}}`. Default: a SQLite file.
   */
  databaseUrl?: () => string;
}

/**
 * @example
 * const stack = await startServeBesideSandbox({ sandboxArgs: ['--session-idle-s', '2'] });
 * await fetch(`${stack.serve.url}/healthz`);
 */
export async function startServeBesideSandbox(
  options: ServeBesideSandboxOptions = {},
): Promise<ServeBesideSandbox> {
  const buyer = await startBuyerSystem();
  const sandbox = await startSandboxCommand(childEnv(), options.sandboxArgs ?? []);
  // The gateway's public URL goes into the config before it listens, as a user writes it.
  const port = await freePort();
  const folder = freshFolder();
  const serving = serveConfig({
    publicUrl: `http://127.0.0.1:${port}`,
    sandbox,
    buyer,
    store:
      options.databaseUrl === undefined
        ? { kind: 'sqlite', path: join(folder, 'gateway.db') }
        : { kind: 'postgres', url: { env: 'DATABASE_URL' } },
  });
  options.adjustConfig?.(serving.config, sandbox);
  const configFile = writeConfigFile(folder, serving.config);
  const serve = await startServeCommand(
    'serve',
    configFile,
    port,
    childEnv({
      ...serving.secrets,
      ...(options.databaseUrl !== undefined && { DATABASE_URL: options.databaseUrl() }),
      ...options.serveEnv,
    }),
    options.openFileLimit === undefined ? {} : { openFileLimit: options.openFileLimit },
  );
  return { buyer, sandbox, serve, secrets: { ...serving.secrets }, port };
}

/**
 * The stack for a describe block: started in beforeAll; in afterAll every command stopped, then the
 * buyer's system closed. The answer's fields are there once beforeAll has run.
 */
export function useServeBesideSandbox(options: ServeBesideSandboxOptions = {}): ServeBesideSandbox {
  const stack = {} as ServeBesideSandbox;
  beforeAll(async () => {
    Object.assign(stack, await startServeBesideSandbox(options));
  }, SHIP_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await stopAllCommands();
    await stack.buyer?.close();
  }, SHIP_TEST_TIMEOUT_MS);
  return stack;
}

/**
 * The buyer's user's browser: follows redirects between the gateway, the editor and back, and posts cXML to
 * serve (anything but HTTP 200 throws). `serve` is asked for at each request, as suites start it in
 * beforeAll.
 */
export function serveBrowser(serve: () => ServeProcess) {
  return {
    browse: followRedirects((url, init) => fetch(url, { ...init, redirect: 'manual' })),
    async postCxml(body: string | Uint8Array, contentType = 'text/xml') {
      const answer = await fetch(`${serve().url}/cxml`, {
        method: 'POST',
        body: typeof body === 'string' ? body : new Uint8Array(body),
        headers: { 'Content-Type': contentType },
      });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`POST /cxml answered ${answer.status}: ${text}`);
      return text;
    },
  };
}

/** Waits for the ConfirmationRequest accept serve's background rounds send the buyer after a PO. */
export function acceptAtBuyer(buyer: BuyerSystem, processes: readonly PunchgateProcess[]) {
  return eventually(
    'the ConfirmationRequest accept at the buyer',
    () =>
      receivedDocuments(buyer, 'ConfirmationRequest').find(
        ({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'] === 'accept',
      ),
    { processes },
  );
}

/** The print service's API as the print shop's staff use it, with their own ('reporting') key. */
export function printShopApi(sandbox: SandboxProcess) {
  const staffKey = sandbox.apiKeys.find((k) => k.label === 'reporting');
  if (staffKey === undefined) throw new Error(`no second Enterprise key printed\n${sandbox.process.tail()}`);
  return createPrintApi({ baseUrl: sandbox.url, token: staffKey.token, key: staffKey.key });
}
