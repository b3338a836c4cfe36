/**
 * A gateway logger that keeps every line, for tests that scan the logs for secrets or count errors.
 */
import type { LogFields, Logger } from '../../src/gateway/deps.ts';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: LogFields;
}

export interface CapturingLogger extends Logger {
  lines: LogLine[];
  /** Every line as the JSON a log shipper would get. */
  text(): string;
}

export function capturingLogger(): CapturingLogger {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (message: string, fields: LogFields = {}) => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => lines.map((line) => JSON.stringify(line)).join('\n'),
  };
}
