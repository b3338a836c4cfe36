/**
 * Notifications to the operators: which exceptions are open (`find-exceptions.ts`, `exceptions.ts`), what
 * each channel sends of them (`announcements.ts`), the channels (`channels.ts`) and the round step that
 * ties them together (`notifier.ts`). `createConfiguredNotifier` builds it from the config.
 */
import type { ResolvedConfig } from '../deps.ts';
import type { GatewayContext } from '../context.ts';
import { createWebhookChannel, type NotificationChannel } from './channels.ts';
import type { RoundFacts } from './find-exceptions.ts';
import { createNotifier, type Notifier } from './notifier.ts';

export type { NotificationChannel, OutgoingMessage } from './channels.ts';
export type { Notifier, NotifierReport } from './notifier.ts';

/** The e-mail settings as configured, secrets resolved: what a runtime's SMTP channel is built from. */
export type EmailSettings = NonNullable<NonNullable<ResolvedConfig['notifications']>['email']>;

/**
 * The notifier of the configured channels; `undefined` when none is configured. E-mail is built by
 * `emailChannel`, which only a runtime with SMTP hands in (the Worker refuses an e-mail config at start).
 */
export function createConfiguredNotifier(
  ctx: GatewayContext,
  round: RoundFacts,
  emailChannel: ((email: EmailSettings) => NotificationChannel) | undefined,
): Notifier | undefined {
  const settings = ctx.config.notifications;
  if (settings === undefined) return undefined;
  const channels: NotificationChannel[] = [];
  const { webhook, email } = settings;
  if (webhook !== undefined) {
    channels.push(
      createWebhookChannel({
        url: webhook.url,
        fetch: ctx.fetch,
        ...(webhook.authorization !== undefined && { authorization: webhook.authorization }),
      }),
    );
  }
  if (email !== undefined && emailChannel !== undefined) channels.push(emailChannel(email));
  if (channels.length === 0) return undefined;
  return createNotifier({
    ctx,
    round,
    channels,
    settings: {
      digestAfter: settings.digestAfter,
      printServiceFailingMinutes: settings.printServiceFailingMinutes,
      refusalsPerHour: settings.refusalsPerHour,
      maxPerHour: {
        ...(webhook !== undefined && { webhook: webhook.maxPerHour }),
        ...(email !== undefined && { email: email.maxPerHour }),
      },
    },
    // A webhook URL may itself be the secret (Slack's are); never echo it in a message or a log line.
    extraSecrets: webhook === undefined ? [] : [webhook.url],
  });
}

/** Why a resolved config's notification settings cannot work, by config path (a URL read from a variable). */
export function notificationProblems(config: ResolvedConfig): { path: string; message: string }[] {
  const url = config.notifications?.webhook?.url;
  if (url === undefined) return [];
  try {
    const protocol = new URL(url).protocol;
    if (protocol === 'http:' || protocol === 'https:') return [];
  } catch {
    // reported below
  }
  return [{ path: 'notifications.webhook.url', message: 'must be an absolute http(s) URL' }];
}
