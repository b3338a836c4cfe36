/**
 * A log file for a gateway the bench builds in its own process (the order job's), written the way
 * `punchgate serve` writes its log (`createNodeLogger('gateway')`: JSON lines at the default level through
 * pino's asynchronous destination), so that the lines cost the measured work what serve's cost it. A
 * synchronous destination would put each line's write on the measured thread, which serve does not.
 */
import pino from 'pino';
import type { Logger } from '../../src/gateway/deps.ts';
import { createNodeLogger } from '../../src/runtime/logging.ts';

/** As much as serve's logger holds for a slow reader (src/runtime/logging.ts). */
const BUFFER_BYTES = 16 * 1024 * 1024;

export interface ServeLogFile {
  readonly logger: Logger;
  /** Writes what is held and closes the file. */
  close(): Promise<void>;
}

export function serveLogFile(path: string): ServeLogFile {
  const destination = pino.destination({
    dest: path,
    mkdir: true,
    append: false,
    sync: false,
    maxLength: BUFFER_BYTES,
  });
  return {
    logger: createNodeLogger('gateway', { ...process.env, LOG_FORMAT: 'json' }, { destination }),
    close: () =>
      new Promise<void>((resolve) => {
        destination.once('close', () => resolve());
        destination.end();
      }),
  };
}
