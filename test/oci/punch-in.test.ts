import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  OciError,
  type OciParseOptions,
  type OciPunchIn,
  parsePunchInRequest,
  verifyOciLogin,
  ociParamValue,
  ociParamValues,
  receivedParamName,
} from '../../src/oci/index.ts';

const LOGIN = 'USERNAME=sap1&PASSWORD=sap1-secret';
const HOOK = 'HOOK_URL=https%3A%2F%2Fsrm.example.com%2Foci';
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

function get(query: string, options?: OciParseOptions): OciPunchIn {
  return parsePunchInRequest({ method: 'GET', query }, options);
}

function post(contentType: string, body: Uint8Array | string, options?: OciParseOptions): OciPunchIn {
  return parsePunchInRequest(
    { method: 'POST', query: '', contentType, body: typeof body === 'string' ? utf8(body) : body },
    options,
  );
}

function ociError(run: () => unknown): OciError {
  try {
    run();
  } catch (error) {
    if (error instanceof OciError) return error;
    throw error;
  }
  throw new Error('expected an OciError');
}

/** Percent-encodes every byte, the way a Latin-1 SAP system or a cautious client would. */
function percentEncodeBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

describe('parameter names', () => {
  it('are looked up without regard to ASCII case, keeping the received spelling', () => {
    const punchIn = get(
      `username=sap1&Password=sap1-secret&Hook_Url=https%3A%2F%2Fsrm.example.com%2F&~Target=_parent&~okcode=ADDI`,
    );
    expect(punchIn.username).toBe('sap1');
    expect(punchIn.password).toBe('sap1-secret');
    expect(punchIn.hookUrl).toBe('https://srm.example.com/');
    expect(punchIn.target).toBe('_parent');
    expect(punchIn.okCode).toBe('ADDI');
    expect(ociParamValue(punchIn.params, 'HOOK_URL')).toBe('https://srm.example.com/');
    expect(receivedParamName(punchIn.params, '~TARGET')).toBe('~Target');
    expect(punchIn.echoFields).toEqual([
      ['~Target', '_parent'],
      ['~okcode', 'ADDI'],
    ]);
  });

  it('fold only ASCII, so a Kelvin sign does not pass for K', () => {
    const error = ociError(() => get(`${LOGIN}&HOO\u212A_URL=https://srm.example.com/`));
    expect(error.code).toBe('missing_hook_url');
  });

  it('echo each ~ field and returntarget once, first occurrence, in arrival order', () => {
    const punchIn = get(`${LOGIN}&${HOOK}&~CALLER=CTLG&RETURNTARGET=_parent&~caller=other&~ForceTarget=Yes`);
    expect(punchIn.echoFields).toEqual([
      ['~CALLER', 'CTLG'],
      ['RETURNTARGET', '_parent'],
      ['~ForceTarget', 'Yes'],
    ]);
  });

  it('follow the buyer configuration for login and hook parameter names', () => {
    const punchIn = get(
      `ORGANIZATION=acme&NAME=sap1&KENNWORT=sap1-secret&MM_HOOK_URL=https%3A%2F%2Fsrm.example.com%2F`,
      {
        loginFields: { username: 'NAME', password: 'Kennwort' },
        hookUrlField: 'MM_HOOK_URL',
      },
    );
    expect(punchIn).toMatchObject({
      username: 'sap1',
      password: 'sap1-secret',
      hookUrl: 'https://srm.example.com/',
    });
    expect(
      ociError(() => get(`${LOGIN}&${HOOK}`, { loginFields: { username: 'NAME', password: 'KENNWORT' } })),
    ).toMatchObject({
      code: 'missing_login',
      param: 'NAME',
      message: 'The login parameter NAME is missing or empty.',
    });
  });

  it('rejects unusable login field configuration', () => {
    for (const loginFields of [
      { username: '', password: 'PASSWORD' },
      { username: 'USERNAME', password: '  ' },
      { username: 'LOGIN', password: 'login' },
    ]) {
      expect(ociError(() => get(`${LOGIN}&${HOOK}`, { loginFields })).code).toBe('bad_login_fields');
    }
  });
});

