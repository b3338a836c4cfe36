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
 * @example
 * const body = await receiveBody(c.req.raw, 1024 * 1024);
 * if (body.kind === 'too_large') return refuse(406);
 */
export async function receiveBody(request: Request, maxBytes: number): Promise<ReceivedBody> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) return { kind: 'too_large' };
  if (request.body === null) return { kind: 'whole', bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { kind: 'too_large' };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'cut_off' };
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'whole', bytes };
}
