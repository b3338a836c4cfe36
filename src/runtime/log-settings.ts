/**
 * `LOG_LEVEL` and `LOG_FORMAT`, read the same way by the Node logger (pino) and the Workers logger
 * (JSON lines through `console`). Runtime-agnostic and dependency-free, so the Worker bundle does not
 * pull in pino to parse two variables.
 */

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const LOG_FORMATS = ['json', 'text'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogSettings {
  level: LogLevel;
  /** `undefined` when `LOG_FORMAT` is unset: the runtime picks (Node: text on a terminal, else JSON). */
  format: LogFormat | undefined;
}

/** A bad `LOG_LEVEL` or `LOG_FORMAT`: the message names the variable and what it accepts. */
export class LogSettingsError extends Error {
  override readonly name = 'LogSettingsError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

function pick<T extends string>(
  name: string,
  raw: string | undefined,
  allowed: readonly T[],
  problems: string[],
): T | undefined {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '') return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  problems.push(`${name} must be one of ${allowed.join(', ')} (it is "${raw}")`);
  return undefined;
}

/** Reads both variables; every problem at once, as a `LogSettingsError`. Case and spaces do not matter. */
export function readLogSettings(env: Readonly<Record<string, string | undefined>>): LogSettings {
  const problems: string[] = [];
  const level = pick('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, problems) ?? 'info';
  const format = pick('LOG_FORMAT', env.LOG_FORMAT, LOG_FORMATS, problems);
  if (problems.length > 0) throw new LogSettingsError(problems);
  return { level, format };
}

/** Whether a line at `level` is written when the threshold is `threshold`. */
export function logsAt(threshold: LogLevel, level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/**
 * Log fields whose value is a secret whatever it holds: masked as `[redacted]` by the Node and the Workers
 * logger alike, so a careless `logger.info('…', { password })` leaks nothing on either runtime.
 */
export const SECRET_LOG_FIELDS: readonly string[] = [
  'password',
  'secret',
  'sharedSecret',
  'token',
  'apiToken',
  'apiKey',
  'adminToken',
  'signingKey',
  'authorization',
  // The values a rotation retires (config field names), still accepted and so as secret as the current ones.
  'previousSigningKeys',
  'previousAdminTokens',
  'previousSharedSecrets',
  'previousPasswords',
];
