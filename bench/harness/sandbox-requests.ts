/**
 * Counting the requests the benchmark sandbox serves, to report how many upstream calls one gateway
 * operation costs. A module of its own so that a case can ask without importing (and so starting) the
 * server script.
 */

/** Served by bench/servers/sandbox-server.ts; not itself counted. */
export const REQUEST_COUNT_PATH = '/__bench/requests';

/** How many requests the sandbox at `url` has served so far. */
export async function sandboxRequestCount(url: string): Promise<number> {
  const answer = await fetch(`${url}${REQUEST_COUNT_PATH}`);
  if (!answer.ok) throw new Error(`${url}${REQUEST_COUNT_PATH}: HTTP ${answer.status}`);
  return ((await answer.json()) as { count: number }).count;
}
