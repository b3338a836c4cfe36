/**
 * The notification step of the background round: finds the exceptions open now, and for each channel sends
 * what it has not announced yet (once per exception, digested when many are new at once, within its rate
 * limit), recording each delivered message's exceptions in the store's notification log. A message that
 * fails is logged and not recorded, so the next round sends it again; a channel that fails stops for the
 * round (a receiver that is down is not asked once per exception). Nothing here can fail the round: the host
 * runs it after the order work, and every error ends in the log.
 */
import type { NotificationsConfig } from '../../../schemas/config.ts';
import type { GatewayContext } from '../context.ts';
import { planAnnouncements, redactAnnouncement, redactSecrets, secretsToRedact } from './announcements.ts';
import type { NotificationChannel } from './channels.ts';
import { announcementKey } from './exceptions.ts';
import { findOpenExceptions, type RoundFacts } from './find-exceptions.ts';

const HOUR_MS = 3_600_000;

export interface NotifierReport {
  /** Exceptions open this round. */
  open: number;
  /** Messages delivered this round, per channel. */
  sent: Partial<Record<NotificationChannel['name'], number>>;
  failed: Partial<Record<NotificationChannel['name'], string>>;
}

export interface Notifier {
  /** One notification step; never rejects. */
  announce(): Promise<NotifierReport>;
}

export interface NotifierOptions {
  ctx: GatewayContext;
  settings: Pick<NotificationsConfig, 'digestAfter' | 'printServiceFailingMinutes' | 'refusalsPerHour'> & {
    /** Per channel, messages an hour. */
    maxPerHour: Partial<Record<NotificationChannel['name'], number>>;
  };
  channels: readonly NotificationChannel[];
  round: RoundFacts;
  /** Values never to leave in a message besides the config's own secrets (a webhook URL that is one). */
  extraSecrets?: readonly string[];
}

/**
 * @example
 * const notifier = createNotifier({ ctx, settings, channels: [createWebhookChannel({ url, fetch })], round });
 * await notifier.announce();
 */
export function createNotifier(options: NotifierOptions): Notifier {
  const { ctx, settings, channels } = options;
  const secrets = [...secretsToRedact(ctx.config), ...(options.extraSecrets ?? [])]
    .filter((s) => s.length > 0)
    .sort((a, b) => b.length - a.length);

  async function announceOn(
    channel: NotificationChannel,
    open: Awaited<ReturnType<typeof findOpenExceptions>>,
  ): Promise<number> {
    const now = ctx.clock.now();
    const keys = open.map(announcementKey);
    const announced = new Set(await ctx.store.notifications.announcedAmong(channel.name, keys));
    const limit = settings.maxPerHour[channel.name] ?? Number.POSITIVE_INFINITY;
    const sentLastHour = await ctx.store.notifications.messagesSince(
      channel.name,
      new Date(now.getTime() - HOUR_MS),
    );
    const plan = planAnnouncements(
      { open, announced, allowance: limit - sentLastHour, digestAfter: settings.digestAfter },
      ctx.publicUrl,
    );
    if (plan.length === 0 && open.some((e) => !announced.has(announcementKey(e)))) {
      ctx.logger.warn('notifications held back by the rate limit', { channel: channel.name, limit });
    }
    let sent = 0;
    for (const announcement of plan) {
      const id = ctx.randomId(12);
      await channel.send({ ...redactAnnouncement(announcement, secrets), id, gateway: ctx.publicUrl });
      await ctx.store.notifications.record(
        channel.name,
        id,
        announcement.exceptions.map(announcementKey),
        ctx.clock.now(),
      );
      sent += 1;
    }
    return sent;
  }

  return {
    async announce() {
      const report: NotifierReport = { open: 0, sent: {}, failed: {} };
      let open: Awaited<ReturnType<typeof findOpenExceptions>>;
      try {
        open = await findOpenExceptions(ctx, options.round, {
          printServiceFailingMinutes: settings.printServiceFailingMinutes,
          refusalsPerHour: settings.refusalsPerHour,
          staleAfterSeconds: ctx.config.background.staleAfterSeconds,
        });
      } catch (error) {
        ctx.logger.warn('notifications: open exceptions not read', { error: describe(error, secrets) });
        return report;
      }
      report.open = open.length;
      // Channels side by side: a slow one does not hold the other's messages back.
      await Promise.all(
        channels.map(async (channel) => {
          try {
            const sent = await announceOn(channel, open);
            report.sent[channel.name] = sent;
            if (sent > 0) ctx.logger.info('notifications sent', { channel: channel.name, messages: sent });
          } catch (error) {
            const reason = describe(error, secrets);
            report.failed[channel.name] = reason;
            ctx.logger.warn('notification not delivered; tried again next round', {
              channel: channel.name,
              error: reason,
            });
          }
        }),
      );
      return report;
    },
  };
}

/** An error as one line, its cause's too (a fetch's `fetch failed` says nothing alone), with secrets blanked. */
function describe(error: unknown, secrets: readonly string[]): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 3; depth++) {
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return redactSecrets(parts.join(' / '), secrets);
}
