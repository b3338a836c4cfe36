/**
 * cXML documents parsed off the event loop, on Node: a 5,000-line OrderRequest (3.3 MB) takes 250–400 ms to
 * parse, and inline that long every other request waits (a punch-in's p99 went from 7 to 367 ms beside such
 * POs; bench/cases/big-po-beside-punch-in.ts). One worker thread parses them instead; the main thread only
 * copies the bytes over and takes the parsed request back (≈ 15 ms for 5,000 lines). The gateway uses it
 * for documents larger than their head (`GatewayDeps.parseLargeCxml`); small ones cost less inline than the
 * trip. Workers have no threads and keep parsing inline.
 *
 * Failures: a document the codec refuses comes back as the same `CxmlError` (code and message), so the
 * buyer reads the same Status text as from an inline parse. A worker that dies (crash, out of memory,
 * terminated) loses nothing: every document it held is parsed inline instead, and the next one starts a
 * new worker.
 */
import { Worker } from 'node:worker_threads';
import { CxmlError, type CxmlErrorCode } from '../cxml/error.ts';
import type { CxmlParseOptions } from '../cxml/parse-options.ts';
import { parseCxmlRequest } from '../cxml/parse-request.ts';
import type { CxmlRequest } from '../cxml/request-types.ts';

/** What the main thread posts: one document. */
export interface ParseTask {
  id: number;
  bytes: Uint8Array;
  options: CxmlParseOptions;
}

/**
 * What the thread answers: the request, which is plain data and crosses as it is, or why it was refused.
 * A list too long for one message (an OrderRequest's items) comes first in parts, and is empty in the
 * answer, which takes the parts in its place.
 */
export type ParseAnswer =
  | { id: number; ok?: undefined; field: string; values: unknown[] }
  | { id: number; ok: true; request: CxmlRequest }
  | { id: number; ok: false; code?: CxmlErrorCode; message: string };

export interface OffThreadCxmlParser {
  /** `parseCxmlRequest(bytes, options)`, done on the worker thread. */
  parse(bytes: Uint8Array, options: CxmlParseOptions): Promise<CxmlRequest>;
  /** Ends the worker (documents in flight are parsed inline). */
  close(): Promise<void>;
}

interface Pending {
  task: ParseTask;
  /** The lists received in parts so far, by field. */
  parts: Map<string, unknown[]>;
  resolve(request: CxmlRequest): void;
  reject(error: unknown): void;
}

function settle(pending: Pending, answer: Exclude<ParseAnswer, { field: string }>): void {
  if (answer.ok) pending.resolve(Object.assign(answer.request, Object.fromEntries(pending.parts)));
  else if (answer.code !== undefined) pending.reject(new CxmlError(answer.code, answer.message));
  else pending.reject(new Error(`cXML parse thread: ${answer.message}`));
}

/** Parses inline: what a document held by a worker that died gets. */
function parseHere(pending: Pending): void {
  try {
    pending.resolve(parseCxmlRequest(pending.task.bytes, pending.task.options));
  } catch (error) {
    pending.reject(error);
  }
}

const THREAD = new URL(
  import.meta.url.endsWith('.ts') ? './cxml-parse-thread.ts' : './cxml-parse-thread.js',
  import.meta.url,
);

/**
 * @example
 * const parser = createOffThreadCxmlParser();
 * const request = await parser.parse(bytes, { maxBytes: 16 * 1024 * 1024 });
 * await parser.close();
 *
 * `thread` is the worker's script (tests hand in one that crashes).
 */
export function createOffThreadCxmlParser(options: { thread?: URL } = {}): OffThreadCxmlParser {
  const pending = new Map<number, Pending>();
  let worker: Worker | undefined;
  let nextId = 1;

  /** The worker is gone: forget it, and parse what it held here. */
  const lost = (dead: Worker) => {
    if (worker !== dead) return;
    worker = undefined;
    const held = [...pending.values()];
    pending.clear();
    for (const each of held) parseHere(each);
  };

  const start = (): Worker => {
    const started = new Worker(options.thread ?? THREAD);
    started.on('message', (answer: ParseAnswer) => {
      const waiting = pending.get(answer.id);
      if (waiting === undefined) return;
      if (answer.ok === undefined) {
        const received = waiting.parts.get(answer.field);
        if (received === undefined) waiting.parts.set(answer.field, answer.values);
        else for (const value of answer.values) received.push(value);
        return;
      }
      pending.delete(answer.id);
      settle(waiting, answer);
    });
    started.on('error', () => lost(started));
    started.on('exit', () => lost(started));
    // An idle worker must not keep the process alive; one with work is kept by the request's socket.
    started.unref();
    return started;
  };

  return {
    parse(bytes, parseOptions) {
      return new Promise<CxmlRequest>((resolve, reject) => {
        const task: ParseTask = { id: nextId++, bytes, options: parseOptions };
        const waiting: Pending = { task, parts: new Map(), resolve, reject };
        worker ??= start();
        pending.set(task.id, waiting);
        try {
          worker.postMessage(task);
        } catch {
          pending.delete(task.id);
          parseHere(waiting);
        }
      });
    },
    async close() {
      const running = worker;
      if (running !== undefined) await running.terminate();
    },
  };
}
