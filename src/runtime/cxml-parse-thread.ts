/**
 * The worker thread of `node-cxml-parser.ts`: parses the documents the main thread hands it, one message
 * each, and answers with the request (plain data, so it crosses threads as it is) or with the codec's error
 * code and message, so the buyer gets the very Status text an inline parse would give.
 */
import { parentPort } from 'node:worker_threads';
import { CxmlError } from '../cxml/error.ts';
import { parseCxmlRequest } from '../cxml/parse-request.ts';
import type { CxmlRequest } from '../cxml/request-types.ts';
import type { ParseAnswer, ParseTask } from './node-cxml-parser.ts';

/**
 * The answer to one task. A list of the request longer than ITEMS_PER_MESSAGE (an OrderRequest's items) goes
 * first, that many entries to a message: the main thread reads each message in one go, and 5,000 items in
 * one took it 15–40 ms.
 */
function answer(task: ParseTask, post: (answer: ParseAnswer) => void): void {
  let request: CxmlRequest;
  try {
    request = parseCxmlRequest(task.bytes, task.options);
  } catch (error) {
    post(
      error instanceof CxmlError
        ? { id: task.id, ok: false, code: error.code, message: error.message }
        : { id: task.id, ok: false, message: error instanceof Error ? error.message : String(error) },
    );
    return;
  }
  const long = Object.entries(request).filter(
    (entry): entry is [string, unknown[]] => Array.isArray(entry[1]) && entry[1].length > ITEMS_PER_MESSAGE,
  );
  for (const [field, values] of long) {
    for (let from = 0; from < values.length; from += ITEMS_PER_MESSAGE) {
      post({ id: task.id, field, values: values.slice(from, from + ITEMS_PER_MESSAGE) });
    }
  }
  // The lists sent in parts go empty in the answer; the main thread puts the parts in their place.
  const emptied = Object.fromEntries(long.map(([field]) => [field, []]));
  post({ id: task.id, ok: true, request: { ...request, ...emptied } });
}

const ITEMS_PER_MESSAGE = 1000;

parentPort?.on('message', (task: ParseTask) => {
  answer(task, (each) => parentPort?.postMessage(each));
});