describe('charset decoding from raw bytes', () => {
  it('decodes %FC as ü when the request says ISO-8859-1', () => {
    const punchIn = get(`${LOGIN}&${HOOK}&http_content_charset=iso-8859-1&fname=J%FCrgen`);
    expect(ociParamValue(punchIn.params, 'fname')).toBe('Jürgen');
    expect(punchIn).toMatchObject({ charset: 'iso-8859-1', charsetSource: 'request' });
  });

  it('decodes %C3%BC as ü when the request says UTF-8', () => {
    const punchIn = get(`${LOGIN}&${HOOK}&HTTP_CONTENT_CHARSET=UTF-8&fname=J%C3%BCrgen`);
    expect(ociParamValue(punchIn.params, 'fname')).toBe('Jürgen');
    expect(punchIn).toMatchObject({ charset: 'utf-8', charsetSource: 'request' });
  });

  it('reads bytes 0x80–0x9F as windows-1252, as browsers do for Latin-1 labels', () => {
    const punchIn = get(`${LOGIN}&${HOOK}&http_content_charset=latin1&note=%80+%84x%93`);
    expect(ociParamValue(punchIn.params, 'note')).toBe('€ „x“');
  });

  it('falls back to windows-1252 for the whole request when UTF-8 bytes are invalid', () => {
    const punchIn = get(`${LOGIN}&${HOOK}&a=%C3%BC&b=%FC`);
    expect(ociParamValue(punchIn.params, 'a')).toBe('Ã¼');
    expect(ociParamValue(punchIn.params, 'b')).toBe('ü');
    expect(punchIn).toMatchObject({ charset: 'windows-1252', charsetSource: 'detected' });
  });

  it('lets the request override the Content-Type, and the Content-Type override the buyer configuration', () => {
    const body = `${LOGIN}&${HOOK}&city=Orl%E9ans`;
    expect(
      post('application/x-www-form-urlencoded; charset=iso-8859-1', body, { charset: 'utf-8' }),
    ).toMatchObject({
      charset: 'iso-8859-1',
      charsetSource: 'content-type',
    });
    const announced = post(
      'application/x-www-form-urlencoded; charset=utf-8',
      `${body}&http_content_charset=windows-1252`,
      {
        charset: 'utf-8',
      },
    );
    expect(announced).toMatchObject({ charset: 'windows-1252', charsetSource: 'request' });
    expect(ociParamValue(announced.params, 'city')).toBe('Orléans');
    expect(post('application/x-www-form-urlencoded', body, { charset: 'windows-1252' })).toMatchObject({
      charset: 'windows-1252',
      charsetSource: 'config',
    });
  });

  it('ignores charset labels it does not support', () => {
    const punchIn = get(`${LOGIN}&${HOOK}&http_content_charset=shift_jis&fname=J%C3%BCrgen`);
    expect(punchIn).toMatchObject({ charset: 'utf-8', charsetSource: 'detected' });
    expect(ociParamValue(punchIn.params, 'fname')).toBe('Jürgen');
  });

  it('round-trips any Latin-1 text percent-encoded byte by byte', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)) }),
        (text) => {
          fc.pre(!/[\x80-\x9f]/.test(text));
          const punchIn = get(
            `${LOGIN}&${HOOK}&http_content_charset=iso-8859-1&v=${percentEncodeBytes(latin1(text))}`,
          );
          expect(ociParamValue(punchIn.params, 'v')).toBe(text);
        },
      ),
    );
  });

  it('round-trips any Unicode text percent-encoded as UTF-8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const punchIn = get(`${LOGIN}&${HOOK}&v=${encodeURIComponent(text)}`);
        expect(ociParamValue(punchIn.params, 'v')).toBe(text);
        expect(punchIn.charset).toBe('utf-8');
      }),
    );
  });
});

describe('urlencoded syntax', () => {
  it('treats + as a space, keeps malformed escapes literally and skips empty pairs', () => {
    const punchIn = get(`?${LOGIN}&&${HOOK}&a=1+2%2B3&b=%zz%4&c&=x&d=%`);
    expect(ociParamValue(punchIn.params, 'a')).toBe('1 2+3');
    expect(ociParamValue(punchIn.params, 'b')).toBe('%zz%4');
    expect(ociParamValue(punchIn.params, 'c')).toBe('');
    expect(ociParamValue(punchIn.params, '')).toBe('x');
    expect(ociParamValue(punchIn.params, 'd')).toBe('%');
    expect(punchIn.params.length).toBe(8);
  });

  it('splits on the first = only', () => {
    expect(ociParamValue(get(`${LOGIN}&${HOOK}&expr=a=b=c`).params, 'expr')).toBe('a=b=c');
  });
});

