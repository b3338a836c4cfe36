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
import pino from 'pino';
import type { LogFields, Logger } from '../gateway/deps.ts';
import { type LogFormat, type LogLevel, readLogSettings, SECRET_LOG_FIELDS } from './log-settings.ts';

export { LogSettingsError, readLogSettings } from './log-settings.ts';

/** Field names that hold secrets; never expected in a log line, masked should a caller slip. */

export interface NodeLoggerOptions {
  /** Where the lines go (one `write` per line). Default: stderr. */
  destination?: { write(line: string): unknown };
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

  // Asynchronous: a line is handed to the kernel off the request's path, lines written meanwhile in one
  // write. Synchronous writes were a tenth of a busy server's main thread, and a reader that fell behind
  // stalled the server. pino flushes what is left synchronously when the process exits, so a fatal error's
  // last line is not lost; past LOG_BUFFER_BYTES waiting for a reader, lines are dropped, not held.
  const jsonDestination = out ?? pino.destination({ fd: 2, sync: false, maxLength: LOG_BUFFER_BYTES });
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
