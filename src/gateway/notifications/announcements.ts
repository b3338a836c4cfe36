/**
 * What one channel sends this round, decided from plain data: the exceptions open now, those the channel
 * announced already, and how many messages its rate limit still allows this hour. Each new exception goes
 * out once, on its own, or — when `digestAfter` or more are new at once, or the rate limit leaves fewer
 * messages than there are new exceptions — all together as one digest listing them. An exception not sent
 * (the limit is spent, or a digest's list is full) stays new and goes out in a later round.
 *
 * Pure: no `node:*`, no I/O.
 */
import { configSecrets } from '../config-secrets.ts';
import { announcementKey, type ExceptionEvent, type OpenException } from './exceptions.ts';

/** The most exceptions one digest lists; the rest follow in the next round's. */
export const DIGEST_MAX_ITEMS = 50;

/** What a channel sends: its words, and the exceptions it announces (recorded once it is delivered). */
export interface Announcement {
  /** The exception's event, or `digest` for a message listing several. */
  event: ExceptionEvent | 'digest';
  /** What it is about: the exception's subject, or how many a digest lists. */
  subject: string;
  /** One line: an e-mail's subject, a chat message's first line. */
  title: string;
  /** The whole message as plain text (Slack's `text`, the e-mail's body). */
  text: string;
  exceptions: OpenException[];
}

export interface PlanInput {
  open: readonly OpenException[];
  /** Keys (`announcementKey`) this channel has announced already. */
  announced: ReadonlySet<string>;
  /** Messages the channel's rate limit still allows now. */
  allowance: number;
  digestAfter: number;
}

const EVENT_TITLES: Readonly<Record<ExceptionEvent, string>> = {
  po_needs_operator: 'A PO needs an operator',
  invoice_held: 'An invoice is held',
  invoice_rejected: 'An invoice was rejected by the buyer',
  document_dead: 'A document to a buyer was given up',
  job_dead: 'A background job was given up',
  background_round_overdue: 'The background round is overdue',
  print_service_failing: 'The print service is failing',
  buyer_refused_repeatedly: "A buyer's documents are being refused",
};

function line(exception: OpenException): string {
  return exception.link === undefined ? exception.summary : `${exception.summary}\n  ${exception.link}`;
}

function single(exception: OpenException, gateway: string): Announcement {
  const title = `[punchgate] ${EVENT_TITLES[exception.event]}`;
  return {
    event: exception.event,
    subject: exception.subject,
    title,
    text: `${title}\n${line(exception)}\n\n(${gateway})`,
    exceptions: [exception],
  };
}

function digest(exceptions: OpenException[], waiting: number, gateway: string): Announcement {
  const title = `[punchgate] ${exceptions.length} exceptions need an operator`;
  const more =
    waiting > exceptions.length ? `\n… and ${waiting - exceptions.length} more in the next message` : '';
  return {
    event: 'digest',
    subject: `${exceptions.length} exceptions`,
    title,
    text: `${title}\n${exceptions.map((e) => `• ${line(e)}`).join('\n')}${more}\n\n(${gateway})`,
    exceptions,
  };
}

/** The messages one channel sends now (none when nothing is new or its limit is spent), in sending order. */
export function planAnnouncements(input: PlanInput, gateway: string): Announcement[] {
  const fresh = input.open.filter((exception) => !input.announced.has(announcementKey(exception)));
  if (fresh.length === 0 || input.allowance < 1) return [];
  if (fresh.length < input.digestAfter && fresh.length <= input.allowance) {
    return fresh.map((exception) => single(exception, gateway));
  }
  return [digest(fresh.slice(0, DIGEST_MAX_ITEMS), fresh.length, gateway)];
}

/** Strings of the config that must never leave in a message, longest first (a secret inside another). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}

/** Every announcement with every secret blanked, in each of its texts. */
export function redactAnnouncement(announcement: Announcement, secrets: readonly string[]): Announcement {
  const clean = (text: string) => redactSecrets(text, secrets);
  return {
    ...announcement,
    subject: clean(announcement.subject),
    title: clean(announcement.title),
    text: clean(announcement.text),
    exceptions: announcement.exceptions.map((e) => ({
      ...e,
      subject: clean(e.subject),
      summary: clean(e.summary),
      ...(e.link !== undefined && { link: clean(e.link) }),
    })),
  };
}

/** Very short values are words, not secrets: redacting them would mangle the message. */
const MIN_SECRET_CHARS = 6;

/** The secret values of a resolved config, longest first, as a message must never carry them. */
export function secretsToRedact(config: unknown): string[] {
  return configSecrets(config, MIN_SECRET_CHARS);
}
