/**
 * HMAC-SHA-256 through `node:crypto` for the gateway on Node: a synchronous `createHmac` over a key object
 * made once, where Web Crypto's `subtle.sign` goes through a promise and a thread-pool job for every token
 * (a punch-in signs and checks several). Workers keep Web Crypto (`webCryptoHmacSha256`).
 */
import { createHmac, createSecretKey } from 'node:crypto';
import type { HmacSha256 } from '../kernel/signed-claims.ts';

export const nodeHmacSha256: HmacSha256 = async (rawKey) => {
  const key = createSecretKey(rawKey);
  return (data) => createHmac('sha256', key).update(data).digest();
};
