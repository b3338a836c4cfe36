/**
 * The part of autocannon's API the harness uses (the package ships no types).
 */
declare module 'autocannon' {
  export interface AutocannonRequest {
    readonly method?: string;
    readonly path?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string | Buffer;
    onResponse?(status: number, body: string, context: object): void;
    /** Called before each request is sent; answers the request to send. */
    setupRequest?(request: AutocannonRequest, context: object): AutocannonRequest;
  }

  interface AutocannonOptions {
    readonly url: string;
    readonly connections: number;
    /** Seconds (fractions allowed). */
    readonly duration: number;
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string | Buffer;
    /** Replaces `[<id>]` in each request with a fresh unique id. */
    readonly idReplacement?: boolean;
    readonly requests?: readonly AutocannonRequest[];
    readonly timeout?: number;
  }

  interface AutocannonResult {
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly requests: { readonly total: number };
  }

  interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
  }

  function autocannon(options: AutocannonOptions): AutocannonInstance & Promise<AutocannonResult>;
  export default autocannon;
}
