/**
 * The floors of a gateway operation: the work the operation cannot avoid, done bare and back to back, so
 * that a case can hold the gateway's cost against it in the same run. Two flavours of the same parts:
 * - the *design* floor does them with the libraries the design names and nothing else — fast-xml-parser
 *   (the codec's set-up, `parseXmlTree`), better-sqlite3, jose, served by hono on @hono/node-server;
 * - the *physical* floor with the cheapest correct means found — the bench's lean parser
 *   (harness/lean-xml.ts: well-formedness checked, a tree built, about 5× cheaper than fast-xml-parser),
 *   better-sqlite3 (one commit is one commit), an HMAC-SHA256 token from `node:crypto`, served by a raw
 *   `node:http` handler (servers/floor-server.ts).
 * The parts:
 * - `parse`: a parse of the same document (no markup guard, no reading into cXML types);
 * - `commit`: one SQLite transaction inserting one row of `rowBytes` text, in WAL mode at the synchronous
 *   level the operation's write needs (`NORMAL` for sessions and one-time tokens, `FULL` for cart lines,
 *   POs and jobs; see src/store/sqlite.ts);
 * - `sign`, `verify`: a link token; design: an HS256 JWT through jose with a key imported once, as
 *   src/gateway/punchout/tokens.ts signs its links; physical: `createHmac` over the same claims;
 * - `calls`: one sandbox request per upstream call the operation cannot avoid, through the project's
 *   print-api client on a pooled undici transport in both flavours (the gateway's own; the client costs
 *   ≤ 1.1× raw undici, see the client-ping case), so an upstream call weighs the same in gateway and floors;
 * - `answerBytes`: for HTTP operations, the floor runs inside a bare Hono route (bench/servers/
 *   floor-server.ts) that answers this many bytes, so the HTTP round trip and the answer are in it too.
 *
 * `createFloorParts` runs a spec in this process (the order job's floors, which have no HTTP); the floor
 * servers run the same function inside their routes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { jwtVerify, SignJWT } from 'jose';
import { parseXmlTree } from '../../src/cxml/xml-tree.ts';
import { createPrintApi } from '../../src/index.ts';
import { createNodeFetch } from '../../src/print-api/node-fetch.ts';
import { parseLeanXml } from './lean-xml.ts';

/** Which means a floor does its parts with (see above). */
export type FloorFlavour = 'design' | 'physical';

/** The upstream calls a floor can make, each one request to the sandbox. */
export type SandboxCall =
  | 'createUser'
  | 'login'
  | 'getUser'
  | 'getProject'
  | 'createOrder'
  | 'processOrder'
  | 'getOrder'
  | 'setStatus';

export interface FloorSpec {
  /** Parse the document (the request's body in the floor server, `document` in process). */
  readonly parse?: boolean;
  /** What to parse when the floor runs in process. */
  readonly document?: string;
  readonly commit?: 'NORMAL' | 'FULL';
  /** Size of the committed row (default 1,000 bytes). */
  readonly rowBytes?: number;
  readonly sign?: number;
  readonly verify?: number;
  readonly calls?: readonly SandboxCall[];
  /** Bytes the floor server answers (HTTP operations only). */
  readonly answerBytes?: number;
}

/** What the sandbox calls act on: the bench's print-service account and its saved designs. */
export interface FloorSandbox {
  readonly url: string;
  readonly token: string;
  readonly key: string;
  readonly storefrontId: number;
  /** A PIPO session token of the gateway's user (read from its editor redirect). */
  readonly pipoToken: string;
  /** Designs of that user. */
  readonly designIds: readonly number[];
  /** An account that logs in, for `login`. */
  readonly login: { readonly username: string; readonly password: string };
}

/** `parse + NORMAL commit (2,000 B) + 1 sign + 1 verify + login + HTTP route (5,000 B answer)` */
export function describeFloor(spec: FloorSpec): string {
  const parts: string[] = [];
  if (spec.parse) parts.push('parse');
  if (spec.commit)
    parts.push(`1 ${spec.commit} commit (${(spec.rowBytes ?? 1000).toLocaleString('en-US')} B)`);
  if (spec.sign) parts.push(`${spec.sign} sign`);
  if (spec.verify) parts.push(`${spec.verify} verify`);
  for (const call of spec.calls ?? []) parts.push(`sandbox ${call}`);
  if (spec.answerBytes !== undefined) {
    parts.push(`bare route (${spec.answerBytes.toLocaleString('en-US')} B answer)`);
  }
  return parts.join(' + ');
}

const fillers = new Map<number, string>();

