import { describe, expect, it } from 'vitest';
import { el, escapeXmlAttribute, escapeXmlText, serializeXml } from '../../src/cxml/xml-writer.ts';

describe('escaping', () => {
  it('escapes markup characters in text and leaves quotes alone there', () => {
    expect(escapeXmlText(`a<b>&c"d'e`)).toBe(`a&lt;b&gt;&amp;c"d'e`);
  });

  it('escapes quotes and line breaks in attributes so they survive attribute normalisation', () => {
    expect(escapeXmlAttribute(`a<b>&c"d'e\tf\ng\rh`)).toBe('a&lt;b&gt;&amp;c&quot;d&apos;e&#9;f&#10;g&#13;h');
  });

  it('keeps non-ASCII as is by default', () => {
    expect(escapeXmlText('Müller — 名刺 🖨')).toBe('Müller — 名刺 🖨');
  });

  it('drops characters XML 1.0 cannot carry: controls, lone surrogates, U+FFFE/U+FFFF', () => {
    expect(escapeXmlText('a\u0000b\u0008c\u000bd\u001fe\ud800f\udc00g\ufffeh\uffffi')).toBe('abcdefghi');
    expect(escapeXmlAttribute('x\u0001y')).toBe('xy');
    expect(escapeXmlText('tab\tand\nline\r')).toBe('tab\tand\nline\r');
  });

  it('writes non-ASCII as character references in ASCII mode, pairs as one code point', () => {
    expect(escapeXmlText('é—😀&', { ascii: true })).toBe('&#xE9;&#x2014;&#x1F600;&amp;');
    expect(escapeXmlAttribute('ü"', { ascii: true })).toBe('&#xFC;&quot;');
    expect(escapeXmlText('a\ud800b\u0001', { ascii: true })).toBe('ab');
  });
});

describe('serializeXml', () => {
  it('indents element-only content, keeps text inline and closes empty elements', () => {
    const xml = serializeXml(
      el(
        'A',
        { x: '1', skipped: undefined, n: 2 },
        el('B', {}, 'text & more'),
        el('C'),
        el('D', {}, el('E', { lang: 'en' }, el('S', {}, 'short'), ' tail ')),
        undefined,
        false,
        [el('F'), undefined],
      ),
    );
    expect(xml).toBe(
      [
        '<A x="1" n="2">',
        '  <B>text &amp; more</B>',
        '  <C/>',
        '  <D>',
        '    <E lang="en"><S>short</S> tail </E>',
        '  </D>',
        '  <F/>',
        '</A>',
      ].join('\n'),
    );
  });

  it('writes an empty string as an open and close pair, not as a self-closed element', () => {
    expect(serializeXml(el('BuyerCookie', {}, ''))).toBe('<BuyerCookie></BuyerCookie>');
  });
});
