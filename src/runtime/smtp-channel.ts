/**
 * The e-mail channel of the notifications, over SMTP with nodemailer: Node only (a Worker opens no SMTP
 * connections), so the Node runtime hands it to the host and nodemailer never enters the Worker's bundle.
 * Every wait is bounded, so an SMTP server that is down or slow costs a round a few seconds at most; the
 * notifier logs the failure and sends the message again next round.
 */
import nodemailer from 'nodemailer';
import type { EmailSettings, NotificationChannel } from '../gateway/notifications/index.ts';

/** Connect, greeting and each socket wait: a few seconds, then the message is tried again next round. */
export const SMTP_TIMEOUT_MS = 5000;

/**
 * @example
 * const email = createSmtpChannel({ url: 'smtp://127.0.0.1:2525', from, to: [operator], maxPerHour: 10 });
 * await email.send(message);
 */
export function createSmtpChannel(email: EmailSettings, timeoutMs = SMTP_TIMEOUT_MS): NotificationChannel {
  const server = new URL(email.url);
  const secure = server.protocol === 'smtps:';
  const transport = nodemailer.createTransport({
    host: server.hostname,
    port: server.port === '' ? (secure ? 465 : 587) : Number(server.port),
    secure,
    ...(email.username !== undefined && { auth: { user: email.username, pass: email.password ?? '' } }),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    name: 'email',
    async send(message) {
      await transport.sendMail({
        from: email.from,
        to: email.to,
        subject: message.title,
        text: message.text,
        // Lets a mail client thread or drop a copy delivered twice (a round that failed after sending).
        messageId: `<${message.id}@punchgate>`,
        headers: { 'X-Punchgate-Event': message.event },
      });
    },
  };
}
