/**
 * Posting a cXML request to the gateway server to server, as a procurement system does, and reading its
 * answer. Nothing here throws: a network failure, a non-200 HTTP status or an unreadable body becomes a
 * Status-like answer with code 0 and a message, which the page shows next to the raw exchange.
 */
import { type CxmlAnswer, readCxmlResponse } from './read-response.ts';
import { SimulatorError } from './simulator-error.ts';

export interface GatewayExchange {
  readonly url: string;
  readonly httpStatus?: number;
  /** The answer body as received ('' when none). */
  readonly body: string;
  readonly answer: CxmlAnswer;
}

/** How long a buyer waits for a synchronous cXML answer (Coupa waits 60 s for an OrderRequest). */
const GATEWAY_TIMEOUT_MS = 60_000;

function failed(url: string, detail: string, httpStatus?: number, body = ''): GatewayExchange {
  return {
    url,
    ...(httpStatus !== undefined && { httpStatus }),
    body,
    answer: { status: { code: 0, text: 'No cXML answer', detail } },
  };
}

/**
 * @example
 * const exchange = await postCxml(fetch, 'http://127.0.0.1:8080/cxml', setupRequestXml);
 * exchange.answer.status.code; // 200, or 0 when the gateway could not be reached
 */
export async function postCxml(fetchImpl: typeof fetch, url: string, xml: string): Promise<GatewayExchange> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=UTF-8', Accept: 'text/xml' },
      body: xml,
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return failed(url, `The gateway could not be reached: ${reason}`);
  }
  const body = await response.text().catch(() => '');
  if (response.status !== 200) {
    return failed(
      url,
      `The gateway answered HTTP ${response.status}; cXML answers always come with HTTP 200.`,
      response.status,
      body,
    );
  }
  try {
    return { url, httpStatus: 200, body, answer: readCxmlResponse(body) };
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error;
    return failed(url, `The answer is not a cXML Response: ${error.message}`, 200, body);
  }
}
