/**
 * The ways an announcement reaches the operators. A channel only delivers: it answers when the message is
 * taken, and throws (within its deadline) when not; what was announced, the rate limit and the retry are
 * the notifier's. The webhook works everywhere (it is a `fetch`); e-mail needs SMTP sockets, so the Node
 * runtime hands it in (src/runtime/smtp-channel.ts) and a Worker has none.
 */
import type { Announcement } from './announcements.ts';

export const CHANNEL_NAMES = ['webhook', 'email'] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export interface NotificationChannel {
  readonly name: ChannelName;
  /** Delivers one message; rejects when it was not taken (or not within the channel's deadline). */
  send(message: OutgoingMessage): Promise<void>;
}

/** An announcement as it leaves: with an id the receiver can dedupe on, and the gateway that sent it. */
export interface OutgoingMessage extends Announcement {
  id: string;
  /** The gateway's public URL, so a team with several gateways knows which one speaks. */
  gateway: string;
}

/** How long a webhook receiver may take to answer before the message counts as not delivered. */
export const WEBHOOK_TIMEOUT_MS = 5000;

export interface WebhookChannelOptions {
  url: string;
  /** Sent as the `Authorization` header when set. */
  authorization?: string;
  fetch: typeof fetch;
  timeoutMs?: number;
}

/** What a webhook receiver gets: `text` is what Slack (and Mattermost, Teams' Slack-style hooks) shows. */
export function webhookBody(message: OutgoingMessage): string {
  return JSON.stringify({
    event: message.event,
    subject: message.subject,
    text: message.text,
    title: message.title,
    id: message.id,
    gateway: message.gateway,
    exceptions: message.exceptions.map((e) => ({
      event: e.event,
      subject: e.subject,
      summary: e.summary,
      ...(e.link !== undefined && { link: e.link }),
    })),
  });
}

/**
 * @example
 * const webhook = createWebhookChannel({ url: config.notifications.webhook.url, fetch });
 * await webhook.send(message);
 */
export function createWebhookChannel(options: WebhookChannelOptions): NotificationChannel {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return {
    name: 'webhook',
    async send(message) {
      const response = await options.fetch(options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(options.authorization !== undefined && { Authorization: options.authorization }),
        },
        body: webhookBody(message),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      // The body is not read: a receiver's answer says nothing the status does not, and may be large.
      await response.body?.cancel();
      if (response.status < 200 || response.status > 299) {
        throw new Error(`the webhook answered HTTP ${response.status}`);
      }
    },
  };
}
