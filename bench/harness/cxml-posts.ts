/** cXML documents posted to a gateway's `/cxml` by autocannon. */
import { setupRequest } from '../../test/support/cxml-documents.ts';
import { runAutocannon } from './autocannon-load.ts';

/** cXML answers HTTP 200 even for errors: a document counts as accepted only with Status 200 inside. */
export const cxmlAccepted = (status: number, body: string) =>
  status === 200 && body.includes('<Status code="200"');

export interface CxmlPostsOptions {
  /** The gateway's URL; the documents go to its `/cxml`. */
  readonly url: string;
  /** `[<id>]` in it becomes a fresh unique id per request (unique payloadIDs). */
  readonly body: string;
  /** Makes each request's body instead (see AutocannonLoadOptions.bodyOf). */
  readonly bodyOf?: () => string;
  readonly connections: number;
  readonly durationMs: number;
  readonly accept?: (status: number, body: string) => boolean;
}

/** A run of autocannon posting `body` as `text/xml` to `url`/cxml, to be called once per round. */
export function cxmlPosts({ url, body, bodyOf, connections, durationMs, accept }: CxmlPostsOptions) {
  return () =>
    runAutocannon({
      url: `${url}/cxml`,
      method: 'POST',
      connections,
      durationMs,
      headers: { 'content-type': 'text/xml; charset=UTF-8' },
      body,
      ...(bodyOf !== undefined && { bodyOf }),
      ...(accept !== undefined && { accept }),
    });
}

/** The test suite's returning user's PunchOutSetupRequest, with a payloadID of its own per request. */
export function returningUserSetup(): string {
  return setupRequest({ payloadID: 'BENCH-ID@buyer.example' }).replace('BENCH-ID', '[<id>]');
}
