/**
 * Which step of a background round an error came from. The error is not wrapped: callers go on telling the
 * store's and the print service's errors apart by class and code, while the round's failure line can name
 * where it happened (a stack alone does not say which of the round's many store calls it was, and an
 * outage's message has no stack worth logging). Steps nest: the host's round runs the order worker's tick,
 * which has steps of its own; the innermost step an error passed through is the one kept.
 *
 * Pure: no `node:*`, no I/O.
 */

const failedIn = new WeakMap<object, string>();

/** Runs one step of a round; an error it throws is marked with `step` (unless an inner step marked it). */
export async function inStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (typeof error === 'object' && error !== null && !failedIn.has(error)) failedIn.set(error, step);
    throw error;
  }
}

/** The step an error was thrown in, as `inStep` marked it; `undefined` for one thrown outside every step. */
export function failedStep(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? failedIn.get(error) : undefined;
}
