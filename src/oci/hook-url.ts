/**
 * The HOOK_URL policy. HOOK_URL comes from the request, and the transfer page makes the user's browser post
 * the cart to it, so it is checked against the buyer's allow-list before it is stored at punch-in.
 *
 * Decisions:
 * - Schemes: `https:` and `http:` (`requireHttps` drops http for buyers that can), `SAPEVENT:` (SAP GUI's
 *   HTML control, e.g. `SAPEVENT:POST`) only when the buyer enables it; `javascript:`, `data:`, `vbscript:`
 *   and everything else never.
 * - The raw string is judged as sent, never trimmed or repaired: whitespace anywhere (including the tab and
 *   line feed the URL parser would silently drop from `java\tscript:`), control and invisible format
 *   characters, backslashes (which the URL parser reads as `/`) and any `@` in the authority are rejected,
 *   and `http:` must be followed by `//`.
 * - Hosts are compared after WHATWG URL parsing, i.e. the way the browser will resolve the form action:
 *   lower case, IDNs in punycode, IPv4 in dotted decimal. An allow-list entry `srm.example.com` matches
 *   exactly that host; `*.example.com` matches any deeper subdomain (`a.example.com`, `a.b.example.com`) but
 *   not `example.com` itself, as in CSP host sources; IP addresses only match exactly. An entry without a
 *   port allows any port, `srm.example.com:8443` only that one (default ports count: `:443` matches an https
 *   URL without a port). A trailing dot (`srm.example.com.`) does not match.
 */

import { OciError } from './error.ts';

export interface HookUrlPolicy {
  /** Host names or `*.domain` wildcards, each optionally with `:port`. Empty allows no http(s) HOOK_URL. */
  readonly hookUrlHosts: readonly string[];
  /** Accept `SAPEVENT:…` HOOK_URLs (SAP GUI transactions). Off by default. */
  readonly allowSapEvent?: boolean;
  /** Refuse `http:` HOOK_URLs. Off by default because intranet SAP systems often still use http. */
  readonly requireHttps?: boolean;
}

export type HookUrlCheck =
  | { readonly ok: true; readonly kind: 'http' | 'sapevent' }
  | { readonly ok: false; readonly error: OciError };

const PARAM = 'HOOK_URL';
/** Whitespace, control, format (zero-width, bidi, soft hyphen, BOM) and lone surrogate characters, and `\`. */
const EVASION_CHARACTERS = /[\s\p{Cc}\p{Cf}\p{Cs}\\]/u;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const NEVER_ALLOWED_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'filesystem',
  'about',
]);

/**
 * Checks a HOOK_URL, exactly as received, against a buyer's policy.
 *
 * @example
 * const check = checkHookUrl(punchIn.hookUrl, { hookUrlHosts: ['srm.example.com', '*.sap.example.com'] });
 * if (!check.ok) throw check.error; // OciError with code hook_url_scheme, hook_url_not_allowed, …
 */
export function checkHookUrl(hookUrl: string, policy: HookUrlPolicy): HookUrlCheck {
  const patterns = policy.hookUrlHosts.map(parseHostPattern);
  if (hookUrl === '') return fail('missing_hook_url', 'HOOK_URL is empty.');
  if (EVASION_CHARACTERS.test(hookUrl)) {
    return fail(
      'hook_url_malformed',
      'HOOK_URL contains whitespace, a control or invisible character, or a backslash; it is used exactly as sent, so it must not.',
    );
  }
  const scheme = SCHEME.exec(hookUrl)?.[1]?.toLowerCase();
  if (scheme === undefined) return fail('hook_url_malformed', 'HOOK_URL is not an absolute URL.');

  if (scheme === 'sapevent') {
    if (!policy.allowSapEvent) {
      return fail(
        'hook_url_scheme',
        'HOOK_URL uses the SAPEVENT: scheme, which is not enabled for this buyer.',
      );
    }
    if (!/^[\x21-\x7e]*$/.test(hookUrl)) {
      return fail('hook_url_malformed', 'A SAPEVENT: HOOK_URL may only contain printable ASCII characters.');
    }
    return { ok: true, kind: 'sapevent' };
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return fail(
      'hook_url_scheme',
      NEVER_ALLOWED_SCHEMES.has(scheme)
        ? `HOOK_URL uses the ${scheme}: scheme, which is never allowed.`
        : `HOOK_URL uses the ${scheme}: scheme; only https: and http: are allowed.`,
    );
  }
  if (scheme === 'http' && policy.requireHttps) {
    return fail('hook_url_scheme', 'HOOK_URL uses http:, but this buyer requires https:.');
  }

  const afterScheme = hookUrl.slice(scheme.length + 1);
  if (!afterScheme.startsWith('//'))
    return fail('hook_url_malformed', `HOOK_URL must start with ${scheme}://.`);
  const authority = afterScheme.slice(2).split(/[/?#]/, 1)[0]!;
  if (authority.includes('@')) {
    return fail('hook_url_not_allowed', 'HOOK_URL must not contain user information (user:password@host).');
  }
  let url: URL;
  try {
    url = new URL(hookUrl);
  } catch {
    return fail('hook_url_malformed', 'HOOK_URL is not a valid URL.');
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (!patterns.some((pattern) => matchesHost(pattern, url.hostname, port))) {
    return fail(
      'hook_url_not_allowed',
      `HOOK_URL host "${url.host}" is not among this buyer's allowed hook hosts.`,
    );
  }
  return { ok: true, kind: 'http' };
}

/**
 * Whether an allow-list entry is usable, for validating buyer configuration before it is needed.
 *
 * @example
 * isHookUrlHostPattern('*.example.com'); // true
 * isHookUrlHostPattern('https://srm.example.com/'); // false: hosts only
 */
export function isHookUrlHostPattern(entry: string): boolean {
  try {
    parseHostPattern(entry);
    return true;
  } catch {
    return false;
  }
}

interface HostPattern {
  readonly host: string;
  readonly wildcard: boolean;
  readonly port: string | undefined;
}

function parseHostPattern(entry: string): HostPattern {
  const match = /^(\*\.)?([^:/?#@\s*]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/.exec(entry.trim());
  let host: string | undefined;
  try {
    host = match ? new URL(`http://${match[2]}/`).hostname : undefined;
  } catch {
    host = undefined;
  }
  if (!match || host === undefined || (match[1] && isIpAddress(host))) {
    throw new TypeError(`hookUrlHosts entry "${entry}" is not a host name, *.domain wildcard or host:port.`);
  }
  return {
    host,
    wildcard: match[1] !== undefined,
    port: match[3] === undefined ? undefined : String(Number(match[3])),
  };
}

function matchesHost(pattern: HostPattern, hostname: string, port: string): boolean {
  if (pattern.port !== undefined && pattern.port !== port) return false;
  if (!pattern.wildcard) return hostname === pattern.host;
  return !isIpAddress(hostname) && hostname.endsWith(`.${pattern.host}`);
}

function isIpAddress(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

function fail(code: OciError['code'], message: string): HookUrlCheck {
  return { ok: false, error: new OciError(code, message, PARAM) };
}
