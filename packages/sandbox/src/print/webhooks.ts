/**
 * Webhook deliveries: when an event fires, every active hook for that event under the license gets one
 * HTTP POST (Content-Type application/json) whose body is a one-element JSON array holding the resource as
 * the matching GET answers it (W01, W02). Deliveries are tried once with a short timeout, never retried,
 * never signed (the sandbox's choice; W06). A 410 answer deactivates the hook (W04); an unreachable target
 * fails silently: logged and recorded in the delivery list (W05).
 *
 * Deliveries run after the API has answered; `idle()` resolves once every started delivery has finished, so
 * tests can wait for them deterministically.
 */
import type { EventName } from 'punchgate/schemas/print-api';
import { interfaceJson } from './interface-json.ts';
import type { SandboxLogger } from './logger.ts';
import type { DeliveryRecord, HookRecord, SandboxState } from './state.ts';

/** How many delivery records are kept; older ones are dropped so a long-running sandbox stays small. */
const DELIVERY_HISTORY = 1000;

export interface WebhookDispatcherOptions {
  readonly fetch: typeof fetch;
  readonly logger: SandboxLogger;
  readonly timeoutMs: number;
  readonly now: () => number;
  readonly state: () => SandboxState;
}

/** Receives a delivery's promise where the runtime must be told to keep working after the answer (Workers). */
export type KeepAlive = (work: Promise<unknown>) => void;

export class WebhookDispatcher {
  readonly #options: WebhookDispatcherOptions;
  readonly #pending = new Set<Promise<void>>();

  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
  }

  /** The hooks an event of this license goes to: active, not deleted, not disabled, owned by a live key. */
  hooksFor(licenseId: number, event: EventName): HookRecord[] {
    const state = this.#options.state();
    return [...state.hooks.values()].filter((hook) => {
      if (hook.event !== event || !hook.active || hook.deleted || hook.disabled) return false;
      const key = state.apiKeys.get(hook.token);
      return key !== undefined && key.licenseId === licenseId && key.active && !key.deleted;
    });
  }

  /**
   * Fires an event: one delivery per matching hook. The body is serialized now, so a delivery shows the
   * resource as it was when the event fired.
   */
  emit(licenseId: number, event: EventName, resource: unknown, keepAlive?: KeepAlive): void {
    const hooks = this.hooksFor(licenseId, event);
    if (hooks.length === 0) return;
    const body = interfaceJson([resource]);
    const state = this.#options.state();
    for (const hook of hooks) {
      const record: DeliveryRecord = {
        id: state.next.delivery++,
        hookId: hook.id,
        event,
        targetUrl: hook.targetUrl,
        at: this.#options.now(),
        outcome: 'pending',
        status: null,
        error: null,
      };
      state.deliveries.push(record);
      if (state.deliveries.length > DELIVERY_HISTORY) state.deliveries.shift();
      // A microtask later: the API answer is never held up by a delivery.
      const work = Promise.resolve().then(() => this.#deliver(hook, record, body));
      this.#pending.add(work);
      void work.finally(() => this.#pending.delete(work));
      keepAlive?.(work);
    }
  }

  /** Resolves when every delivery started so far (and any started meanwhile) has finished. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #deliver(hook: HookRecord, record: DeliveryRecord, body: string): Promise<void> {
    const { logger } = this.#options;
    try {
      const response = await this.#options.fetch(hook.targetUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      // The answer's body is not used; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      record.status = response.status;
      if (response.status === 410) {
        hook.active = false;
        record.outcome = 'gone';
        logger.info('webhook target answered 410 Gone; hook deactivated', { hookId: hook.id });
      } else if (response.ok) {
        record.outcome = 'delivered';
      } else {
        record.outcome = 'rejected';
        logger.warn('webhook target refused a delivery', { hookId: hook.id, status: response.status });
      }
    } catch (error) {
      record.outcome = 'unreachable';
      record.error = error instanceof Error ? error.message : String(error);
      logger.warn('webhook target unreachable', { hookId: hook.id, error: record.error });
    }
  }
}
