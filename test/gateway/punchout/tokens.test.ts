import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/gateway/http/errors.ts';
import { createTokenService } from '../../../src/gateway/punchout/tokens.ts';
import { webCryptoHmacSha256 } from '../../../src/kernel/signed-claims.ts';
import { nodeHmacSha256 } from '../../../src/runtime/node-hmac.ts';

const now = new Date('2026-11-22T10:00:00Z');
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof GatewayError ? error.code : 'other';
  }
}

describe('tokens', () => {
  it('round-trips the session, purpose and jti', async () => {
    const tokens = await createTokenService('a-signing-key-of-some-length');
    const t = await tokens.sign({ sid: 's1', pur: 'start', jti: 'j1' }, 300, now);
    await expect(tokens.verify(t, 'start', later(299))).resolves.toEqual({
      sid: 's1',
      pur: 'start',
      jti: 'j1',
      exp: Math.floor(now.getTime() / 1000) + 300,
    });
  });

  it('refuses an expired token, another purpose, another key and a tampered token', async () => {
    const tokens = await createTokenService('a-signing-key-of-some-length');
    const other = await createTokenService('another-signing-key-entirely');
    const t = await tokens.sign({ sid: 's1', pur: 'session' }, 60, now);
    expect(await codeOf(tokens.verify(t, 'session', later(61)))).toBe('token_expired');
    expect(await codeOf(tokens.verify(t, 'start', now))).toBe('token_invalid');
    expect(await codeOf(other.verify(t, 'session', now))).toBe('token_invalid');
    const [claims, mac] = t.split('.');
    const tampered = `${claims?.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}.${mac}`;
    expect(await codeOf(tokens.verify(tampered, 'session', now))).toBe('token_invalid');
  });

  describe('every token: an HMAC of the claims, no JWT', () => {
    const payloadOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
    const withPayload = (token: string, claims: object) =>
      `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${token.split('.')[1]}`;

    it('signs the claims as payload and MAC, and reads them back until they expire', async () => {
      const tokens = await createTokenService('a-signing-key-of-some-length');
      const t = await tokens.sign({ sid: 'storefront-1', pur: 'events', ref: 'r' }, 60, now);
      expect(t.split('.')).toHaveLength(2);
      const exp = Math.floor(now.getTime() / 1000) + 60;
      expect(payloadOf(t)).toStrictEqual({ sid: 'storefront-1', pur: 'events', exp, ref: 'r' });
      await expect(tokens.verify(t, 'events', later(59))).resolves.toEqual({
        sid: 'storefront-1',
        pur: 'events',
        ref: 'r',
        exp,
      });
      expect(await codeOf(tokens.verify(t, 'events', later(60)))).toBe('token_expired');
    });

    it('refuses changed claims, a changed MAC, another key and another purpose', async () => {
      const tokens = await createTokenService('a-signing-key-of-some-length');
      const other = await createTokenService('another-signing-key-entirely');
      const t = await tokens.sign({ sid: 's1', pur: 'start', jti: 'j1' }, 300, now);
      const claims = payloadOf(t);
      expect(await codeOf(tokens.verify(withPayload(t, { ...claims, sid: 's2' }), 'start', now))).toBe(
        'token_invalid',
      );
      // A later expiry is a change like any other: never an extended link.
      const extended = withPayload(t, { ...claims, exp: claims.exp + 3600 });
      expect(await codeOf(tokens.verify(extended, 'start', later(400)))).toBe('token_invalid');
      const mac = t.split('.')[1] ?? '';
      const flipped = `${t.split('.')[0]}.${mac.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`;
      expect(await codeOf(tokens.verify(flipped, 'start', now))).toBe('token_invalid');
      expect(await codeOf(tokens.verify(`${t}.`, 'start', now))).toBe('token_invalid');
      expect(await codeOf(tokens.verify('not-a-token', 'start', now))).toBe('token_invalid');
      expect(await codeOf(other.verify(t, 'start', now))).toBe('token_invalid');
      expect(await codeOf(tokens.verify(t, 'session', now))).toBe('token_invalid');
      const session = await tokens.sign({ sid: 's1', pur: 'session' }, 300, now);
      expect(await codeOf(tokens.verify(session, 'start', now))).toBe('token_invalid');
      // An events token does not open a start URL either, though both are HMACs under one key.
      const events = await tokens.sign({ sid: 's1', pur: 'events' }, 300, now);
      expect(await codeOf(tokens.verify(events, 'start', now))).toBe('token_invalid');
    });

    it('names the session of an expired start token, and of nothing else', async () => {
      const tokens = await createTokenService('a-signing-key-of-some-length');
      const t = await tokens.sign({ sid: 's1', pur: 'start' }, 60, now);
      await expect(tokens.verifyExpired(t, ['start'])).resolves.toMatchObject({ sid: 's1', pur: 'start' });
      const forged = withPayload(t, { ...payloadOf(t), sid: 's2' });
      await expect(tokens.verifyExpired(forged, ['start'])).resolves.toBeUndefined();
    });

    it('verifies under a previous key, signs under the current one only', async () => {
      const before = await createTokenService('the-old-signing-key-of-length');
      const after = await createTokenService('the-new-signing-key-of-length', [
        'the-old-signing-key-of-length',
      ]);
      const old = await before.sign({ sid: 's1', pur: 'start' }, 60, now);
      await expect(after.verify(old, 'start', now)).resolves.toMatchObject({ sid: 's1' });
      const fresh = await after.sign({ sid: 's1', pur: 'start' }, 60, now);
      expect(await codeOf(before.verify(fresh, 'start', now))).toBe('token_invalid');
    });
  });

  it('encrypts credentials so that only the same key reads them', async () => {
    const tokens = await createTokenService('a-signing-key-of-some-length');
    const other = await createTokenService('another-signing-key-entirely');
    const sealed = await tokens.encrypt('pässword-123');
    expect(sealed).not.toContain('pässword');
    await expect(tokens.decrypt(sealed)).resolves.toBe('pässword-123');
    await expect(other.decrypt(sealed)).rejects.toThrow();
  });

  it('refuses a short signing key at construction', async () => {
    await expect(createTokenService('short')).rejects.toThrow(TypeError);
    await expect(createTokenService('a-signing-key-of-some-length', ['short'])).rejects.toThrow(TypeError);
  });

  it('verifies and unseals with previous keys, signs and seals with the current one only', async () => {
    const old = await createTokenService('the-old-signing-key-of-length');
    const rotated = await createTokenService('the-new-signing-key-of-length', [
      'the-old-signing-key-of-length',
    ]);
    const t = await old.sign({ sid: 's1', pur: 'session' }, 60, now);
    expect(await codeOf(rotated.verify(t, 'session', now))).toBeUndefined();
    // Still told apart: expired (not invalid) under a previous key, another purpose refused.
    expect(await codeOf(rotated.verify(t, 'session', later(61)))).toBe('token_expired');
    expect(await codeOf(rotated.verify(t, 'start', now))).toBe('token_invalid');
    expect(
      await codeOf(old.verify(await rotated.sign({ sid: 's1', pur: 'session' }, 60, now), 'session', now)),
    ).toBe('token_invalid');

    const sealed = await old.encrypt('pässword-123');
    await expect(rotated.unseal(sealed)).resolves.toEqual({
      plaintext: 'pässword-123',
      underPreviousKey: true,
    });
    await expect(rotated.unseal(await rotated.encrypt('x'))).resolves.toEqual({
      plaintext: 'x',
      underPreviousKey: false,
    });
    await expect(old.decrypt(await rotated.encrypt('x'))).rejects.toThrow();
  });
});

