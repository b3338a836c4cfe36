/**
 * The logger the sandbox writes to: structured messages, no secrets (tokens, keys and passwords are never
 * passed to it). The default is silent; the CLI hands in a console logger.
 */

export interface SandboxLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: SandboxLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
