/**
 * The notification channels against real receivers on loopback: the webhook against a plain HTTP server,
 * e-mail against `smtp-server` (never a real mail server). Each delivers one message as it says, and
 * rejects — within its deadline — when the receiver refuses, is away or does not answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookChannel, type OutgoingMessage } from '../../src/gateway/notifications/channels.ts';
import { createSmtpChannel } from '../../src/runtime/smtp-channel.ts';
import {
  type MailServer,
  startMailServer,
  startWebhookReceiver,
  type WebhookCall,
  type WebhookReceiver,
} from '../support/notification-receivers.ts';

const MESSAGE: OutgoingMessage = {
  id: 'm-1',
  gateway: 'https://gateway.example',
  event: 'po_needs_operator',
  subject: 'po:7',
  title: '[punchgate] A PO needs an operator',
  text: '[punchgate] A PO needs an operator\nPO PO-7 of buyer acme needs an operator\n\n(https://gateway.example)',
  exceptions: [
    {
      event: 'po_needs_operator',
      subject: 'po:7',
      cause: 'needs_operator',
      summary: 'PO PO-7 of buyer acme needs an operator',
      link: 'https://gateway.example/admin/ui/orders/7',
    },
  ],
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function receiver(answer: (call: WebhookCall) => number | undefined): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(answer);
  closers.push(started.close);
  return started;
}

async function smtpServer(options: { password?: string } = {}): Promise<MailServer> {
  const started = await startMailServer(options);
  closers.push(started.close);
  return started;
}

describe('the webhook channel', () => {
  it('POSTs one JSON message with event, subject and a Slack-compatible text, and the Authorization set', async () => {
    const hook = await receiver(() => 200);
    const channel = createWebhookChannel({ url: hook.url, authorization: 'Bearer hook-token-123', fetch });
    await channel.send(MESSAGE);
    expect(hook.received).toHaveLength(1);
    const [call] = hook.received;
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.headers.authorization).toBe('Bearer hook-token-123');
    expect(JSON.parse(call?.body ?? '')).toStrictEqual({
      event: 'po_needs_operator',
      subject: 'po:7',
      text: MESSAGE.text,
      title: MESSAGE.title,
      id: 'm-1',
      gateway: 'https://gateway.example',
      exceptions: [
        {
          event: 'po_needs_operator',
          subject: 'po:7',
          summary: 'PO PO-7 of buyer acme needs an operator',
          link: 'https://gateway.example/admin/ui/orders/7',
        },
      ],
    });
  });

  it('rejects an answer other than 2xx, and a receiver that does not answer within its deadline', async () => {
    const refusing = await receiver(() => 503);
    await expect(createWebhookChannel({ url: refusing.url, fetch }).send(MESSAGE)).rejects.toThrow(
      'the webhook answered HTTP 503',
    );
    const hanging = await receiver(() => undefined);
    await expect(
      createWebhookChannel({ url: hanging.url, fetch, timeoutMs: 200 }).send(MESSAGE),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(hanging.received).toHaveLength(1);
  });
});

describe('the e-mail channel', () => {
  it('sends one mail from the configured sender to every recipient, with the title as subject and the text as body', async () => {
    const smtp = await smtpServer({ password: 'smtp-password-42' });
    const channel = createSmtpChannel({
      url: smtp.url,
      from: 'punchgate@printshop.example',
      to: ['ops@printshop.example', 'owner@printshop.example'],
      username: 'gateway',
      password: 'smtp-password-42',
      maxPerHour: 10,
    });
    await channel.send(MESSAGE);
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail?.from).toBe('punchgate@printshop.example');
    expect(mail?.to).toStrictEqual(['ops@printshop.example', 'owner@printshop.example']);
    expect(mail?.user).toBe('gateway');
    expect(mail?.data).toMatch(/^Subject: \[punchgate\] A PO needs an operator\r$/m);
    expect(mail?.data).toMatch(/^X-Punchgate-Event: po_needs_operator\r$/m);
    expect(mail?.text).toBe(`${MESSAGE.text}\n`);
    expect(mail?.data).not.toContain('smtp-password-42');
  });

  it('rejects when the server refuses the credentials or is not there', async () => {
    const smtp = await smtpServer({ password: 'right-password' });
    const settings = { from: 'punchgate@printshop.example', to: ['ops@printshop.example'], maxPerHour: 10 };
    await expect(
      createSmtpChannel({ ...settings, url: smtp.url, username: 'gateway', password: 'wrong-password' }).send(
        MESSAGE,
      ),
    ).rejects.toThrow(/Invalid username or password/);
    expect(smtp.mails).toHaveLength(0);
    // A port nobody listens on: the one just closed.
    const gone = await smtpServer();
    const url = gone.url;
    await closers.pop()?.();
    await expect(createSmtpChannel({ ...settings, url }, 1000).send(MESSAGE)).rejects.toThrow(/ECONNREFUSED/);
  });
});
