/**
 * A log file for a gateway the bench builds in its own process (the order job's), written the way
 * `punchgate serve` writes its log (`createNodeLogger('gateway')`: JSON lines at the default level through
 * pino's asynchronous destination, batched: `batchedLogDestination`), so that the lines cost the measured
 * work what serve's cost it. A synchronous destination would put each line's write on the measured thread,
 * which serve does not.
 */
import type { Logger } from '../../src/gateway/deps.ts';
import { batchedLogDestination, createNodeLogger } from '../../src/runtime/logging.ts';

export interface ServeLogFile {
  readonly logger: Logger;
  /** Writes what is held and closes the file. */
  close(): Promise<void>;
}

export function serveLogFile(path: string): ServeLogFile {
  const destination = batchedLogDestination({ dest: path, mkdir: true, append: false });
  return {
    logger: createNodeLogger('gateway', { ...process.env, LOG_FORMAT: 'json' }, { destination }),
    close: () => destination.end(),
  };
}
