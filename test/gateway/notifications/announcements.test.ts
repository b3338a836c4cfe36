/**
 * What a channel sends of the open exceptions, decided from plain data: each new one once, a digest when
 * many are new at once or the rate limit leaves fewer messages, nothing already announced, and a PO's
 * exception flags announced as themselves rather than as "needs an operator". Secrets never leave.
 */
import { describe, expect, it } from 'vitest';
import {
  secretsToRedact,
  DIGEST_MAX_ITEMS,
  planAnnouncements,
  redactAnnouncement,
} from '../../../src/gateway/notifications/announcements.ts';
import {
  announcementKey,
  type OpenException,
  purchaseOrderExceptions,
} from '../../../src/gateway/notifications/exceptions.ts';
import { resolveTestConfig, testConfig } from '../../support/stack.ts';

const GATEWAY = 'https://gateway.example';

function waiting(id: number, flags: string[] = [], lastError?: string): OpenException[] {
  return purchaseOrderExceptions(
    {
      id: String(id),
      orderId: `PO-${id}`,
      buyerId: 'acme',
      flags,
      ...(lastError !== undefined && { lastError }),
    },
    `${GATEWAY}/admin/ui/orders/${id}`,
  );
}

const plan = (open: OpenException[], announced: string[] = [], allowance = 10, digestAfter = 3) =>
  planAnnouncements({ open, announced: new Set(announced), allowance, digestAfter }, GATEWAY);

describe('what a PO waiting for an operator is announced as', () => {
  it('needs an operator, with its last error, when it has no exception flag of its own', () => {
    expect(waiting(7, ['price_mismatch'], 'the print order failed: HTTP 422')).toStrictEqual([
      {
        event: 'po_needs_operator',
        subject: 'po:7',
        cause: 'needs_operator',
        summary: 'PO PO-7 of buyer acme needs an operator: the print order failed: HTTP 422',
        link: `${GATEWAY}/admin/ui/orders/7`,
      },
    ]);
  });

  it('a held invoice as a held invoice only, and each exception flag as itself', () => {
    expect(
      waiting(7, ['invoice_held'], 'price differs').map((e) => [e.event, announcementKey(e)]),
    ).toStrictEqual([['invoice_held', 'po:7|invoice_held']]);
    expect(
      waiting(8, ['invoice_rejected', 'document_dead', 'quantity_mismatch']).map((e) => [e.event, e.cause]),
    ).toStrictEqual([
      ['invoice_rejected', 'invoice_rejected'],
      ['document_dead', 'document_dead'],
    ]);
  });
});

describe('planAnnouncements', () => {
  it('sends each new exception on its own while fewer than digestAfter are new', () => {
    const messages = plan([...waiting(1), ...waiting(2)]);
    expect(messages.map((m) => [m.event, m.subject, m.title])).toStrictEqual([
      ['po_needs_operator', 'po:1', '[punchgate] A PO needs an operator'],
      ['po_needs_operator', 'po:2', '[punchgate] A PO needs an operator'],
    ]);
    expect(messages[0]?.text).toBe(
      `[punchgate] A PO needs an operator\nPO PO-1 of buyer acme needs an operator\n  ${GATEWAY}/admin/ui/orders/1\n\n(${GATEWAY})`,
    );
  });

  it('sends nothing already announced, and nothing at all when nothing is new', () => {
    const open = [...waiting(1), ...waiting(2, ['invoice_held'])];
    expect(plan(open, ['po:1|needs_operator', 'po:2|invoice_held'])).toStrictEqual([]);
    // The PO announced as needing an operator is announced again once its invoice is held: a new cause.
    expect(plan(waiting(1, ['invoice_held']), ['po:1|needs_operator']).map((m) => m.event)).toStrictEqual([
      'invoice_held',
    ]);
  });

  it('lists digestAfter or more new exceptions in one digest', () => {
    const open = [...waiting(1), ...waiting(2), ...waiting(3, ['invoice_held']), ...waiting(4)];
    const [message, ...rest] = plan(open, ['po:4|needs_operator']);
    expect(rest).toStrictEqual([]);
    expect(message?.event).toBe('digest');
    expect(message?.subject).toBe('3 exceptions');
    expect(message?.exceptions.map(announcementKey)).toStrictEqual([
      'po:1|needs_operator',
      'po:2|needs_operator',
      'po:3|invoice_held',
    ]);
    expect(message?.text.split('\n').filter((l) => l.startsWith('• '))).toStrictEqual([
      '• PO PO-1 of buyer acme needs an operator',
      '• PO PO-2 of buyer acme needs an operator',
      '• PO PO-3 of buyer acme: invoice held',
    ]);
  });

  it('keeps within the rate limit: nothing once it is spent, one digest when it allows fewer messages than are new', () => {
    const open = [...waiting(1), ...waiting(2)];
    expect(plan(open, [], 0)).toStrictEqual([]);
    const limited = plan(open, [], 1);
    expect(limited.map((m) => [m.event, m.exceptions.length])).toStrictEqual([['digest', 2]]);
  });

  it('lists at most DIGEST_MAX_ITEMS in a digest and says how many follow', () => {
    const open = Array.from({ length: DIGEST_MAX_ITEMS + 5 }, (_, i) => waiting(i + 1)).flat();
    const [message] = plan(open);
    expect(message?.exceptions).toHaveLength(DIGEST_MAX_ITEMS);
    expect(message?.text).toContain('… and 5 more in the next message');
  });
});

describe('secrets in messages', () => {
  it('finds every secret of the config by its key and blanks each in every text of a message', () => {
    const config = resolveTestConfig(testConfig());
    const secrets = secretsToRedact(config);
    expect(secrets).toEqual(
      expect.arrayContaining([
        'acme-secret',
        'test-admin-token-0123456789abcdef',
        'test-signing-key-0123456789abcdef',
        'sap1-order-secret',
      ]),
    );
    expect(secrets).not.toContain('acme');
    const [message] = plan(
      waiting(9, [], 'buyer sent SharedSecret acme-secret; admin test-admin-token-0123456789abcdef'),
    );
    const clean = redactAnnouncement(message!, secrets);
    const text = JSON.stringify(clean);
    expect(text).not.toContain('acme-secret');
    expect(text).not.toContain('test-admin-token');
    expect(clean.exceptions[0]?.summary).toBe(
      'PO PO-9 of buyer acme needs an operator: buyer sent SharedSecret [redacted]; admin [redacted]',
    );
  });
});
