/** A parse thread that dies on its first document (node-cxml-parser.test.ts), as a crash or OOM would. */
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', () => {
  process.exit(7);
});