describe('HOOK_URL', () => {
  const hookUrls = [
    'https://srm.example.com/sap/bc/gui/sap/its/bbpsc02/?~',
    'https://srm.example.com/scripts/wgate.dll/MEW0/?~OkCode=ADDI&~Target=_top',
    'https://srm.example.com/sap/bc/bsp?state=a%2Fb%252F&x=%20+y',
    'https://SRM.Example.com:44300/Path/With%2FSlash/?q=1&q=2&empty=',
    'https://srm.example.com/a b',
    'https://srm.example.com/über?ä=ö',
    'SAPEVENT:POST',
    ' https://srm.example.com/ ',
  ];

  it.each(hookUrls)('is decoded exactly once and kept byte for byte: %s', (hookUrl) => {
    expect(get(`${LOGIN}&HOOK_URL=${encodeURIComponent(hookUrl)}`).hookUrl).toBe(hookUrl);
    expect(
      post('application/x-www-form-urlencoded', `${LOGIN}&HOOK_URL=${encodeURIComponent(hookUrl)}`).hookUrl,
    ).toBe(hookUrl);
  });

  it('keeps an unencoded HOOK_URL up to the next &', () => {
    expect(get(`${LOGIN}&HOOK_URL=https://srm.example.com/oci?~caller=CTLG`).hookUrl).toBe(
      'https://srm.example.com/oci?~caller=CTLG',
    );
  });

  it('is the first value when sent twice', () => {
    const punchIn = get(`${LOGIN}&HOOK_URL=https://srm.example.com/a&hook_url=https://evil.com/`);
    expect(punchIn.hookUrl).toBe('https://srm.example.com/a');
    expect(ociParamValues(punchIn.params, 'HOOK_URL')).toEqual([
      'https://srm.example.com/a',
      'https://evil.com/',
    ]);
  });
});

describe('functions', () => {
  it('are read case-insensitively and padded values are trimmed', () => {
    expect(get(`${LOGIN}&${HOOK}&function=+background_search+&searchstring=toner`)).toMatchObject({
      function: 'BACKGROUND_SEARCH',
      searchString: 'toner',
    });
  });

  it('treat an empty FUNCTION as normal shopping', () => {
    expect(get(`${LOGIN}&${HOOK}&FUNCTION=`).function).toBeUndefined();
  });

  it('name the bad value', () => {
    expect(ociError(() => get(`${LOGIN}&${HOOK}&FUNCTION=ORDER`))).toMatchObject({
      code: 'bad_function',
      param: 'FUNCTION',
      message:
        'FUNCTION=ORDER is not supported; use DETAIL, DETAILADD, VALIDATE, SOURCING, BACKGROUND_SEARCH or none.',
    });
  });

  it.each([
    ['1', '1'],
    ['1.000', '1.000'],
    ['0.5', '0.5'],
    ['.5', '.5'],
    ['7.', '7.'],
    ['  12,250 ', '12.250'],
    ['99999999999.999', '99999999999.999'],
    ['00000000000001.500', '00000000000001.500'],
  ])('VALIDATE reads QUANTITY=%s as the decimal %s, trimmed, a comma read as the point', (text, quantity) => {
    const punchIn = get(
      `${LOGIN}&${HOOK}&FUNCTION=VALIDATE&PRODUCTID=L1&QUANTITY=${encodeURIComponent(text)}`,
    );
    expect(punchIn.quantity).toBe(quantity);
  });

  it.each(['0', '0.000', '-1', '1.2345', '100000000000', '1e3', '1,5,0', '.', 'abc', '1 000'])(
    'VALIDATE rejects QUANTITY=%s',
    (text) => {
      const error = ociError(() =>
        get(`${LOGIN}&${HOOK}&FUNCTION=VALIDATE&PRODUCTID=L1&QUANTITY=${encodeURIComponent(text)}`),
      );
      expect(error).toMatchObject({ code: 'bad_quantity', param: 'QUANTITY' });
    },
  );

  it('only read QUANTITY for VALIDATE', () => {
    const punchIn = get(`${LOGIN}&${HOOK}&FUNCTION=DETAIL&PRODUCTID=L1&QUANTITY=lots`);
    expect(punchIn.quantity).toBeUndefined();
    expect(punchIn.productId).toBe('L1');
  });
});

