/**
 * Which address a request comes from, for the failed-secret throttle. Behind a reverse proxy every request
 * arrives from the proxy, so when the socket's peer is one of `trustedProxies` the client is the last
 * `X-Forwarded-For` hop that is not itself a trusted proxy (hops further left are whatever the client
 * claimed, and a client must not pick its own throttle bucket).
 */

function normalized(address: string): string {
  const trimmed = address.trim().toLowerCase();
  return trimmed.startsWith('::ffff:') ? trimmed.slice('::ffff:'.length) : trimmed;
}

export function clientAddressBehindProxies(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: ReadonlySet<string>,
): string | undefined {
  if (peer === undefined || !trustedProxies.has(normalized(peer))) return peer;
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (!trustedProxies.has(normalized(hop))) return normalized(hop);
  }
  return peer;
}
