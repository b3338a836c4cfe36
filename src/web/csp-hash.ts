/**
 * The Content-Security-Policy source expression of an inline script or style: every page of the
 * gateway, the sandbox editor and the buyer simulator allows its constant inline code by hash, never by
 * 'unsafe-inline'. Web Crypto only, so it runs on Workers.
 *
 * @example
 * const policy = `script-src ${await cspSourceHash(SCRIPT)}; style-src ${await cspSourceHash(STYLE)}`;
 */
export async function cspSourceHash(source: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}
