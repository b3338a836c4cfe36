/**
 * What an OCI punch-in leaves in the punch-out session for the transfer: HOOK_URL (as received, after the
 * policy check), the form target, the `~` fields and `returntarget` to echo, and the charset the request
 * was read in. The store has no charset column, so the charset travels in the session's extrinsics under
 * `ociCharset`; it is the charset the punch-in was decoded with, which may differ from the buyer's
 * configured one (`http_content_charset`, or Latin-1 bytes in a request that claimed UTF-8).
 */
import { type OciCharset, type OciPunchIn, ociParamValue, parseCharsetLabel } from '../../oci/index.ts';
import type { PunchoutSession } from '../../store/types.ts';
import type { ResolvedOciBuyer } from '../deps.ts';
import type { Language } from '../i18n/catalogs.ts';
import { OCI_LANGUAGE_PARAMS, resolveSessionLanguage } from '../i18n/session-language.ts';
import type { OpenSessionInput } from '../punchout/sessions.ts';

const CHARSET_KEY = 'ociCharset';

/** The session fields of an accepted punch-in. */
export function sessionFieldsOf(
  punchIn: OciPunchIn,
): Pick<OpenSessionInput, 'returnUrl' | 'returnTarget' | 'ociEcho' | 'extrinsics'> {
  return {
    returnUrl: punchIn.hookUrl,
    returnTarget: punchIn.formTarget,
    ociEcho: Object.fromEntries(punchIn.echoFields),
    extrinsics: { [CHARSET_KEY]: punchIn.charset },
  };
}

/** The charset to send the session's cart in. */
export function sessionCharset(session: PunchoutSession, buyer: ResolvedOciBuyer): OciCharset {
  const stored = session.extrinsics?.[CHARSET_KEY];
  return (typeof stored === 'string' ? parseCharsetLabel(stored) : undefined) ?? buyer.charset;
}

/** The `~` fields and `returntarget` of the punch-in, in the order received. */
export function sessionEchoFields(session: PunchoutSession): [string, string][] {
  return Object.entries(session.ociEcho ?? {});
}

/**
 * The language of a punch-in's pages and items: its language field (the first of `sap-language`, `LANGU`,
 * `language` that is not blank), else the browser's Accept-Language, else the buyer's default.
 */
export function punchInLanguage(
  punchIn: Pick<OciPunchIn, 'params'>,
  acceptLanguage: string | undefined,
  buyer: Pick<ResolvedOciBuyer, 'language'>,
): Language {
  const ociLanguage = OCI_LANGUAGE_PARAMS.map((name) => ociParamValue(punchIn.params, name)).find(
    (value) => value !== undefined && value.trim() !== '',
  );
  return resolveSessionLanguage({ ociLanguage, acceptLanguage, buyerDefault: buyer.language });
}
