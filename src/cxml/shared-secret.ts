/**
 * SharedSecrets in the raw text of a document. punchgate keeps the text of every OrderRequest and shows it
 * to operators, so the secret must leave it; a redaction by pattern is only as good as the spellings it
 * knows. The rule that makes it exact: a SharedSecret's content is plain text (characters and entity
 * references). A comment, CDATA section, processing instruction or element inside it is refused before
 * the document is parsed — `<SharedSecret><!--</SharedSecret>-->the-secret</SharedSecret>` authenticated
 * as "the-secret" while a pattern saw an empty secret ending inside the comment. With plain content the
 * first end tag after the start tag is the element's own, so the whole content is always what is removed.
 */
import { CxmlError } from './error.ts';

/** A SharedSecret start tag, with any namespace prefix, in any case (the redaction takes every spelling). */
const START_TAG = /<((?:[A-Za-z_][\w.-]*:)?sharedsecret)(?=[\s/>])[^>]*>/gi;

/**
 * Refuses a document in which a SharedSecret holds anything but text.
 *
 * @example
 * assertPlainSharedSecrets('<SharedSecret>s3cret</SharedSecret>'); // passes
 */
export function assertPlainSharedSecrets(xml: string): void {
  for (const match of xml.matchAll(START_TAG)) {
    if (match[0].endsWith('/>')) continue;
    const contentStart = (match.index ?? 0) + match[0].length;
    const next = xml.indexOf('<', contentStart);
    const closes = new RegExp(`^</${escapeRegExp(match[1] ?? '')}\\s*>`, 'i');
    if (next === -1 || !closes.test(xml.slice(next, next + (match[1]?.length ?? 0) + 64))) {
      throw new CxmlError(
        'invalid_value',
        'A SharedSecret must be plain text: comments, CDATA sections and elements inside it are not accepted',
      );
    }
  }
}

/**
 * The document with the content of every SharedSecret replaced by `[redacted]`; exact for documents that
 * passed `assertPlainSharedSecrets`, which every parsed request has.
 *
 * @example
 * redactSharedSecrets('<SharedSecret>s3cret</SharedSecret>'); // → '<SharedSecret>[redacted]</SharedSecret>'
 */
export function redactSharedSecrets(xml: string): string {
  return xml.replace(
    /(<((?:[A-Za-z_][\w.-]*:)?sharedsecret)(?:\s[^>]*)?(?<!\/)>)[^<]*(<\/\2\s*>)/gi,
    '$1[redacted]$3',
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
