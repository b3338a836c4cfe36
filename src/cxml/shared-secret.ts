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
import { escapeXmlText } from './xml-writer.ts';

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
 * A whole SharedSecret element with plain content: `$1` its start tag, `$2` its name, `$3` its end tag. It
 * starts at a `<`, never at whitespace: a received document's whitespace runs are the buyer's, and a
 * pattern that could start anywhere in one would cost the square of its length.
 */
const ELEMENT = /(<((?:[A-Za-z_][\w.-]*:)?sharedsecret)(?:\s[^>]*)?(?<!\/)>)[^<]*(<\/\2\s*>)/gi;

/** What a SharedSecret holds once redacted: stored documents and operators' views carry this, never a secret. */
const REDACTED_SHARED_SECRET = '[redacted]';

/** `xml` with the content of every SharedSecret replaced by `content`, already escaped. */
function withContent(xml: string, content: string): string {
  return xml.replace(ELEMENT, (_element, start: string, _name, end: string) => `${start}${content}${end}`);
}

/**
 * The document with the content of every SharedSecret replaced by `[redacted]`; exact for documents that
 * passed `assertPlainSharedSecrets`, which every parsed request has, and for every document we build. The
 * one redaction of the gateway: for storing a document (a received PO, a document sent to a buyer) and for
 * showing one; `withSharedSecret` puts a secret back when a stored document is sent.
 *
 * @example
 * redactSharedSecrets('<SharedSecret>s3cret</SharedSecret>'); // → '<SharedSecret>[redacted]</SharedSecret>'
 */
export function redactSharedSecrets(xml: string): string {
  return withContent(xml, REDACTED_SHARED_SECRET);
}

/**
 * A document we built and stored redacted, with `secret` as the content of every SharedSecret (escaped as
 * the document builders escape text, so a first post is byte for byte what was built); with no secret
 * (none configured any more) every SharedSecret element goes, with the whitespace before it, as a document
 * built now would have none. Whatever a SharedSecret holds is replaced: in a document we send, every one
 * is ours.
 *
 * @example
 * withSharedSecret('<SharedSecret>[redacted]</SharedSecret>', 'a&b'); // → '<SharedSecret>a&amp;b</SharedSecret>'
 */
export function withSharedSecret(xml: string, secret: string | undefined): string {
  if (secret !== undefined) return withContent(xml, escapeXmlText(secret));
  let kept = '';
  let from = 0;
  for (const element of xml.matchAll(ELEMENT)) {
    kept += xml.slice(from, element.index).trimEnd();
    from = element.index + element[0].length;
  }
  return kept + xml.slice(from);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