async function messageOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof GatewayError ? `${error.code}: ${error.message}` : 'other';
  }
}

describe('tokens with the HMAC of each runtime', () => {
  it('node:crypto and Web Crypto make the same tokens, and each opens the other', async () => {
    const node = await createTokenService('a-signing-key-of-some-length', [], nodeHmacSha256);
    const web = await createTokenService('a-signing-key-of-some-length', [], webCryptoHmacSha256);
    for (const pur of ['start', 'session', 'return', 'events', 'proof'] as const) {
      const fromNode = await node.sign({ sid: 's1', pur, ref: 'r' }, 60, now);
      expect(await web.sign({ sid: 's1', pur, ref: 'r' }, 60, now)).toBe(fromNode);
      await expect(web.verify(fromNode, pur, now)).resolves.toMatchObject({ sid: 's1', pur, ref: 'r' });
      await expect(node.verify(fromNode, pur, now)).resolves.toMatchObject({ sid: 's1', pur, ref: 'r' });
    }
  });

  it.each([
    ['node:crypto', nodeHmacSha256],
    ['Web Crypto', webCryptoHmacSha256],
  ])('with %s: expired, invalid and another page answer as before', async (_, hmac) => {
    const tokens = await createTokenService(
      'the-new-signing-key-of-length',
      ['a-signing-key-of-some-length'],
      hmac,
    );
    const other = await createTokenService('another-signing-key-entirely', [], hmac);
    const t = await tokens.sign({ sid: 's1', pur: 'session' }, 60, now);
    expect(await messageOf(tokens.verify(t, 'session', later(60)))).toBe(
      'token_expired: This punch-out link has expired.',
    );
    expect(await messageOf(tokens.verify(t, 'return', now))).toBe(
      'token_invalid: This link is not valid for this page.',
    );
    expect(await messageOf(other.verify(t, 'session', now))).toBe('token_invalid: This link is not valid.');
    const signedBefore = await (await createTokenService('a-signing-key-of-some-length', [], hmac)).sign(
      { sid: 's1', pur: 'session' },
      60,
      now,
    );
    await expect(tokens.verify(signedBefore, 'session', now)).resolves.toMatchObject({ sid: 's1' });
  });
});

