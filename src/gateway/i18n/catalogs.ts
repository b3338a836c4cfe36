/**
 * The message catalogs the buyer pages are written in, one file a language under messages/. A language is
 * added by its file and its line here; the session language resolution (session-language.ts) offers
 * exactly these, and the catalog test fails while the new file lacks a key or has one no page uses.
 */
import { de } from './messages/de.ts';
import { en } from './messages/en.ts';
import { es } from './messages/es.ts';
import { fr } from './messages/fr.ts';
import { it } from './messages/it.ts';
import type { Messages } from './messages/en.ts';
import { nl } from './messages/nl.ts';

export const MESSAGE_CATALOGS = { en, de, fr, es, it, nl } as const satisfies Record<string, Messages>;

/** A language the gateway has messages for: an ISO 639-1 code. */
export type Language = keyof typeof MESSAGE_CATALOGS;

export function isLanguage(code: string): code is Language {
  return Object.hasOwn(MESSAGE_CATALOGS, code);
}
