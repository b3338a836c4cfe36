/**
 * The locale a buyer page is written in: a session's stored language (decided at punch-in, or at its first
 * page), else the buyer's configured one; a page outside any session (a refused punch-in, a proof link)
 * reads the browser's Accept-Language.
 */
import type { PunchoutSession } from '../../store/types.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { type Locale, localeOf } from './locale.ts';
import { FALLBACK_LANGUAGE, languageOfAcceptLanguage, languageOfTag } from './session-language.ts';

/** The session's locale; a language the messages no longer have (or none kept) falls back quietly. */
export function sessionLocale(
  session: Pick<PunchoutSession, 'language'>,
  buyer: Pick<ResolvedBuyer, 'language'>,
): Locale {
  return localeOf(languageOfTag(session.language) ?? languageOfTag(buyer.language) ?? FALLBACK_LANGUAGE);
}

/** The locale of a page no session speaks for: the browser's choice, else the buyer's, else English. */
export function requestLocale(
  acceptLanguage: string | undefined,
  buyer?: Pick<ResolvedBuyer, 'language'>,
): Locale {
  return localeOf(
    languageOfAcceptLanguage(acceptLanguage) ?? languageOfTag(buyer?.language) ?? FALLBACK_LANGUAGE,
  );
}
