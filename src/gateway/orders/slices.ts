/**
 * Work on a big PO in slices: each step of its intake or job over 5,000 lines takes 10–30 ms of CPU, and
 * run back to back (awaits of a synchronous store settle as microtasks, which never let I/O in) they held
 * the event loop for over 100 ms, so a punch-in beside a big PO waited that long. Between steps, a PO of
 * many lines lets the event loop run other requests' callbacks; a small PO goes on at once, since a
 * timer's turn costs about a millisecond of latency.
 */

/** From this many lines on, a PO's steps give way to other work between them. */
export const SLICED_LINES = 500;

/**
 * Resolves on a later turn of the event loop when `lines` is at least SLICED_LINES, at once otherwise.
 *
 * @example
 * const cartLines = await readCartLines();
 * await letOthersRun(request.items.length);
 */
export function letOthersRun(lines: number): Promise<void> {
  if (lines < SLICED_LINES) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
