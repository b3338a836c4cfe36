/**
 * The secret values of a resolved config, found by their keys wherever they sit (buyers' SharedSecrets and
 * passwords, storefronts' API keys, the admin and signing keys, notification channels' credentials), for
 * whatever must never repeat them: the refusals log blanks them, notifications redact them.
 */

/** Keys whose string values (or arrays of them) are secrets: sharedSecret, apiKey, previousAdminTokens … */
const SECRET_KEY = /secret|password|token|authorization|keys?$/i;

/** `loginFields` names the fields an OCI buyer sends (its `password` is a field's name, not a secret). */
const FIELD_NAMES = 'loginFields';

/**
 * Every secret value of `config` at least `shortest` characters long (shorter ones would be ordinary words
 * where they are blanked), longest first, so a secret inside a longer one is never replaced first.
 */
export function configSecrets(config: unknown, shortest: number): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, secretKey: boolean): void => {
    if (typeof value === 'string') {
      if (secretKey && value.length >= shortest) found.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, secretKey);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key !== FIELD_NAMES) walk(item, SECRET_KEY.test(key));
      }
    }
  };
  walk(config, false);
  return [...found].sort((a, b) => b.length - a.length);
}
