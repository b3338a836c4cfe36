/**
 * The Node logger: pino (fast, maintained, JSON lines that log shippers read as they are) with
 * `LOG_LEVEL` and `LOG_FORMAT`, writing to stderr so stdout stays free for command output.
 *
 * - `LOG_FORMAT=json`: pino's own lines, `{"level":"info","time":"…","pid":…,"hostname":"…","name":"…",
 *   "msg":"…",…fields}`; the default when stderr is not a terminal (containers, systemd, log shippers).
 * - `LOG_FORMAT=text`: one readable line, `time LEVEL name message {fields}`; the default on a terminal.
 *   Made here from pino's JSON, so both formats carry the same fields and no pretty-printer is needed.
 *
 * Lines written while the gateway handles a request carry its `requestId` wherever they are written:
 * `withFields` keeps it in an AsyncLocalStorage for the request's whole asynchronous run.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { writeSync } from 'node:fs';
import pino from 'pino';
import type { LogFields, Logger } from '../gateway/deps.ts';
import { type LogFormat, type LogLevel, readLogSettings, SECRET_LOG_FIELDS } from './log-settings.ts';

export { LogSettingsError, readLogSettings } from './log-settings.ts';

/** Field names that hold secrets; never expected in a log line, masked should a caller slip. */

export interface NodeLoggerOptions {
  /** Where the lines go (one `write` per line). Default: stderr, batched (`batchedLogDestination`). */
  destination?: LineSink;
  /** Whether the destination is a terminal, for the default format. Default: `process.stderr.isTTY`. */
  isTTY?: boolean;
  /** The time stamped on lines; tests freeze it. */
  now?: () => Date;
}

const TEXT_OMITTED = new Set(['level', 'time', 'name', 'msg', 'pid', 'hostname']);

/** `2026-11-22T09:00:00.000Z INFO  punchgate message {"field":1}` from one pino JSON line. */
export function textLine(json: string): string {
  const entry = JSON.parse(json) as Record<string, unknown>;
  const fields = Object.fromEntries(Object.entries(entry).filter(([key]) => !TEXT_OMITTED.has(key)));
  const detail = Object.keys(fields).length === 0 ? '' : ` ${JSON.stringify(fields)}`;
  const level = String(entry.level).toUpperCase().padEnd(5);
  return `${String(entry.time)} ${level} ${String(entry.name)} ${String(entry.msg)}${detail}\n`;
}

/** Log output held at most while stderr's reader falls behind (16 MiB, some 80,000 access lines). */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/** Lines wait at most this long to go out together (or until LOG_BATCH_BYTES of them wait). */
const LOG_BATCH_MS = 10;
const LOG_BATCH_BYTES = 4096;

/** Where lines go: one `write` per line. */
export interface LineSink {
  write(line: string): unknown;
}

/** A batch of lines in front of a destination. */
export interface BatchedLines extends LineSink {
  /** Hands what waits to the destination. */
  flush(): void;
  /** Writes what waits and closes the destination (a log file), once it is written. */
  end(): Promise<void>;
}

type AsyncDestination = ReturnType<typeof pino.destination>;
/** What each batch writes when the process exits. */
const atExit = new Set<() => void>();
let exitHooked = false;

/** sonic-boom's file descriptor (kept as `fd`, not in its types); -1 while a file is still opening. */
function descriptorOf(destination: AsyncDestination): number {
  return 'fd' in destination && typeof destination.fd === 'number' ? destination.fd : -1;
}

/**
 * pino's asynchronous destination (`{ fd }` or a file `{ dest }`) with its lines gathered for up to
 * LOG_BATCH_MS: each asynchronous write hands its bytes to libuv's pool and wakes the event loop again when
 * done, which cost about 50 µs of CPU a line when requests came one at a time (a tenth of a catalog page),
 * where a batch of lines costs that once. What waits is written, synchronously, when the process exits.
 */