describe('form target', () => {
  it.each([
    ['&returntarget=_parent&~TARGET=_top', '_parent'],
    ['&~TARGET=_top&returntarget=_parent', '_parent'],
    ['&~TARGET=catalogFrame', 'catalogFrame'],
    ['&returntarget=&~Target=_self', '_self'],
    ['&returntarget=+', '_top'],
    ['', '_top'],
  ])('%s → %s', (params, target) => {
    expect(get(`${LOGIN}&${HOOK}${params}`).formTarget).toBe(target);
  });
});

describe('OCI version hint', () => {
  it.each([
    ['4.0', 4],
    ['5.0', 5],
    ['5', 5],
    ['3.0', undefined],
    ['', undefined],
  ])('OCI_VERSION=%s → %s', (version, hint) => {
    const punchIn = get(`${LOGIN}&${HOOK}&OCI_VERSION=${version}`);
    expect(punchIn.versionHint).toBe(hint);
    expect(punchIn.ociVersion).toBe(version);
  });
});

describe('the parsed punch-in', () => {
  it('is plain data: the same through structuredClone and JSON', () => {
    const punchIn = get(
      `${LOGIN}&${HOOK}&FUNCTION=VALIDATE&PRODUCTID=L1&QUANTITY=1,5&~Target=_top&returntarget=x`,
    );
    expect(structuredClone(punchIn)).toStrictEqual(punchIn);
    expect(JSON.parse(JSON.stringify(punchIn))).toStrictEqual(punchIn);
  });
});

describe('transport', () => {
  it('accepts the method in any case and ignores a GET body', () => {
    const punchIn = parsePunchInRequest({ method: 'get', query: `${LOGIN}&${HOOK}`, body: utf8('a=1') });
    expect(ociParamValue(punchIn.params, 'a')).toBeUndefined();
  });

  it('reads a POST body without Content-Type as urlencoded', () => {
    expect(parsePunchInRequest({ method: 'post', query: '', body: utf8(`${LOGIN}&${HOOK}`) }).username).toBe(
      'sap1',
    );
  });

  it('rejects other methods and content types', () => {
    expect(
      ociError(() => parsePunchInRequest({ method: 'DELETE', query: `${LOGIN}&${HOOK}` })),
    ).toMatchObject({
      code: 'bad_method',
      message: 'An OCI punch-in must use GET or POST, not DELETE.',
    });
    expect(ociError(() => post('text/xml', '<x/>')).code).toBe('unsupported_content_type');
  });

  it('bounds the number of parameters across query and body', () => {
    const options = { limits: { maxParams: 4 } };
    expect(
      parsePunchInRequest(
        {
          method: 'POST',
          query: 'a=1',
          contentType: 'application/x-www-form-urlencoded',
          body: utf8(`${LOGIN}&${HOOK}`),
        },
        options,
      ).params.length,
    ).toBe(4);
    const error = ociError(() =>
      parsePunchInRequest(
        {
          method: 'POST',
          query: 'a=1&b=2',
          contentType: 'application/x-www-form-urlencoded',
          body: utf8(`${LOGIN}&${HOOK}`),
        },
        options,
      ),
    );
    expect(error).toMatchObject({
      code: 'too_many_params',
      message: 'The request has more than 4 parameters; a punch-in needs far fewer.',
    });
  });

  it('bounds names, values, query and body sizes', () => {
    const limits = { maxNameBytes: 8, maxValueBytes: 32, maxQueryBytes: 200, maxBodyBytes: 100 };
    expect(ociError(() => get(`${LOGIN}&${HOOK}&longername=1`, { limits }))).toMatchObject({
      code: 'param_too_large',
      message: 'A parameter name is longer than 8 bytes.',
    });
    // The value limit counts decoded bytes, so %XX escapes cannot hide a long value.
    expect(ociError(() => get(`USERNAME=sap1&PASSWORD=${'%41'.repeat(33)}`, { limits }))).toMatchObject({
      code: 'param_too_large',
      param: 'PASSWORD',
      message: 'The value of parameter "PASSWORD" is longer than 32 bytes.',
    });
    expect(ociError(() => get(`a=${'x'.repeat(200)}`, { limits })).code).toBe('body_too_large');
    expect(
      ociError(() => post('application/x-www-form-urlencoded', `a=${'x'.repeat(100)}`, { limits })).code,
    ).toBe('body_too_large');
  });

  it('never puts a password into an error message', () => {
    const error = ociError(() =>
      get(`USERNAME=sap1&PASSWORD=${'s3cr3t'.repeat(4)}`, { limits: { maxValueBytes: 8 } }),
    );
    expect(error.message).not.toContain('s3cr3t');
  });
});

