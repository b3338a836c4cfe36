/**
 * The sandbox's API key derivation (the real one is not published, so clients treat keys as opaque):
 * k0 = token, k(i+1) = lowercase hex of SHA-256 of the UTF-8 bytes of k(i), key = k(rounds).
 *
 * Web Crypto only, so it runs on Node and on Workers alike.
 */

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function toHex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
}

/**
 * Derives the key of an API token.
 *
 * @example
 * const key = await deriveSandboxKey('0123456789abcdef0123456789abcdef', 1000);
 * const authorization = `Basic ${btoa(`${token}:${key}`)}`;
 */
export async function deriveSandboxKey(token: string, rounds: number): Promise<string> {
  let value = token;
  for (let i = 0; i < rounds; i++) {
    value = toHex(await crypto.subtle.digest('SHA-256', encoder.encode(value)));
  }
  return value;
}
