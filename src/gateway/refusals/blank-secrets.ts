/**
 * What a refused request may carry that the refusals log must never keep: a cXML SharedSecret (or a
 * CredentialMac), an OCI password, a PIPO token, an admin token or any other secret of the config. A refused
 * document is by definition one the gateway could not trust, so its secrets sit anywhere: in their element,
 * in a form field named for what it is, or, mistyped, where nothing says so. Three passes, each cheap:
 * secret-bearing elements and fields by name, bearer tokens, then every configured secret wherever it
 * appears (as written, URL-encoded or XML-escaped).
 */
import { configSecrets } from '../config-secrets.ts';
import { redactSharedSecrets } from '../../cxml/index.ts';
import type { ResolvedConfig } from '../deps.ts';

const BLANK = '[redacted]';

/** The content of a CredentialMac (a signature over the shared secret, as good as one to a replay). */
const CREDENTIAL_MAC = /(<((?:[A-Za-z_][\w.-]*:)?credentialmac)(?:\s[^>]*)?(?<!\/)>)[^<]*(<\/\2\s*>)/gi;

/** A field name that says it holds a secret: `PASSWORD`, `~password`, `token` (a PIPO token in a URL), `sharedSecret`. */
const SECRET_NAME = /pass(?:word)?|pwd|secret|token|api[_-]?key/i;

/**
 * A `name=value` field (a query or urlencoded form, or the like written anywhere): the value runs to the
 * next separator or quote. Lengths are bounded so that no text makes a match cost more than a few steps
 * per character.
 */
const FIELD = /(^|[?&;\s"'])([~\w.-]{1,64}=)([^&;\s"'<]*)/g;

/** A multipart form part's head and its first line, the value of a one-line field. */
const PART =
  /(content-disposition:[^\r\n]{0,200}?\bname="([^"\r\n]{0,64})"[^\r\n]{0,200}\r?\n(?:[^\r\n]{1,200}\r?\n){0,8}\r?\n)([^\r\n]*)/gi;

const BEARER = /\b(bearer\s+)[^\s"'<]+/gi;

/** Too short to blank everywhere without blanking ordinary words; the schema asks for longer secrets. */
const SHORTEST_BLANKED = 4;

/** What to blank besides what names itself a secret: the config's secrets, and the buyers' password fields. */
export interface Blanking {
  /** Longest first, so that one containing another is blanked whole. */
  secrets: readonly string[];
  /** Field names (lower case, without SAP's `~`) that hold a password: OCI buyers' `loginFields.password`. */
  fieldNames: ReadonlySet<string>;
}

/**
 * The config's blanking: every secret in it (buyers' SharedSecrets and OCI passwords, current and previous,
 * the admin tokens, the signing keys, the print services' API keys and our own SharedSecret) and every OCI
 * buyer's password field name, which may be any word (`PW`, `KENNWORT`).
 */
export function configBlanking(config: ResolvedConfig): Blanking {
  const fieldNames = new Set(
    config.buyers.flatMap((buyer) =>
      buyer.protocol === 'oci' ? [fieldKey(buyer.loginFields.password)] : [],
    ),
  );
  return { secrets: configSecrets(config, SHORTEST_BLANKED), fieldNames };
}

function fieldKey(name: string): string {
  return name.replace(/^~/, '').toLowerCase();
}

/** The ways a secret may be spelled in a request: as written, URL-encoded (both spaces) and XML-escaped. */
function spellings(secret: string): Set<string> {
  const encoded = encodeURIComponent(secret);
  const xml = secret
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
  return new Set([secret, encoded, encoded.replace(/%20/g, '+'), xml]);
}

/**
 * `text` with every secret blanked.
 *
 * @example
 * blankSecrets('USERNAME=acme&PASSWORD=hunter22', { secrets: [], fieldNames: new Set() });
 * // → 'USERNAME=acme&PASSWORD=[redacted]'
 */
export function blankSecrets(text: string, { secrets, fieldNames }: Blanking): string {
  const secretField = (name: string) => SECRET_NAME.test(name) || fieldNames.has(fieldKey(name));
  let blanked = redactSharedSecrets(text)
    .replace(CREDENTIAL_MAC, (_m, start: string, _name, end: string) => `${start}${BLANK}${end}`)
    .replace(PART, (part: string, head: string, name: string) =>
      secretField(name) ? `${head}${BLANK}` : part,
    )
    .replace(FIELD, (field: string, before: string, name: string) =>
      secretField(name.slice(0, -1)) ? `${before}${name}${BLANK}` : field,
    )
    .replace(BEARER, (_m, scheme: string) => `${scheme}${BLANK}`);
  for (const secret of secrets) {
    for (const spelling of spellings(secret)) blanked = blanked.split(spelling).join(BLANK);
  }
  return blanked;
}
