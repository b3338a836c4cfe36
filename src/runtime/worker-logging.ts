/**
 * The Workers logger: one JSON object per line through `console`, which Workers Logs and `wrangler tail`
 * index by field. `console.debug/info/warn/error` per level, so the platform's level filter agrees.
 * `LOG_LEVEL` (a Worker variable) sets the threshold; `LOG_FORMAT` is checked but lines are always JSON,
 * since nothing on Workers reads text better. No AsyncLocalStorage here (it needs `nodejs_compat`, which
 * the bundle avoids), so only lines that name the request carry `requestId`; Workers Logs groups every
 * line of one invocation anyway.
 */
import type { LogFields, Logger } from '../gateway/deps.ts';
import { type LogLevel, logsAt, readLogSettings, SECRET_LOG_FIELDS } from './log-settings.ts';

const SECRET = new Set(SECRET_LOG_FIELDS);

export { LogSettingsError } from './log-settings.ts';

export interface WorkerLoggerOptions {
  /** Default: the global `console`. */
  console?: Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;
  now?: () => Date;
}

/**
 * @throws LogSettingsError when `LOG_LEVEL` or `LOG_FORMAT` holds a value they do not accept.
 * @example
 * const logger = createWorkerLogger('punchgate', env);
 * logger.warn('config refused', { problems: 3 });
 */
export function createWorkerLogger(
  name: string,
  env: Readonly<Record<string, unknown>>,
  options: WorkerLoggerOptions = {},
): Logger {
  const settings = readLogSettings({
    LOG_LEVEL: typeof env.LOG_LEVEL === 'string' ? env.LOG_LEVEL : undefined,
    LOG_FORMAT: typeof env.LOG_FORMAT === 'string' ? env.LOG_FORMAT : undefined,
  });
  const out = options.console ?? console;
  const now = options.now ?? (() => new Date());

  const at = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (!logsAt(settings.level, level)) return;
    const line: Record<string, unknown> = { level, time: now().toISOString(), name, msg: message };
    // No field may pass for the level, time, name or message; secret-named fields are masked as on Node.
    for (const [key, value] of Object.entries(fields ?? {})) {
      if (!(key in line)) line[key] = SECRET.has(key) ? '[redacted]' : value;
    }
    out[level](JSON.stringify(line));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