/** A text of `bytes` ASCII bytes (made once per size): a committed row, a floor route's answer. */
export function filler(bytes: number): string {
  let text = fillers.get(bytes);
  if (text === undefined) {
    text = 'x'.repeat(bytes);
    fillers.set(bytes, text);
  }
  return text;
}

export interface FloorParts {
  /** Runs the spec's parts back to back; `body` is what `parse` parses (default `spec.document`). */
  run(spec: FloorSpec, body?: string): Promise<void>;
  close(): Promise<void>;
}

/** A link token's sign and verify, in the flavour's means. */
interface LinkTokens {
  sign(): Promise<string> | string;
  verify(token: string): Promise<unknown> | boolean;
}

async function joseTokens(): Promise<LinkTokens> {
  const macKey = await crypto.subtle.importKey(
    'raw',
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode('punchgate-bench-floor')),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    sign() {
      const iat = Math.floor(Date.now() / 1000);
      return new SignJWT({ sid: 'floor-session-0123456789', pur: 'session' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .sign(macKey);
    },
    verify: (token) => jwtVerify(token, macKey),
  };
}

/** The same claims as the JWT, as `payload.mac` with an HMAC-SHA256 from node:crypto. */
function hmacTokens(): LinkTokens {
  const key = createHmac('sha256', 'punchgate-bench-floor').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    sign() {
      const iat = Math.floor(Date.now() / 1000);
      const payload = Buffer.from(
        `{"sid":"floor-session-0123456789","pur":"session","iat":${iat},"exp":${iat + 3600}}`,
      ).toString('base64url');
      return `${payload}.${mac(payload)}`;
    },
    verify(token) {
      const dot = token.indexOf('.');
      const expected = Buffer.from(mac(token.slice(0, dot)));
      const given = Buffer.from(token.slice(dot + 1));
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      const claims = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString()) as { exp: number };
      return claims.exp > Date.now() / 1000;
    },
  };
}

export async function createFloorParts(sandbox: FloorSandbox, flavour: FloorFlavour): Promise<FloorParts> {
  const dir = mkdtempSync(join(tmpdir(), 'punchgate-bench-floor-'));
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE row (id INTEGER PRIMARY KEY, data TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO row (data) VALUES (?)');
  const commit = db.transaction((data: string) => insert.run(data));
  let synchronous = '';
  const tokens = flavour === 'design' ? await joseTokens() : hmacTokens();
  const signed = await tokens.sign();
  const parse = flavour === 'design' ? parseXmlTree : parseLeanXml;

  const transport = createNodeFetch();
  const api = createPrintApi({
    baseUrl: sandbox.url,
    token: sandbox.token,
    key: sandbox.key,
    fetch: transport,
  });
  let serial = 0;
  let lastPrintOrder: number | undefined;
  const unique = () => `${process.pid}-${++serial}`;
  const calls: Record<SandboxCall, () => Promise<unknown>> = {
    createUser: () => {
      const name = `floor-${unique()}`;
      return api.pipo.createUser({
        storefront_id: sandbox.storefrontId,
        username: name,
        password: `Floor!${name}-0123456789`,
        email: `${name}@punchout.invalid`,
        first_name: 'Floor',
        last_name: 'User',
      });
    },
    login: () => api.pipo.login({ ...sandbox.login, storefront_id: sandbox.storefrontId }),
    getUser: () => api.pipo.getUser(sandbox.pipoToken),
    getProject: () => api.pipo.getProject(sandbox.pipoToken, sandbox.designIds[0]!),
    createOrder: async () => {
      lastPrintOrder = await api.pipo.createOrder(sandbox.pipoToken, sandbox.designIds, `FLOOR-${unique()}`);
    },
    processOrder: () => api.pipo.processOrder(sandbox.pipoToken, lastPrintOrder!),
    getOrder: () => api.getOrder(lastPrintOrder!),
    setStatus: () =>
      api.setStatus(lastPrintOrder!, { order_status: 'New Order', comments: 'PO FLOOR: floor comment' }),
  };

  return {
    async run(spec, body = spec.document) {
      if (spec.parse) parse(body ?? '');
      if (spec.commit !== undefined) {
        if (spec.commit !== synchronous) {
          db.pragma(`synchronous = ${spec.commit}`);
          synchronous = spec.commit;
        }
        commit.immediate(filler(spec.rowBytes ?? 1000));
      }
      for (let i = 0; i < (spec.sign ?? 0); i++) await tokens.sign();
      for (let i = 0; i < (spec.verify ?? 0); i++) await tokens.verify(signed);
      for (const call of spec.calls ?? []) await calls[call]();
    },
    async close() {
      await transport.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
