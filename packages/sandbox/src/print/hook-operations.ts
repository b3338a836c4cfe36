/**
 * Webhook registrations: they belong to the API token that created them (A08); a target_url is
 * registered once per token (X19); DELETE soft-deletes (T13); deleting the owning key disables them (T15).
 */
import { EventName, type HookEntry } from 'punchgate/schemas/print-api';
import { SandboxError } from './sandbox-error.ts';
import type { SandboxService } from './service.ts';
import type { HookRecord } from './state.ts';

/** Active, non-deleted hooks of the token, as GET /hooks lists them (R12). */
export function listHooks(service: SandboxService, token: string): HookEntry[] {
  return [...service.state.hooks.values()]
    .filter((h) => h.token === token && h.active && !h.deleted && !h.disabled)
    .map(hookEntry);
}

export function hookEntry(hook: HookRecord): HookEntry {
  return { id: hook.id, target_url: hook.targetUrl, event: hook.event };
}

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * POST /hooks: the event name is checked first (X17), then the URL, then uniqueness among the token's
 * live registrations (X19); a deleted or deactivated registration does not block registering again.
 */
export function createHook(
  service: SandboxService,
  token: string,
  targetUrl: string,
  event: string,
): HookRecord {
  const parsed = EventName.safeParse(event);
  if (!parsed.success) throw SandboxError.of('invalidEventName');
  if (!isHttpUrl(targetUrl)) throw SandboxError.invalid('target_url must be an absolute http or https URL.');
  const { hooks, next } = service.state;
  for (const hook of hooks.values()) {
    if (
      hook.token === token &&
      hook.targetUrl === targetUrl &&
      hook.active &&
      !hook.deleted &&
      !hook.disabled
    ) {
      throw SandboxError.of('targetUrlExists');
    }
  }
  const hook: HookRecord = {
    id: next.hook++,
    token,
    targetUrl,
    event: parsed.data,
    createdOn: service.now(),
    active: true,
    deleted: false,
    disabled: false,
  };
  hooks.set(hook.id, hook);
  return hook;
}

/** DELETE /hooks/{id}: another token's hook, or a deleted one, is X15. */
export function deleteHook(service: SandboxService, token: string, hookId: number): void {
  const hook = service.state.hooks.get(hookId);
  if (hook === undefined || hook.token !== token || hook.deleted) throw SandboxError.of('hookNotFound');
  hook.deleted = true;
  hook.active = false;
}

/** The admin deletes an API key (control API): it stops authenticating and its hooks are disabled. */
export function deleteApiKey(service: SandboxService, token: string): number {
  const key = service.state.apiKeys.get(token);
  if (key === undefined || key.deleted) throw SandboxError.own('notFound', 'No such API key.');
  key.deleted = true;
  let disabled = 0;
  for (const hook of service.state.hooks.values()) {
    if (hook.token === token && !hook.disabled) {
      hook.disabled = true;
      disabled++;
    }
  }
  return disabled;
}
