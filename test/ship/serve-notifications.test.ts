/**
 * Notifications as they ship: `punchgate sandbox` and `punchgate serve --config FILE` as processes, the
 * config's `notifications` written as docs/configuration.md writes them (the webhook URL and the SMTP
 * password from the environment), a webhook receiver and an SMTP server (`smtp-server`) on loopback. A PO
 * that waits for an operator produces one e-mail and one webhook call — not one per background round.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linesOf, orderRequest, punchOut } from '../support/order-flow.ts';
import {
  type MailServer,
  startMailServer,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/notification-receivers.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN, BUYER_SECRET } from './user-config.ts';

const SMTP_PASSWORD = 'ship-test-smtp-password-0123';

describe('punchgate serve as a process tells the operator of a PO that waits for one', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  let hook: WebhookReceiver;
  let smtp: MailServer;
  const serveEnv: Record<string, string> = {};
  // Before the stack's own beforeAll (registered below), so the config can name both receivers.
  beforeAll(async () => {
    hook = await startWebhookReceiver();
    smtp = await startMailServer({ password: SMTP_PASSWORD });
    Object.assign(serveEnv, { PUNCHGATE_NOTIFY_WEBHOOK_URL: hook.url, SMTP_PASSWORD });
  });
  afterAll(async () => {
    await hook?.close();
    await smtp?.close();
  });
  const stack = useServeBesideSandbox({
    serveEnv,
    adjustConfig(config) {
      // A PO with a line the gateway cannot produce waits for an operator.
      config.buyers[0].unknownLines = 'hold';
      config.notifications = {
        webhook: { url: { env: 'PUNCHGATE_NOTIFY_WEBHOOK_URL' } },
        email: {
          url: smtp.url,
          from: 'punchgate@printco.example',
          to: ['orders@printco.example'],
          username: 'gateway',
          password: { env: 'SMTP_PASSWORD' },
        },
      };
    },
  });
  const browser = serveBrowser(() => stack.serve);

  /** When serve's last background round completed, as its admin overview says. */
  const lastRoundAt = async (): Promise<number> => {
    const answer = await fetch(`${stack.serve.url}/admin/overview`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const overview = (await answer.json()) as { lastBackgroundRoundAt: string | null };
    return overview.lastBackgroundRoundAt === null ? 0 : Date.parse(overview.lastBackgroundRoundAt);
  };

  it('one e-mail and one webhook call for the PO, however many rounds find it waiting', async () => {
    const processes = [stack.serve.process, stack.sandbox.process];
    const cart = await punchOut(browser, ['Business cards'], { browserFormPost: stack.buyer.returnUrl });
    const freight = { sku: 'FREIGHT', quantity: '1', unitPrice: '25.00' };
    const answer = await browser.postCxml(
      orderRequest({ orderID: 'PO-WAITS-1', lines: [...linesOf(cart), freight] }),
    );
    expect(answer).toMatch(/<Status code="200" text="OK"/);

    await eventually('the webhook call', () => hook.received[0], { processes });
    await eventually('the e-mail', () => smtp.mails[0], { processes });
    // Several more rounds complete with the PO still waiting (serve runs one a second).
    const announcedBy = await lastRoundAt();
    await eventually(
      'three more background rounds',
      async () => ((await lastRoundAt()) >= announcedBy + 3000 ? true : undefined),
      { processes },
    );

    expect(hook.received).toHaveLength(1);
    const call = JSON.parse(hook.received[0]?.body ?? '') as Record<string, unknown>;
    expect(call).toMatchObject({ event: 'po_needs_operator', gateway: stack.serve.url.replace(/\/$/, '') });
    expect(call.text).toContain(
      'PO PO-WAITS-1 of buyer acme needs an operator: Line 2 (SupplierPartID FREIGHT) is not a product of this catalog',
    );
    expect(call.text).toMatch(/\/admin\/ui\/orders\/\d+/);

    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail?.from).toBe('punchgate@printco.example');
    expect(mail?.to).toStrictEqual(['orders@printco.example']);
    expect(mail?.user).toBe('gateway');
    expect(mail?.data).toMatch(/^Subject: \[punchgate\] A PO needs an operator\r$/m);
    expect(mail?.text).toContain(call.text as string);
    for (const secret of [BUYER_SECRET, SMTP_PASSWORD, ADMIN_TOKEN]) {
      expect(mail?.data).not.toContain(secret);
      expect(hook.received[0]?.body).not.toContain(secret);
    }
  });
});
