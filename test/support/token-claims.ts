/**
 * The claims a gateway token carries (`<claims>.<mac>`), read without checking the MAC: for tests that
 * need the session or buyer a link names, as a browser could read them.
 */
export function tokenClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
}