describe('multipart/form-data', () => {
  const boundary = 'XyZ123';
  const part = (name: string, value: string, extraHeaders = ''): string =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n${extraHeaders}\r\n${value}\r\n`;
  const multipart = (body: string | Uint8Array, options?: OciParseOptions): OciPunchIn =>
    post(`multipart/form-data; boundary="${boundary}"`, body, options);
  const login =
    part('USERNAME', 'sap1') + part('PASSWORD', 'sap1-secret') + part('HOOK_URL', 'https://srm.example.com/');

  it('reads fields, keeps CR LF inside values and ignores preamble, epilogue and files', () => {
    const body =
      `This is the preamble.\r\n${login}${part('note', 'line 1\r\nline 2')}` +
      `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n` +
      `${part('empty', '')}--${boundary}--\r\nepilogue`;
    const punchIn = multipart(body);
    expect(punchIn.params).toEqual([
      ['USERNAME', 'sap1'],
      ['PASSWORD', 'sap1-secret'],
      ['HOOK_URL', 'https://srm.example.com/'],
      ['note', 'line 1\r\nline 2'],
      ['empty', ''],
    ]);
  });

  it('unescapes %22 in field names as browsers write them, and reads header names in any case', () => {
    const body = `${login}--${boundary}\r\ncontent-disposition: FORM-DATA; NAME="say %22hi%22"\r\n\r\nyes\r\n--${boundary}--`;
    expect(ociParamValue(multipart(body).params, 'say "hi"')).toBe('yes');
  });

  it('decodes raw field bytes with the announced charset', () => {
    const body = latin1(
      `${part('_charset_', 'windows-1252')}${login}${part('fname', 'J\xfcrgen \x80')}--${boundary}--`,
    );
    const punchIn = multipart(body);
    expect(ociParamValue(punchIn.params, 'fname')).toBe('Jürgen €');
    expect(punchIn.charset).toBe('windows-1252');
  });

  it('counts file parts against the parameter limit', () => {
    const files = Array.from(
      { length: 3 },
      (_, i) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"; filename="f${i}.txt"\r\n\r\nx\r\n`,
    ).join('');
    expect(
      ociError(() => multipart(`${login}${files}--${boundary}--`, { limits: { maxParams: 5 } })).code,
    ).toBe('too_many_params');
  });

  it.each([
    ['a body without the boundary', 'USERNAME=sap1', 'no multipart boundary line was found'],
    [
      'LF-only line breaks',
      `--${boundary}\nContent-Disposition: form-data; name="a"\n\nb\n--${boundary}--`,
      'a boundary line is not followed by a line break',
    ],
    [
      'a part without headers',
      `--${boundary}\r\n\r\nvalue\r\n--${boundary}--`,
      'a part has no Content-Disposition header',
    ],
    [
      'a part that is not form-data',
      `--${boundary}\r\nContent-Disposition: attachment; name="a"\r\n\r\nb\r\n--${boundary}--`,
      'a part is not form-data',
    ],
    [
      'headers that never end',
      `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n`,
      'a part has no end of headers',
    ],
  ])('rejects %s', (_, body, reason) => {
    expect(ociError(() => multipart(body))).toMatchObject({
      code: 'malformed_body',
      message: `The multipart/form-data body cannot be read: ${reason}.`,
    });
  });

  it('rejects a boundary that RFC 2046 does not allow', () => {
    expect(ociError(() => post(`multipart/form-data; boundary=${'b'.repeat(71)}`, login)).code).toBe(
      'malformed_body',
    );
  });
});

describe('verifyOciLogin', () => {
  const punchIn = get(`${LOGIN}&${HOOK}`);

  it('accepts the buyer credentials', () => {
    expect(() => verifyOciLogin(punchIn, { username: 'sap1', password: 'sap1-secret' })).not.toThrow();
  });

  it.each([
    { username: 'sap1', password: 'sap1-secreT' },
    { username: 'SAP1', password: 'sap1-secret' },
    { username: 'sap1', password: 'sap1-secret ' },
    { username: 'sap1', password: '' },
  ])('rejects %o without saying which field was wrong', (expected) => {
    expect(ociError(() => verifyOciLogin(punchIn, expected))).toMatchObject({
      code: 'bad_login',
      message: 'The OCI user name or password is not correct.',
      param: undefined,
    });
  });
});
