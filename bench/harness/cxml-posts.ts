/**
 * cXML documents posted to a gateway's `/cxml` by autocannon, and a returning user's setups measured while
 * another load runs beside them (big-po-beside-punch-in, strangers).
 */
import { setupRequest } from '../../test/support/cxml-documents.ts';
import { runAutocannon } from './autocannon-load.ts';
import type { Figures } from './bench-case.ts';

/** cXML answers HTTP 200 even for errors: a document counts as accepted only with Status 200 inside. */
export const cxmlAccepted = (status: number, body: string) =>
  status === 200 && body.includes('<Status code="200"');

export interface CxmlPostsOptions {
  /** The gateway's URL; the documents go to its `/cxml`. */
  readonly url: string;
  /** `[<id>]` in it becomes a fresh unique id per request (unique payloadIDs). */
  readonly body: string;
  readonly connections: number;
  readonly durationMs: number;
  readonly accept?: (status: number, body: string) => boolean;
}

/** A run of autocannon posting `body` as `text/xml` to `url`/cxml, to be called once per round. */
export function cxmlPosts({ url, body, connections, durationMs, accept }: CxmlPostsOptions) {
  return () =>
    runAutocannon({
      url: `${url}/cxml`,
      method: 'POST',
      connections,
      durationMs,
      headers: { 'content-type': 'text/xml; charset=UTF-8' },
      body,
      ...(accept !== undefined && { accept }),
    });
}

/** The test suite's returning user's PunchOutSetupRequest, with a payloadID of its own per request. */
export function returningUserSetup(): string {
  return setupRequest({ payloadID: 'BENCH-ID@buyer.example' }).replace('BENCH-ID', '[<id>]');
}

/**
 * Runs `setups` while `load` keeps going for as long as `running()` says; answers the setups' figures, how
 * many the load reported, and the milliseconds from starting the load to its end.
 */
export async function besideLoad(
  setups: () => Promise<Figures>,
  load: (running: () => boolean) => Promise<number>,
): Promise<{ figures: Figures; loaded: number; elapsedMs: number }> {
  let running = true;
  const started = performance.now();
  const loading = load(() => running);
  const figures = await setups();
  running = false;
  const loaded = await loading;
  return { figures, loaded, elapsedMs: performance.now() - started };
}
