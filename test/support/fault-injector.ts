/**
 * A print service that misbehaves on cue: wraps the stack's transport to the sandbox and, for requests
 * matching a rule, times out, hangs, resets the connection, answers 5xx (having done nothing), answers
 * slowly, garbles a 200 answer (having done the work), or loses the answer after the service acted.
 */

export type Fault =
  | { kind: 'timeout' }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'slow'; ms: number }
  | { kind: 'malformed-json' }
  | { kind: 'lost-answer' };

export interface FaultRule {
  /** Matched against `METHOD /path` of the request, e.g. /^POST \/api\/v2\/pipo\/order\/create$/. */
  match: RegExp;
  fault: Fault;
  /** How many matching requests fail; default every one. */
  times?: number;
}

export interface FaultInjector {
  wrap(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
  inject(rule: FaultRule): void;
  clear(): void;
  /** `METHOD /path` of every request a fault was applied to. */
  applied: string[];
}

function connectionReset(): TypeError {
  const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  return new TypeError('fetch failed', { cause });
}

export function faultInjector(): FaultInjector {
  let rules: (FaultRule & { left: number })[] = [];
  const applied: string[] = [];

  async function misbehave(
    fault: Fault,
    request: Request,
    fetch: typeof globalThis.fetch,
  ): Promise<Response> {
    switch (fault.kind) {
      case 'timeout':
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      case 'hang':
        // Never answers: only the client's own timeout (its abort signal) ends the wait.
        return new Promise<Response>((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
        });
      case 'reset':
        throw connectionReset();
      case 'status':
        // A 2xx with a broken body comes from a service that did the work; an error status did nothing.
        if (fault.status < 300) await fetch(request);
        return new Response(fault.body ?? '<html><body>Bad Gateway</body></html>', {
          status: fault.status,
          headers: { 'Content-Type': 'text/html', ...fault.headers },
        });
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        return fetch(request);
      case 'malformed-json':
        await fetch(request);
        return new Response('{"id": 12, "status": ', {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      case 'lost-answer':
        // The service did the work; the answer never arrives.
        await fetch(request);
        throw connectionReset();
    }
  }

  return {
    applied,
    inject(rule) {
      rules.push({ ...rule, left: rule.times ?? Number.POSITIVE_INFINITY });
    },
    clear() {
      rules = [];
    },
    wrap(fetch) {
      return async (input, init) => {
        const request = new Request(input, init);
        const call = `${request.method} ${new URL(request.url).pathname}`;
        const rule = rules.find((r) => r.left > 0 && r.match.test(call));
        if (rule === undefined) return fetch(request);
        rule.left--;
        applied.push(call);
        return misbehave(rule.fault, request, fetch);
      };
    },
  };
}
