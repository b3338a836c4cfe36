/**
 * Bytes from the print service kept by key (a proof, a thumbnail), each downloaded once at a time: requests
 * for the same key while its download runs share it, and only a completed download is kept.
 */
import type { BoundedCache } from '../../kernel/bounded-cache.ts';

/**
 * @example
 * const proofs = sharedDownloads(new BoundedCache<string, Uint8Array>({ maxSize, sizeOf }));
 * const bytes = await proofs(key, () => downloadProof(ctx, proof));
 */
export function sharedDownloads(
  cache: BoundedCache<string, Uint8Array>,
): (key: string, download: () => Promise<Uint8Array>) => Promise<Uint8Array> {
  const pending = new Map<string, Promise<Uint8Array>>();
  return (key, download) => {
    const hit = cache.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let running = pending.get(key);
    if (running === undefined) {
      running = download()
        .then((bytes) => {
          cache.set(key, bytes);
          return bytes;
        })
        .finally(() => pending.delete(key));
      pending.set(key, running);
    }
    return running;
  };
}
