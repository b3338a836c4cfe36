/**
 * The worker thread of `node-cxml-parser.ts`: parses the documents the main thread hands it, one message
 * each, and answers with the request in a form that crosses threads (extrinsic lists without their lookup
 * function, which the main thread puts back) or with the codec's error code and message, so the buyer gets
 * the very Status text an inline parse would give.
 */
import { parentPort } from 'node:worker_threads';
import { CxmlError } from '../cxml/error.ts';
import { parseCxmlRequest } from '../cxml/parse-request.ts';
import type { CxmlRequest } from '../cxml/request-types.ts';
import type { ParseAnswer, ParseTask } from './node-cxml-parser.ts';

/** The request without functions: each `Extrinsics` becomes its list (see `crossable` in the parser). */
function crossable(request: CxmlRequest): unknown {
  const lists = <T extends { extrinsics: { list: unknown } }>(item: T) => ({
    ...item,
    extrinsics: { list: item.extrinsics.list },
  });
  switch (request.kind) {
    case 'OrderRequest':
      return { ...lists(request), items: request.items.map(lists) };
    case 'PunchOutSetupRequest':
      return { ...lists(request), itemOut: request.itemOut.map(lists) };
    case 'ProfileRequest':
      return request;
  }
}

function answer(task: ParseTask): ParseAnswer {
  try {
    return { id: task.id, ok: true, request: crossable(parseCxmlRequest(task.bytes, task.options)) };
  } catch (error) {
    if (error instanceof CxmlError)
      return { id: task.id, ok: false, code: error.code, message: error.message };
    return { id: task.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (task: ParseTask) => {
  parentPort?.postMessage(answer(task));
});
