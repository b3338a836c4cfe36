/**
 * The message catalogs against each other and against the source: every language has exactly English's
 * keys with the same placeholders, and every key is used by some page (a key is used where the source
 * names it as a string literal, `'cart.heading'`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_CATALOGS } from '../../../src/gateway/i18n/catalogs.ts';
import { en } from '../../../src/gateway/i18n/messages/en.ts';

const SRC = new URL('../../../src/', import.meta.url).pathname;
const MESSAGES_DIR = join(SRC, 'gateway/i18n/messages');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === MESSAGES_DIR ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the message catalogs', () => {
  it('has a file for every language the registry offers, and the registry for every file', () => {
    const files = readdirSync(MESSAGES_DIR).map((name) => name.replace(/\.ts$/, ''));
    expect(Object.keys(MESSAGE_CATALOGS).sort()).toEqual(files.sort());
    expect(Object.keys(MESSAGE_CATALOGS).sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'nl']);
  });

  it.each(Object.entries(MESSAGE_CATALOGS))(
    '%s has every key of English, no other, with its placeholders',
    (_, messages) => {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(messages)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(en[key as keyof typeof en]));
      }
    },
  );

  it('has no key that no page uses', () => {
    const source = sourceFiles(SRC)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = Object.keys(en).filter((key) => !source.includes(`'${key}'`));
    expect(unused).toEqual([]);
  });
});
