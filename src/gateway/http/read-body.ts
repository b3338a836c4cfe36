/**
 * A request body read within a size cap, telling apart the two ways reading can end early: the body is
 * larger than the cap (declared so, or found so while reading — then reading stops there), or the client
 * went away before sending it all (a stalled upload cut by the server's request timeout, a dropped
 * connection). Neither is a bug, so neither may reach the error funnel as one.
 */

type ReceivedBody =
  | { readonly kind: 'whole'; readonly bytes: Uint8Array }
  | { readonly kind: 'too_large' }
  | { readonly kind: 'cut_off' };

/**
 * The first part of a body, read before anyone is known: `whole` when the body ended within it, else its
 * first bytes and a `rest` to read once the sender is proven (or never, when they are not).
 */
export type ReceivedHead =
  | { readonly kind: 'whole'; readonly bytes: Uint8Array }
  | { readonly kind: 'head'; readonly bytes: Uint8Array; rest(maxBytes: number): Promise<ReceivedBody> }
  | { readonly kind: 'cut_off' };

function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads `reader` to its end after the `size` bytes already in `chunks`; undefined as soon as the total
 * passes `maxBytes` (reading stops and the stream is cancelled there, so an oversized body never sits in
 * memory). An error of the stream is thrown.
 */
async function readOn(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  chunks: Uint8Array[],
  size: number,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  let total = size;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(read.value);
  }
  return joined(chunks, total);
}

/**
 * A stream read whole, or undefined as soon as it passes `maxBytes`; an error of the stream is thrown.
 *
 * @example
 * const bytes = await readWithin(file.body, 16 * 1024 * 1024);
 */
export function readWithin(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  return readOn(stream.getReader(), [], 0, maxBytes);
}

/**
 * Reads a body in two steps, so a sender nobody knows yet costs at most `headBytes` plus one chunk of the
 * runtime's (tens of KB): the head first; `rest(maxBytes)` then reads on, within a cap chosen once the head
 * has said who sent it and what it is. A body never read further is left to the runtime, which closes its
 * connection after the answer without reading more. `enough`, asked after each chunk with the chunks read
 * so far, ends the head early once what it holds already decides the answer.
 *
 * @example
 * const head = await receiveHead(c.req.raw, 128 * 1024);
 * if (head.kind === 'head' && !trusted(head.bytes)) return refuse(401);
 * const body = head.kind === 'head' ? await head.rest(16 * 1024 * 1024) : head;
 */
export async function receiveHead(
  request: Request,
  headBytes: number,
  enough?: (chunks: readonly Uint8Array[]) => boolean,
): Promise<ReceivedHead> {
  // A body declared no larger than the head is read whole in one call: @hono/node-server then reads it
  // straight off the socket instead of building a web stream for it (a punch-in's setup, most documents).
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d{1,15}$/.test(declared) && Number(declared) <= headBytes) {
    try {
      return { kind: 'whole', bytes: new Uint8Array(await request.arrayBuffer()) };
    } catch {
      return { kind: 'cut_off' };
    }
  }
  if (request.body === null) return { kind: 'whole', bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < headBytes) {
      const read = await reader.read();
      if (read.done) return { kind: 'whole', bytes: joined(chunks, size) };
      chunks.push(read.value);
      size += read.value.byteLength;
      if (enough?.(chunks)) break;
    }
  } catch {
    return { kind: 'cut_off' };
  }
  const bytes = joined(chunks, size);
  const rest = async (maxBytes: number): Promise<ReceivedBody> => {
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { kind: 'too_large' };
    }
    try {
      const whole = await readOn(reader, [bytes], size, maxBytes);
      return whole === undefined ? { kind: 'too_large' } : { kind: 'whole', bytes: whole };
    } catch {
      return { kind: 'cut_off' };
    }
  };
  return { kind: 'head', bytes, rest };
}
