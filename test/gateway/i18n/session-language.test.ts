import { describe, expect, it } from 'vitest';
import { localeOf } from '../../../src/gateway/i18n/locale.ts';
import {
  languageOfAcceptLanguage,
  languageOfTag,
  resolveSessionLanguage,
} from '../../../src/gateway/i18n/session-language.ts';

describe('a language tag', () => {
  it.each([
    ['de', 'de'],
    ['de-DE', 'de'],
    ['DE', 'de'],
    ['de_at', 'de'],
    [' fr-CA ', 'fr'],
    ['nl-BE', 'nl'],
    ['es-419', 'es'],
    ['it', 'it'],
    ['en-US', 'en'],
  ])('%j names %s', (tag, language) => {
    expect(languageOfTag(tag)).toBe(language);
  });

  it.each([
    ['ja-JP', 'a language without messages'],
    ['', 'empty'],
    ['D', 'a single letter outside OCI'],
    ['de--DE', 'a broken tag'],
    ['deutsch', 'a word'],
    ['de-DE-x-toolongsubtag', 'a subtag past 8 characters'],
  ])('%j names none (%s)', (tag) => {
    expect(languageOfTag(tag)).toBeUndefined();
  });

  it.each([
    ['D', 'de'],
    ['d', 'de'],
    ['E', 'en'],
    ['F', 'fr'],
    ['S', 'es'],
    ['I', 'it'],
    ['N', 'nl'],
    ['DE', 'de'],
  ])("SAP's language key %j names %s in OCI", (key, language) => {
    expect(languageOfTag(key, { sapKeys: true })).toBe(language);
  });

  it.each(['P', 'J', '1', 'X'])('SAP key %j (a language without messages, or none) names none', (key) => {
    expect(languageOfTag(key, { sapKeys: true })).toBeUndefined();
  });
});

describe('Accept-Language', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['en;q=0.5, fr-CH', 'fr'],
    ['ja, nl;q=0.7, de;q=0.6', 'nl'],
    ['fr;q=0, es;q=0.1', 'es'],
    ['it;q=0.8, de;q=0.8', 'it'],
    ['*, de;q=0.5', 'de'],
    ['DE-de', 'de'],
  ])('%j → %s', (header, language) => {
    expect(languageOfAcceptLanguage(header)).toBe(language);
  });

  it.each([
    ['', 'empty'],
    [';;;,,,', 'only separators'],
    ['de;q=abc', 'a q that is no number'],
    ['de;q=2', 'a q above 1'],
    ['de;q=-1', 'a negative q'],
    ['ja, zh-CN;q=0.9', 'only languages without messages'],
    ['*', 'only the wildcard'],
    ['\u0000de', 'a control character'],
  ])('%j names none and does not throw (%s)', (header) => {
    expect(languageOfAcceptLanguage(header)).toBeUndefined();
  });

  it('reads only the first entries of a header that never ends', () => {
    const header = `${Array.from({ length: 5000 }, () => 'xx').join(',')}, de`;
    expect(languageOfAcceptLanguage(header)).toBeUndefined();
    expect(languageOfAcceptLanguage(`fr, ${header}`)).toBe('fr');
  });
});

describe('the session language', () => {
  it('takes the cXML xml:lang before everything else', () => {
    expect(resolveSessionLanguage({ cxmlLang: 'de-DE', acceptLanguage: 'fr', buyerDefault: 'nl' })).toBe(
      'de',
    );
  });

  it("takes OCI's field (ISO or SAP key) before the browser's and the buyer's", () => {
    expect(resolveSessionLanguage({ ociLanguage: 'D', acceptLanguage: 'fr', buyerDefault: 'nl' })).toBe('de');
    expect(resolveSessionLanguage({ ociLanguage: 'IT', acceptLanguage: 'fr' })).toBe('it');
  });

  it("falls back past an unknown or malformed source to the next: the browser's, then the buyer's", () => {
    expect(resolveSessionLanguage({ cxmlLang: 'ja-JP', acceptLanguage: 'es-MX,es;q=0.9' })).toBe('es');
    expect(resolveSessionLanguage({ ociLanguage: 'J', acceptLanguage: 'de;q=abc', buyerDefault: 'fr' })).toBe(
      'fr',
    );
    expect(resolveSessionLanguage({ ociLanguage: '  ', acceptLanguage: 'nl' })).toBe('nl');
  });

  it('ends in English when nothing names a language with messages', () => {
    expect(resolveSessionLanguage({})).toBe('en');
    expect(resolveSessionLanguage({ cxmlLang: 'ja', acceptLanguage: 'zh', buyerDefault: 'pt' })).toBe('en');
  });
});

describe('numbers and prices of a language', () => {
  it('German groups with points and writes money with a comma and the currency after', () => {
    const de = localeOf('de');
    expect(de.money('1000.50', 'EUR')).toBe('1.000,50\u00a0€');
    expect(de.money('0.0950', 'USD')).toBe('0,0950\u00a0$');
    expect(de.count(100000)).toBe('100.000');
    expect(de.t('paging.position', { page: 1, pages: 2, first: 1, last: 48, total: 1200 })).toBe(
      'Seite 1 von 2 · Produkte 1 bis 48 von 1.200',
    );
    expect(
      de.priceBreaks(
        [
          { from: 100, unitPrice: '0.12' },
          { from: 1000, unitPrice: '0.07' },
        ],
        'USD',
      ),
    ).toBe('100+ 0,12\u00a0$, 1.000+ 0,07\u00a0$');
  });

  it('French and Dutch write money their own way', () => {
    expect(localeOf('fr').money('1000.50', 'EUR')).toBe('1\u202f000,50\u00a0€');
    expect(localeOf('nl').money('1000.50', 'EUR')).toBe('€\u00a01.000,50');
  });

  it('English keeps the form the pages have always shown', () => {
    const en = localeOf('en');
    expect(en.money('1000.50', 'EUR')).toBe('1000.50 EUR');
    expect(en.count(100000)).toBe('100000');
    expect(
      en.priceBreaks(
        [
          { from: 100, unitPrice: '0.12' },
          { from: 500, unitPrice: '0.09' },
        ],
        'USD',
      ),
    ).toBe('100+ 0.12, 500+ 0.09 USD');
  });
});
