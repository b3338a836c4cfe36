import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/gateway/http/errors.ts';
import { createTokenService } from '../../../src/gateway/punchout/tokens.ts';

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
    const [h, p, s] = t.split('.');
    const tampered = `${h}.${p?.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}.${s}`;
    expect(await codeOf(tokens.verify(tampered, 'session', now))).toBe('token_invalid');
  });

  describe('start and webhook tokens: an HMAC of the claims, no JWT', () => {
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

    it('refuses changed claims, a changed MAC, another key, another purpose and a JWT in its place', async () => {
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
      const jwt = await tokens.sign({ sid: 's1', pur: 'session' }, 300, now);
      expect(await codeOf(tokens.verify(jwt, 'start', now))).toBe('token_invalid');
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
