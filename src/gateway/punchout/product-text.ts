/**
 * A product's name and description in a session's language: the config's translation for that language
 * (`products[].translations`), else the product's own texts, which are in the storefront's `language`.
 * What a text is labelled with (cXML `xml:lang`) is the language it is actually in, never the one asked for.
 */
import type { CartLine } from '../../store/types.ts';
import type { ResolvedStorefront } from '../deps.ts';
import type { Locale } from '../i18n/locale.ts';
import type { CatalogEntry } from './catalog.ts';
import { lineDescription } from './line-identity.ts';

export interface ProductText {
  name: string;
  description?: string | undefined;
  /** The language `name` is in: the one asked for when translated, else the storefront's. */
  language: string;
}

/**
 * @example
 * productText(product, 'de', storefront) // → { name: 'Visitenkarten', …, language: 'de' }, or the product's own
 */
export function productText(
  product: Pick<CatalogEntry, 'name' | 'description' | 'translations'>,
  language: string,
  storefront: Pick<ResolvedStorefront, 'language'>,
): ProductText {
  const translation = language === storefront.language ? undefined : product.translations?.[language];
  if (translation === undefined) {
    return { name: product.name, description: product.description, language: storefront.language };
  }
  return { name: translation.name, description: translation.description ?? product.description, language };
}

/** A cart line's name in a language, and the language it is actually in. */
export interface LineText {
  name: string;
  language: string;
}

/**
 * A cart line's name in `locale`'s language: its product's translated name (with the design label in that
 * language, as `lineDescription` writes it, within `maxLength`); without a translation, the name the line
 * was stored with, in the storefront's language.
 *
 * @example
 * lineText(line, product, storefront, localeOf('de')) // → { name: 'Visitenkarten (Entwurf 1234)', language: 'de' }
 */
export function lineText(
  line: Pick<CartLine, 'name' | 'designId'>,
  product: CatalogEntry | undefined,
  storefront: Pick<ResolvedStorefront, 'language'>,
  locale: Locale,
  maxLength = Infinity,
): LineText {
  const text = product && productText(product, locale.language, storefront);
  if (product === undefined || text === undefined || text.language === storefront.language) {
    return { name: line.name, language: storefront.language };
  }
  // A product ordered as it is names its line after itself: there is no design to label.
  const name =
    product.printProductId === line.designId
      ? text.name
      : lineDescription(
          text.name,
          line.designId,
          maxLength,
          locale.t('line.design', { design: String(line.designId) }),
        );
  return { name, language: text.language };
}
