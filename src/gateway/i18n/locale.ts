/**
 * A page's language at work: its messages with their placeholders filled, and numbers and prices written
 * the way its readers write them (`Intl`: German "1.000,50 €"). Only what people read is localised; form
 * fields and documents keep the wire format (`0.12`), which buyers' systems parse.
 *
 * English writes numbers as the pages always have: quantities plain ("100 to 100000"), prices with the
 * amount's own digits and the currency code ("0.12 USD"); buyers' English pages and their scripts read them
 * so.
 */
import { type Language, MESSAGE_CATALOGS } from './catalogs.ts';
import type { MessageKey } from './messages/en.ts';

export type { MessageKey } from './messages/en.ts';

/** Values for a message's `{placeholders}`: numbers are written as counts of the language, text as it is. */
export type MessageValues = Readonly<Record<string, string | number>>;

export interface Locale {
  readonly language: Language;
  /** The message under `key`, its `{name}` placeholders replaced by `values`. */
  t(key: MessageKey, values?: MessageValues): string;
  /** A whole number as people of the language write it (German: 1.000). */
  count(n: number): string;
  /** A price or amount held as wire text ("1000.50") with its ISO currency, as the language writes money. */
  money(amount: string, currency: string): string;
  /** Price breaks ("from this quantity, this unit price"): English "100+ 0.12, 500+ 0.09 USD". */
  priceBreaks(breaks: readonly { from: number; unitPrice: string }[], currency: string): string;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Formatters are costly to build and immutable: one per language, currency and number of decimals. */
function formatter(language: Language, currency: string | undefined, decimals: number): Intl.NumberFormat {
  const key = `${language}|${currency ?? ''}|${decimals}`;
  let format = formatters.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(language, {
      ...(currency !== undefined && { style: 'currency', currency }),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formatters.set(key, format);
  }
  return format;
}

/** The decimals an amount's text carries ("0.0950" → 4), so a price shows exactly the digits it has. */
function decimalsOf(amount: string): number {
  const point = amount.indexOf('.');
  return point === -1 ? 0 : amount.length - point - 1;
}

const PLACEHOLDER = /\{(\w+)\}/g;

const locales = new Map<Language, Locale>();

/**
 * @example
 * const locale = localeOf('de');
 * locale.t('catalog.cart', { count: 1200 }) // → 'Warenkorb (1.200)'
 * locale.money('1000.50', 'EUR') // → '1.000,50 €'
 */
export function localeOf(language: Language): Locale {
  const known = locales.get(language);
  if (known !== undefined) return known;
  const messages = MESSAGE_CATALOGS[language];
  const plain = language === 'en';
  const count = (n: number) => (plain ? String(n) : formatter(language, undefined, 0).format(n));
  const money = (amount: string, currency: string) => {
    const value = Number(amount);
    // Not a number (never from our own pricing): shown as it is rather than as "NaN".
    if (plain || !Number.isFinite(value)) return `${amount} ${currency}`;
    return formatter(language, currency, decimalsOf(amount)).format(value);
  };
  const locale: Locale = {
    language,
    count,
    money,
    priceBreaks: (breaks, currency) =>
      plain
        ? `${breaks.map((b) => `${b.from}+ ${b.unitPrice}`).join(', ')} ${currency}`
        : breaks.map((b) => `${count(b.from)}+ ${money(b.unitPrice, currency)}`).join(', '),
    t: (key, values) =>
      values === undefined
        ? messages[key]
        : messages[key].replace(PLACEHOLDER, (whole, name: string) => {
            const value = values[name];
            if (value === undefined) return whole;
            return typeof value === 'number' ? count(value) : value;
          }),
  };
  locales.set(language, locale);
  return locale;
}
