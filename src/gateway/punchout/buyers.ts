/**
 * The configured buyers by id, whatever their protocol; how a request proves it comes from one is its
 * protocol's (`../cxml/authenticate.ts`, OCI's login in `../oci/oci-routes.ts`).
 */
import type { ResolvedBuyer, ResolvedConfig } from '../deps.ts';

export interface BuyerDirectory {
  byId(id: string): ResolvedBuyer | undefined;
}

export function createBuyerDirectory(config: ResolvedConfig): BuyerDirectory {
  const byId = new Map(config.buyers.map((buyer) => [buyer.id, buyer]));
  return { byId: (id) => byId.get(id) };
}

/** True when the URL's host (and port, if the entry names one) is on the allow-list; `*.` entries match subdomains. */
export function isHostAllowed(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  const host = parsed.hostname.toLowerCase();
  const hostWithPort = parsed.port === '' ? host : `${host}:${parsed.port}`;
  return allowedHosts.some((entry) => {
    const hasPort = /:\d+$/.test(entry);
    const candidate = hasPort ? hostWithPort : host;
    if (entry.startsWith('*.')) {
      const suffix = entry.slice(1);
      return candidate.endsWith(suffix) && candidate.length > suffix.length;
    }
    return candidate === entry;
  });
}