export function batchedLogDestination(
  target: { fd: number } | { dest: string; mkdir?: boolean; append?: boolean },
): BatchedLines {
  const destination = pino.destination({ ...target, sync: false, maxLength: LOG_BUFFER_BYTES });
  let closed = false;
  let waiting = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const batch: BatchedLines = {
    write(line: string) {
      waiting += line;
      if (waiting.length >= LOG_BATCH_BYTES) batch.flush();
      // Unref'd: lines never keep a process alive; the exit hook writes them.
      else timer ??= setTimeout(batch.flush, LOG_BATCH_MS).unref();
      return true;
    },
    flush() {
      clearTimeout(timer);
      timer = undefined;
      if (waiting === '' || closed) return;
      const lines = waiting;
      waiting = '';
      destination.write(lines);
    },
    end() {
      batch.flush();
      return new Promise<void>((resolve) => {
        if (closed) return resolve();
        destination.once('close', () => resolve());
        destination.end();
      });
    },
  };
  // Written synchronously, behind what the destination holds: an asynchronous write begun now would not
  // finish before the process does.
  const writeAtExit = () => {
    clearTimeout(timer);
    try {
      destination.flushSync();
      const fd = descriptorOf(destination);
      if (waiting !== '' && fd >= 0) writeSync(fd, waiting);
    } catch {
      // Closed, or a file not open yet: nothing can be written now.
    }
    waiting = '';
  };
  if (!exitHooked) {
    process.once('exit', () => {
      for (const write of atExit) write();
    });
  }
  exitHooked = true;
  atExit.add(writeAtExit);
  destination.once('close', () => {
    closed = true;
    atExit.delete(writeAtExit);
  });
  return batch;
}

/** stderr's batch, one per process: the loggers writing there keep their lines in order between them. */
let stderrLines: BatchedLines | undefined;

function stderrBatch(): BatchedLines {
  stderrLines ??= batchedLogDestination({ fd: 2 });
  return stderrLines;
}

/**
 * The format the Node logger writes in: `LOG_FORMAT`, else text on a terminal and JSON elsewhere. Commands
 * that print more than log lines (serve's banner) ask it, so everything they write is in one format.
 *
 * @throws LogSettingsError as createNodeLogger.
 */
export function nodeLogFormat(
  env: Readonly<Record<string, string | undefined>> = process.env,
  isTTY: boolean = process.stderr.isTTY === true,
): LogFormat {
  return readLogSettings(env).format ?? (isTTY ? 'text' : 'json');
}

/**
 * @throws LogSettingsError when `LOG_LEVEL` or `LOG_FORMAT` holds something else than they accept; the
 * message names the variable (print it and exit 1).
 * @example
 * const logger = createNodeLogger('punchgate');
 * logger.info('listening', { port: 8080 });
 */
export function createNodeLogger(
  name: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: NodeLoggerOptions = {},
): Logger {
  const settings = readLogSettings(env);
  const format = nodeLogFormat(env, options.isTTY);
  const out = options.destination;
  const now = options.now ?? (() => new Date());

  // Asynchronous and batched: lines are handed to the kernel off the request's path, those of
  // LOG_BATCH_MS in one write. Synchronous writes were a tenth of a busy server's main thread, and a reader
  // that fell behind stalled the server. What waits is written synchronously when the process exits, so a
  // fatal error's last line is not lost; past LOG_BUFFER_BYTES waiting for a reader, lines are dropped.
  const jsonDestination = out ?? stderrBatch();
  const destination =
    format === 'json'
      ? jsonDestination
      : { write: (line: string) => (out ?? process.stderr).write(textLine(line)) };

  const base = pino(
    {
      name,
      level: settings.level,
      timestamp: () => `,"time":"${now().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...SECRET_LOG_FIELDS], censor: '[redacted]' },
    },
    destination,
  );
  const scope = new AsyncLocalStorage<LogFields>();

  const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (!base.isLevelEnabled(level)) return;
    base[level]({ ...scope.getStore(), ...fields }, message);
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    withFields: (fields, work) => scope.run({ ...scope.getStore(), ...fields }, work),
  };
}