describe('what earlier versions signed and sealed (through jose) stays readable', () => {
  const KEY = 'a-signing-key-of-some-length';
  // Written by jose 6 with the key derivations of before: HS256 JWTs signed 2026-11-22T10:00:00Z (the
  // session link for 60 s, the return link for 600 s, the proof link for 180 days) and a compact JWE
  // (`dir`, `A256GCM`) of 'pässword-123'.
  const SESSION_JWT =
    'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJzMSIsInB1ciI6InNlc3Npb24iLCJpYXQiOjE3OTUzNDE2MDAsImV4cCI6MTc5NTM0MTY2MH0.dTE2U5BldHxQzmouLyugbUG3YDn9jE-Wjx8Wczf1MKs';
  const RETURN_JWT =
    'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJzMSIsInB1ciI6InJldHVybiIsInJlZiI6IlNLVS0xIiwiaWF0IjoxNzk1MzQxNjAwLCJleHAiOjE3OTUzNDIyMDAsImp0aSI6ImoxIn0.BlL9qt61H-u3CTDC0dwruRbmbI1VSIykjPdeq0CwZS4';
  const PROOF_JWT =
    'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJidXllci0xIiwicHVyIjoicHJvb2YiLCJyZWYiOiJyMSIsImlhdCI6MTc5NTM0MTYwMCwiZXhwIjoxODEwODkzNjAwfQ.Nl-2IN8pWheIenTVzbJ-oHXmH2r9QE4p_O8G5qU8NII';
  const SEALED_JWE =
    'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..c6Xzqsoa9iBjqRUU.1bhdi4aP2ELMwejrEQ.6Nlsamh1vNJdmYuz6BBpDw';
  const exp = (seconds: number) => Math.floor(now.getTime() / 1000) + seconds;

  it('opens the links of before under the key they were signed with, until they expire', async () => {
    const tokens = await createTokenService(KEY, [], nodeHmacSha256);
    await expect(tokens.verify(SESSION_JWT, 'session', later(59))).resolves.toEqual({
      sid: 's1',
      pur: 'session',
      exp: exp(60),
    });
    expect(await messageOf(tokens.verify(SESSION_JWT, 'session', later(60)))).toBe(
      'token_expired: This punch-out link has expired.',
    );
    await expect(tokens.verify(RETURN_JWT, 'return', now)).resolves.toEqual({
      sid: 's1',
      pur: 'return',
      jti: 'j1',
      ref: 'SKU-1',
      exp: exp(600),
    });
    await expect(tokens.verify(PROOF_JWT, 'proof', later(179 * 86_400))).resolves.toMatchObject({
      sid: 'buyer-1',
      ref: 'r1',
    });
    await expect(tokens.verifyExpired(SESSION_JWT, ['start', 'session'])).resolves.toMatchObject({
      sid: 's1',
    });
    // Under a previous key after a rotation, as new links are.
    const rotated = await createTokenService('the-new-signing-key-of-length', [KEY]);
    await expect(rotated.verify(PROOF_JWT, 'proof', now)).resolves.toMatchObject({ sid: 'buyer-1' });
  });

  it('refuses them for another page, under another key, changed, or with any header but HS256', async () => {
    const tokens = await createTokenService(KEY);
    const other = await createTokenService('another-signing-key-entirely');
    expect(await messageOf(tokens.verify(SESSION_JWT, 'start', now))).toBe(
      'token_invalid: This link is not valid for this page.',
    );
    expect(await codeOf(other.verify(PROOF_JWT, 'proof', now))).toBe('token_invalid');
    const [header, claims, mac] = PROOF_JWT.split('.');
    const changed = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8'));
    const widened = Buffer.from(JSON.stringify({ ...changed, sid: 'buyer-2' })).toString('base64url');
    expect(await codeOf(tokens.verify(`${header}.${widened}.${mac}`, 'proof', now))).toBe('token_invalid');
    const none = Buffer.from('{"alg":"none"}').toString('base64url');
    expect(await codeOf(tokens.verify(`${none}.${claims}.`, 'proof', now))).toBe('token_invalid');
    expect(await codeOf(tokens.verify(`${none}.${claims}.${mac}`, 'proof', now))).toBe('token_invalid');
    // The JWT's MAC is not one of the new form's, though the key is derived from the same secret.
    expect(await codeOf(tokens.verify(`${claims}.${mac}`, 'proof', now))).toBe('token_invalid');
  });

  it('unseals a stored value sealed as a JWE, telling a previous key, and refuses one changed', async () => {
    const tokens = await createTokenService(KEY);
    await expect(tokens.unseal(SEALED_JWE)).resolves.toEqual({
      plaintext: 'pässword-123',
      underPreviousKey: false,
    });
    const rotated = await createTokenService('the-new-signing-key-of-length', [KEY]);
    await expect(rotated.unseal(SEALED_JWE)).resolves.toEqual({
      plaintext: 'pässword-123',
      underPreviousKey: true,
    });
    // Sealed again, it takes today's form: an IV and the ciphertext with its tag, no header.
    const again = await rotated.encrypt('pässword-123');
    expect(again).toMatch(/^[\w-]{16}\.[\w-]+$/);
    await expect(rotated.unseal(again)).resolves.toEqual({
      plaintext: 'pässword-123',
      underPreviousKey: false,
    });
    // The header is authenticated: a value claiming another one is not opened.
    const [, ...rest] = SEALED_JWE.split('.');
    const otherHeader = Buffer.from('{"alg":"dir","enc":"A256GCM","zip":"x"}').toString('base64url');
    await expect(tokens.decrypt([otherHeader, ...rest].join('.'))).rejects.toThrow(
      'The sealed value opens under none of the signing keys.',
    );
    await expect(tokens.decrypt('a-pipo-token-stored-in-clear')).rejects.toThrow();
  });
});
