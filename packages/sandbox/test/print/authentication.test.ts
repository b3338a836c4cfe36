import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSandboxKey } from '../../src/print/index.ts';
import { basic, errorOf, GATEWAY_KEY, keyOf, makeHarness, TOKENS } from './sandbox-harness.ts';

const MISSING = { status: 401, message: 'Authorization credentials missing.' };
const INVALID = { status: 401, message: 'Invalid key or token.' };
const HTTPS = { status: 401, message: 'Invalid scheme, please use https.' };
const LICENSE = { status: 401, message: "License doesn't allow this api call." };

describe('sandbox authentication', () => {
  it('A01 E01 Basic token:key authenticates; ping answers 204 with no body', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/ping');
    expect(res.status).toBe(204);
    expect(res.headers.get('Content-Type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('A02 the key is k(R) with k0 = token and k(i+1) = hex SHA-256 of k(i); the demo key is documented', async () => {
    const token = TOKENS.gateway;
    let expected: string = token;
    for (let i = 0; i < 1000; i++) expected = createHash('sha256').update(expected, 'utf8').digest('hex');
    expect(await deriveSandboxKey(token, 1000)).toBe(expected);
    expect(expected).toBe(GATEWAY_KEY);
    expect(await deriveSandboxKey(token, 1)).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('X01 a missing Authorization header, an empty one or an empty Basic parameter is "credentials missing"', async () => {
    const h = makeHarness();
    expect(await errorOf(await h.call('GET', '/api/v2/ping', { token: null }))).toEqual(MISSING);
    for (const header of ['', 'Basic', 'Basic    ']) {
      const res = await h.call('GET', '/api/v2/ping', { token: null, headers: { Authorization: header } });
      expect(await errorOf(res)).toEqual(MISSING);
    }
  });

  it('X02 malformed credentials, a wrong key, an unknown, inactive or deleted token are "Invalid key or token."', async () => {
    const h = makeHarness();
    const key = await keyOf(TOKENS.gateway);
    const malformed = [
      `Bearer ${key}`,
      'Basic !!!not-base64!!!',
      `Basic ${btoa(`${TOKENS.gateway}${key}`)}`,
      `Basic ${btoa(`${TOKENS.gateway}:`)}`,
      `Basic ${btoa(`not-hex:${key}`)}`,
    ];
    for (const header of malformed) {
      const res = await h.call('GET', '/api/v2/ping', { token: null, headers: { Authorization: header } });
      expect(await errorOf(res), header).toEqual(INVALID);
    }
    expect(await errorOf(await h.call('GET', '/api/v2/ping', { key: `${key.slice(0, -1)}0` }))).toEqual(
      INVALID,
    );
    const unknown = 'abcdefabcdefabcdefabcdefabcdef00';
    expect(await errorOf(await h.call('GET', '/api/v2/ping', { token: unknown }))).toEqual(INVALID);
    expect(await errorOf(await h.call('GET', '/api/v2/ping', { token: TOKENS.inactive }))).toEqual(INVALID);
    expect(await errorOf(await h.call('GET', '/api/v2/ping', { token: TOKENS.deleted }))).toEqual(INVALID);
  });

  it('X03 R17 plain HTTP from a non-local peer is refused; https, X-Forwarded-Proto: https and loopback pass', async () => {
    let peer = '203.0.113.7';
    const h = makeHarness({ peerAddress: () => peer });
    expect(await errorOf(await h.call('GET', '/api/v2/ping'))).toEqual(HTTPS);
    const headers = { Authorization: basic(TOKENS.gateway, GATEWAY_KEY) };
    expect((await h.app.request('https://print.example/api/v2/ping', { headers })).status).toBe(204);
    const forwarded = await h.call('GET', '/api/v2/ping', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(forwarded.status).toBe(204);
    const forwardedHttp = await h.call('GET', '/api/v2/ping', { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(await errorOf(forwardedHttp)).toEqual(HTTPS);
    for (const loopback of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      peer = loopback;
      expect((await h.call('GET', '/api/v2/ping')).status, loopback).toBe(204);
    }
    peer = '::ffff:10.0.0.5';
    expect(await errorOf(await h.call('GET', '/api/v2/ping'))).toEqual(HTTPS);
  });

  it('X04 a BusinessPlus license reaches ping and PIPO but not the Enterprise endpoints', async () => {
    const h = makeHarness();
    expect((await h.call('GET', '/api/v2/ping', { token: TOKENS.businessPlus })).status).toBe(204);
    const login = await h.call('POST', '/api/v2/pipo/user/login', {
      token: TOKENS.businessPlus,
      body: { username: 'kim.corner', password: 'demo-pass-4', storefront_id: 3 },
    });
    expect(login.status).toBe(200);
    for (const path of [
      '/api/v2/order/1020',
      '/api/v2/hooks',
      '/api/v2/report/sales',
      '/api/v2/customer/221',
    ]) {
      expect(await errorOf(await h.call('GET', path, { token: TOKENS.businessPlus })), path).toEqual(LICENSE);
    }
  });

  it('A04 the checks run in order: derivation and token before HTTPS, HTTPS before the license tier', async () => {
    const h = makeHarness({ peerAddress: () => '198.51.100.20' });
    const wrongKey = await h.call('GET', '/api/v2/order/1020', {
      token: TOKENS.businessPlus,
      key: 'f'.repeat(64),
    });
    expect(await errorOf(wrongKey)).toEqual(INVALID);
    expect(await errorOf(await h.call('GET', '/api/v2/ping', { token: TOKENS.inactive }))).toEqual(INVALID);
    const lowTierOverHttp = await h.call('GET', '/api/v2/order/1020', { token: TOKENS.businessPlus });
    expect(await errorOf(lowTierOverHttp)).toEqual(HTTPS);
    const lowTierOverHttps = await h.call('GET', '/api/v2/order/1020', {
      token: TOKENS.businessPlus,
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(await errorOf(lowTierOverHttps)).toEqual(LICENSE);
    expect(await errorOf(await h.call('GET', '/api/v2/ping', { token: null }))).toEqual(MISSING);
  });

  it('A05 an automation-platform User-Agent skips only the tier check', async () => {
    const h = makeHarness();
    const zapier = { 'User-Agent': 'Zapier-Platform/14.1 (+https://zapier.com)' };
    const order = await h.call('GET', '/api/v2/order/1020', { token: TOKENS.businessPlus, headers: zapier });
    expect(order.status).toBe(200);
    expect(((await order.json()) as { id: number }).id).toBe(1020);
    const n8n = await h.call('GET', '/api/v2/hooks', {
      token: TOKENS.businessPlus,
      headers: { 'User-Agent': 'n8n' },
    });
    expect(n8n.status).toBe(200);
    const wrongKey = await h.call('GET', '/api/v2/order/1020', {
      token: TOKENS.businessPlus,
      key: 'a'.repeat(64),
      headers: zapier,
    });
    expect(await errorOf(wrongKey)).toEqual(INVALID);
    const remote = makeHarness({ peerAddress: () => '203.0.113.9' });
    const overHttp = await remote.call('GET', '/api/v2/order/1020', {
      token: TOKENS.businessPlus,
      headers: zapier,
    });
    expect(await errorOf(overHttp)).toEqual(HTTPS);
    const plainAgent = await h.call('GET', '/api/v2/order/1020', {
      token: TOKENS.businessPlus,
      headers: { 'User-Agent': 'curl/8.5.0' },
    });
    expect(await errorOf(plainAgent)).toEqual(LICENSE);
  });

  it('A03 one key pair reaches every storefront of its license and nothing of another license', async () => {
    const h = makeHarness();
    expect((await h.call('GET', '/api/v2/order/1001')).status).toBe(200); // storefront 1
    expect((await h.call('GET', '/api/v2/order/1010')).status).toBe(200); // storefront 2
    expect(await errorOf(await h.call('GET', '/api/v2/order/1020'))).toEqual({
      status: 404,
      message: 'Order not the service.',
    });
    const other = await h.call('GET', '/api/v2/order/1001', {
      token: TOKENS.businessPlus,
      headers: { 'User-Agent': 'Workato' },
    });
    expect(await errorOf(other)).toEqual({ status: 404, message: 'Order not the service.' });
  });
});
