/**
 * Which language a punch-out session's pages and cart texts are in, from what the buyer's side says, most
 * specific first: the cXML setup's `xml:lang`, the OCI punch-in's language field (`sap-language`, `LANGU`
 * or `language`, an ISO code or SAP's one-letter code), the browser's Accept-Language, and last the
 * buyer's configured default. A source naming a language the gateway has no messages for is passed over
 * like an absent one, so an unknown or malformed value never fails a punch-out; the end of the line is
 * English, which every catalog is complete against.
 */
import { isLanguage, type Language } from './catalogs.ts';

/** What a punch-in tells about its user's language; each field as received, any of them absent. */
export interface LanguageSources {
  /** `xml:lang` of the cXML setup request. */
  cxmlLang?: string | undefined;
  /** The OCI punch-in's language field as sent. */
  ociLanguage?: string | undefined;
  /** The browser's Accept-Language header. */
  acceptLanguage?: string | undefined;
  /** `buyers[].language` of the config. */
  buyerDefault?: string | undefined;
}

/** The OCI parameter names a punch-in's language comes under, first found wins (compared without case). */
export const OCI_LANGUAGE_PARAMS = ['sap-language', 'LANGU', 'language'] as const;

/** The language when nothing else names a known one: every catalog is checked against English. */
export const FALLBACK_LANGUAGE: Language = 'en';

/**
 * SAP's one-letter language keys (SPRAS), which SAP systems send as `sap-language` and `LANGU` as often as
 * the ISO code: the ones a European buyer sends, mapped to ISO 639-1.
 */
const SAP_LANGUAGE_KEYS: Readonly<Record<string, string>> = {
  A: 'ar',
  B: 'he',
  C: 'cs',
  D: 'de',
  E: 'en',
  F: 'fr',
  G: 'el',
  H: 'hu',
  I: 'it',
  J: 'ja',
  K: 'da',
  L: 'pl',
  M: 'zh',
  N: 'nl',
  O: 'no',
  P: 'pt',
  Q: 'sk',
  R: 'ru',
  S: 'es',
  T: 'tr',
  U: 'fi',
  V: 'sv',
  W: 'bg',
  '1': 'zh',
  '3': 'ko',
  '4': 'ro',
  '5': 'sl',
  '6': 'hr',
  '8': 'uk',
};

/** A BCP 47-ish tag's primary language, case and `_`/`-` aside: `de-DE`, `de_de`, `DE` → `de`. */
const TAG = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*\s*$/;

/**
 * The known language a tag names, or undefined. `sapKeys` also reads SAP's one-letter keys (OCI only: in
 * cXML or a browser header a single letter is no language).
 *
 * @example
 * languageOfTag('de-DE') // → 'de'
 * languageOfTag('D', { sapKeys: true }) // → 'de'
 */
export function languageOfTag(
  tag: string | undefined,
  options: { sapKeys?: boolean } = {},
): Language | undefined {
  if (tag === undefined) return undefined;
  const trimmed = tag.trim();
  if (options.sapKeys && trimmed.length === 1) {
    const iso = SAP_LANGUAGE_KEYS[trimmed.toUpperCase()];
    return iso !== undefined && isLanguage(iso) ? iso : undefined;
  }
  const primary = TAG.exec(trimmed)?.[1]?.toLowerCase();
  return primary !== undefined && isLanguage(primary) ? primary : undefined;
}

/** The most Accept-Language entries read: a real browser sends a handful; the rest of a long header is noise. */
const MAX_ACCEPT_ENTRIES = 20;

/**
 * The best known language of an Accept-Language header by its q-values (ties in the order sent), or
 * undefined. A malformed entry (no tag, a q that is no number from 0 to 1) is skipped, never an error; `q=0`
 * means "not this one".
 *
 * @example
 * languageOfAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8') // → 'fr'
 */
export function languageOfAcceptLanguage(header: string | undefined): Language | undefined {
  if (header === undefined) return undefined;
  const entries = header
    .split(',')
    .slice(0, MAX_ACCEPT_ENTRIES)
    .flatMap((entry, order) => {
      const [tag = '', ...params] = entry.split(';');
      let q = 1;
      for (const param of params) {
        const [name = '', value = ''] = param.split('=');
        if (name.trim().toLowerCase() !== 'q') continue;
        q = /^\s*(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/.test(value) ? Number(value) : Number.NaN;
      }
      const language = languageOfTag(tag);
      return language === undefined || !(q > 0) ? [] : [{ language, q, order }];
    });
  entries.sort((a, b) => b.q - a.q || a.order - b.order);
  return entries[0]?.language;
}

/**
 * The session's language from what the punch-in said, in the order of precedence above.
 *
 * @example
 * resolveSessionLanguage({ ociLanguage: 'D', acceptLanguage: 'en-US', buyerDefault: 'en' }) // → 'de'
 */
export function resolveSessionLanguage(sources: LanguageSources): Language {
  return (
    languageOfTag(sources.cxmlLang) ??
    languageOfTag(sources.ociLanguage, { sapKeys: true }) ??
    languageOfAcceptLanguage(sources.acceptLanguage) ??
    languageOfTag(sources.buyerDefault) ??
    FALLBACK_LANGUAGE
  );
}
