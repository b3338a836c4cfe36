import { describe, expect, it } from 'vitest';
import { html, trustedHtml } from '../../../src/gateway/http/html.ts';
import { escapeHtml } from '../../../src/kernel/html-escape.ts';

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const name = `<script>alert("x")</script>&'\``;
    const out = html`<p title="${name}">${name}</p>`.value;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&#96;</p>',
    );
  });

  it('keeps nested html and trusted markup, drops null, undefined and false', () => {
    const items = ['a<b', 'c'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}${null}${undefined}${false}${trustedHtml('<hr>')}</ul>`.value).toBe(
      '<ul><li>a&lt;b</li><li>c</li><hr></ul>',
    );
  });

  it('escapeHtml leaves plain text alone', () => {
    expect(escapeHtml('Business cards 85×55 mm')).toBe('Business cards 85×55 mm');
  });
});
