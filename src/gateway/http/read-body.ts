/**
 * A request body read whole, within a size cap, telling apart the two ways reading can end early: the body
 * is larger than the cap (declared so, or found so while reading — then reading stops there), or the client
 * went away before sending it all (a stalled upload cut by the server's request timeout, a dropped
 * connection). Neither is a bug, so neither may reach the error funnel as one.
 */

export type ReceivedBody =
  | { readonly kind: 'whole'; readonly bytes: Uint8Array }
  | { readonly kind: 'too_large' }
  | { readonly kind: 'cut_off' };

/**
 * A stream read whole, or undefined as soon as it passes `maxBytes` (reading stops and the stream is
 * cancelled there, so an oversized body never sits in memory); an error of the stream is thrown.
 *
 * @example
 * const bytes = await readWithin(file.body, 16 * 1024 * 1024);
 */
export async function readWithin(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * @example
 * const body = await receiveBody(c.req.raw, 1024 * 1024);
 * if (body.kind === 'too_large') return refuse(406);
 */
export async function receiveBody(request: Request, maxBytes: number): Promise<ReceivedBody> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) return { kind: 'too_large' };
  if (request.body === null) return { kind: 'whole', bytes: new Uint8Array(0) };
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readWithin(request.body, maxBytes);
  } catch {
    return { kind: 'cut_off' };
  }
  return bytes === undefined ? { kind: 'too_large' } : { kind: 'whole', bytes };
}
