import { describe, expect, it } from 'vitest';
import { checkHookUrl, type HookUrlPolicy, isHookUrlHostPattern } from '../../src/oci/index.ts';

const policy: HookUrlPolicy = {
  hookUrlHosts: ['srm.example.com', '*.sap.example.com', '10.1.2.3', 'intra.example.com:8443'],
};

function outcome(hookUrl: string, overrides: Partial<HookUrlPolicy> = {}): string {
  const check = checkHookUrl(hookUrl, { ...policy, ...overrides });
  return check.ok ? `ok:${check.kind}` : check.error.code;
}

describe('checkHookUrl', () => {
  it.each([
    ['https://srm.example.com/sap/bc/gui/sap/its/bbpsc02/?~', 'ok:http'],
    ['http://srm.example.com/scripts/wgate.dll/MEW0/?~OkCode=ADDI', 'ok:http'],
    ['HTTPS://SRM.EXAMPLE.COM/Path?Q=1', 'ok:http'],
    ['https://srm.example.com:44300/sap/bc/webdynpro/sap/x', 'ok:http'],
    ['https://srm.example.com/a%2Fb?x=%20&y=+', 'ok:http'],
    ['https://srm.example.com#fragment', 'ok:http'],
    ['https://q01.sap.example.com/oci', 'ok:http'],
    ['https://a.b.sap.example.com/oci', 'ok:http'],
    ['http://10.1.2.3/oci', 'ok:http'],
    ['http://0x0a.1.2.3/oci', 'ok:http'],
    ['https://intra.example.com:8443/oci', 'ok:http'],
    ['https://srm.example.com/über', 'ok:http'],
  ])('allows %s', (hookUrl, expected) => {
    expect(outcome(hookUrl)).toBe(expected);
  });

  it.each([
    ['javascript:alert(1)', 'hook_url_scheme'],
    ['JAVASCRIPT:alert(1)', 'hook_url_scheme'],
    ['JavaScript:alert(1)', 'hook_url_scheme'],
    [' javascript:alert(1)', 'hook_url_malformed'],
    ['javascript :alert(1)', 'hook_url_malformed'],
    ['java\tscript:alert(1)', 'hook_url_malformed'],
    ['java\nscript:alert(1)', 'hook_url_malformed'],
    ['\u0000javascript:alert(1)', 'hook_url_malformed'],
    ['\u200bjavascript:alert(1)', 'hook_url_malformed'],
    ['jav&#x61;script:alert(1)', 'hook_url_malformed'],
    ['vbscript:msgbox(1)', 'hook_url_scheme'],
    ['data:text/html,<script>alert(1)</script>', 'hook_url_scheme'],
    ['DATA:text/html;base64,PHNjcmlwdD4=', 'hook_url_scheme'],
    ['file:///etc/passwd', 'hook_url_scheme'],
    ['ftp://srm.example.com/', 'hook_url_scheme'],
    ['mailto:buyer@srm.example.com', 'hook_url_scheme'],
    ['SAPEVENT:POST', 'hook_url_scheme'],
    ['http://srm.example.com.evil.com/', 'hook_url_not_allowed'],
    ['http://srm.example.com.evil.com:80@srm.example.com/', 'hook_url_not_allowed'],
    ['http://evil.com@srm.example.com/', 'hook_url_not_allowed'],
    ['http://@srm.example.com/', 'hook_url_not_allowed'],
    ['https://srm.example.com@evil.com/', 'hook_url_not_allowed'],
    ['https://user:pw@srm.example.com/', 'hook_url_not_allowed'],
    ['https://evil.com\\@srm.example.com/', 'hook_url_malformed'],
    ['https://srm.example.com\\evil', 'hook_url_malformed'],
    ['https://evilsrm.example.com/', 'hook_url_not_allowed'],
    ['https://example.com/', 'hook_url_not_allowed'],
    ['https://sap.example.com/', 'hook_url_not_allowed'],
    ['https://xsap.example.com/', 'hook_url_not_allowed'],
    ['https://srm.example.com./', 'hook_url_not_allowed'],
    ['https://intra.example.com/', 'hook_url_not_allowed'],
    ['https://intra.example.com:8444/', 'hook_url_not_allowed'],
    ['http://10.1.2.4/', 'hook_url_not_allowed'],
    ['//srm.example.com/', 'hook_url_malformed'],
    ['/sap/bc/gui', 'hook_url_malformed'],
    ['srm.example.com/oci', 'hook_url_malformed'],
    ['http:srm.example.com/oci', 'hook_url_malformed'],
    ['http:/srm.example.com/oci', 'hook_url_malformed'],
    ['https://srm.example.com/ a', 'hook_url_malformed'],
    ['https://srm.example.com/\u00a0', 'hook_url_malformed'],
    ['https://srm.example.com/\u202e', 'hook_url_malformed'],
    ['https://srm.example.com/\u0085', 'hook_url_malformed'],
    ['https://srm.example.com:99999/', 'hook_url_malformed'],
    ['https://[::1/', 'hook_url_malformed'],
    ['', 'missing_hook_url'],
  ])('denies %j with %s', (hookUrl, code) => {
    expect(outcome(hookUrl)).toBe(code);
  });

  it('names HOOK_URL and the reason in its errors', () => {
    const check = checkHookUrl('javascript:alert(1)', policy);
    expect(check.ok ? undefined : { param: check.error.param, message: check.error.message }).toEqual({
      param: 'HOOK_URL',
      message: 'HOOK_URL uses the javascript: scheme, which is never allowed.',
    });
    const host = checkHookUrl('https://EVIL.com:8080/x', policy);
    expect(host.ok ? undefined : host.error.message).toBe(
      'HOOK_URL host "evil.com:8080" is not among this buyer\'s allowed hook hosts.',
    );
  });

  it('allows SAPEVENT: only when the buyer enables it', () => {
    expect(outcome('SAPEVENT:POST', { allowSapEvent: true })).toBe('ok:sapevent');
    expect(outcome('sapevent:POST', { allowSapEvent: true })).toBe('ok:sapevent');
    expect(outcome('SAPEVENT:POST?x=1', { allowSapEvent: true })).toBe('ok:sapevent');
    expect(outcome('SAPEVENT:PÖST', { allowSapEvent: true })).toBe('hook_url_malformed');
    expect(outcome(' SAPEVENT:POST', { allowSapEvent: true })).toBe('hook_url_malformed');
    expect(outcome('javascript:alert(1)', { allowSapEvent: true })).toBe('hook_url_scheme');
  });

  it('refuses http when the buyer requires https', () => {
    expect(outcome('http://srm.example.com/', { requireHttps: true })).toBe('hook_url_scheme');
    expect(outcome('https://srm.example.com/', { requireHttps: true })).toBe('ok:http');
  });

  it('matches ports of allow-list entries against the effective port', () => {
    expect(outcome('https://srm.example.com/', { hookUrlHosts: ['srm.example.com:443'] })).toBe('ok:http');
    expect(outcome('https://srm.example.com:443/', { hookUrlHosts: ['srm.example.com:443'] })).toBe(
      'ok:http',
    );
    expect(outcome('http://srm.example.com/', { hookUrlHosts: ['srm.example.com:443'] })).toBe(
      'hook_url_not_allowed',
    );
  });

  it('matches internationalised host names in punycode', () => {
    expect(outcome('https://bücher.example/oci', { hookUrlHosts: ['xn--bcher-kva.example'] })).toBe(
      'ok:http',
    );
    expect(outcome('https://xn--bcher-kva.example/oci', { hookUrlHosts: ['bücher.example'] })).toBe(
      'ok:http',
    );
  });

  it('allows nothing with an empty allow-list', () => {
    expect(outcome('https://srm.example.com/', { hookUrlHosts: [] })).toBe('hook_url_not_allowed');
  });

  it('throws a TypeError for allow-list entries that are not hosts', () => {
    expect(() =>
      checkHookUrl('https://srm.example.com/', { hookUrlHosts: ['https://srm.example.com/'] }),
    ).toThrow(
      new TypeError(
        'hookUrlHosts entry "https://srm.example.com/" is not a host name, *.domain wildcard or host:port.',
      ),
    );
  });
});

describe('isHookUrlHostPattern', () => {
  it.each([
    ['srm.example.com', true],
    ['SRM.example.com', true],
    ['*.example.com', true],
    ['srm.example.com:8443', true],
    ['10.1.2.3', true],
    ['[::1]:8443', true],
    ['*', false],
    ['*.10.1.2', false],
    ['a*.example.com', false],
    ['*.*.example.com', false],
    ['https://srm.example.com', false],
    ['srm.example.com/oci', false],
    ['user@srm.example.com', false],
    ['srm.example.com:port', false],
    ['', false],
  ])('%s → %s', (entry, valid) => {
    expect(isHookUrlHostPattern(entry)).toBe(valid);
  });
});
