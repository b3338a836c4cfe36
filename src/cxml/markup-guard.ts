/**
 * One cheap pass over the markup before the XML parser runs. It jumps from `<` to `<` with indexOf,
 * so text is never walked character by character, and it stops at the first problem: a DOCTYPE that
 * declares anything (external entities, parameter entities, billion laughs), nesting over the cap, an
 * oversized value, or tags that do not balance. fast-xml-parser does not check well-formedness while
 * parsing, so this pass is also what turns `<a><b></a>` into a `malformed` error.
 */
import { CxmlError } from './error.ts';
import type { CxmlParseLimits } from './parse-options.ts';

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** Index of the first non-space character in [start, end), or -1. */
function firstNonBlank(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    if (!isXmlSpace(text.charCodeAt(i))) return i;
  }
  return -1;
}

function malformed(message: string): CxmlError {
  return new CxmlError('malformed', message);
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const ENTITY_DECLARATION = /<!ENTITY\s+(%\s*)?([^\s"'>%]+)/;

function internalSubsetMessage(subset: string): string {
  const entity = ENTITY_DECLARATION.exec(subset);
  if (entity === null) return 'DOCTYPE has an internal subset; punchgate accepts no DTD declarations';
  const kind = entity[1] === undefined ? 'entity' : 'parameter entity';
  return `DOCTYPE declares ${kind} "${entity[2]}"; punchgate accepts no entity declarations`;
}

/** Index just past the `>` that closes the DOCTYPE opened at `start`, or a rejection. */
function skipDoctype(xml: string, start: number): number {
  let quote = 0;
  for (let i = start + 9; i < xml.length; i++) {
    const code = xml.charCodeAt(i);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) {
      quote = code;
    } else if (code === GT) {
      return i + 1;
    } else if (code === OPEN_BRACKET) {
      const close = xml.indexOf(']', i + 1);
      // An empty internal subset `[]` is harmless and real buyers send it; anything inside is a DTD.
      if (close === -1 || firstNonBlank(xml, i + 1, close) !== -1) {
        throw new CxmlError(
          'entity_forbidden',
          internalSubsetMessage(xml.slice(i + 1, close === -1 ? i + 4096 : close)),
        );
      }
      let after = close + 1;
      while (after < xml.length && isXmlSpace(xml.charCodeAt(after))) after++;
      if (xml.charCodeAt(after) !== GT) throw malformed('DOCTYPE is not closed after its internal subset');
      return after + 1;
    } else if (code === CLOSE_BRACKET) {
      throw malformed('DOCTYPE has a stray "]"');
    }
  }
  throw malformed('DOCTYPE is not closed');
}

function nameEnd(xml: string, from: number, end: number): number {
  let i = from;
  while (i < end) {
    const code = xml.charCodeAt(i);
    if (isXmlSpace(code) || code === SLASH || code === GT) break;
    i++;
  }
  return i;
}

/**
 * Check the markup of a decoded document against the limits and return the root element's name.
 *
 * @example
 * guardMarkup('<cXML payloadID="1"><Header/></cXML>', DEFAULT_PARSE_LIMITS); // 'cXML'
 */
export function guardMarkup(xml: string, limits: CxmlParseLimits): string {
  const { maxDepth, maxValueLength } = limits;
  const open: string[] = [];
  let root: string | undefined;
  let rootClosed = false;
  let seenDoctype = false;
  let i = 0;
  const length = xml.length;

  while (i <= length) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd - i > maxValueLength) {
      const where = open.length > 0 ? `<${open[open.length - 1]}>` : 'the document';
      throw new CxmlError('too_large', `Text in ${where} is longer than ${maxValueLength} characters`);
    }
    if (open.length === 0) {
      const stray = firstNonBlank(xml, i, textEnd);
      if (stray !== -1) throw malformed(`Text outside the root element at line ${lineOf(xml, stray)}`);
    }
    if (lt === -1) break;

    const next = xml.charCodeAt(lt + 1);
    if (next === SLASH) {
      const gt = xml.indexOf('>', lt + 2);
      if (gt === -1) throw malformed(`Closing tag at line ${lineOf(xml, lt)} is not closed`);
      const expected = open.pop();
      const name = xml.slice(lt + 2, gt).trim();
      if (expected === undefined) throw malformed(`</${name}> at line ${lineOf(xml, lt)} closes nothing`);
      if (name !== expected) {
        throw malformed(`</${name}> at line ${lineOf(xml, lt)} closes <${expected}>`);
      }
      if (open.length === 0) rootClosed = true;
      i = gt + 1;
    } else if (next === QUESTION) {
      const end = xml.indexOf('?>', lt + 2);
      if (end === -1) throw malformed(`Processing instruction at line ${lineOf(xml, lt)} is not closed`);
      i = end + 2;
    } else if (next === BANG) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end === -1) throw malformed(`Comment at line ${lineOf(xml, lt)} is not closed`);
        i = end + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end === -1) throw malformed(`CDATA section at line ${lineOf(xml, lt)} is not closed`);
        if (open.length === 0)
          throw malformed(`CDATA section at line ${lineOf(xml, lt)} is outside the root`);
        if (end - lt - 9 > maxValueLength) {
          throw new CxmlError(
            'too_large',
            `CDATA in <${open[open.length - 1]}> is longer than ${maxValueLength} characters`,
          );
        }
        i = end + 3;
      } else if (xml.startsWith('<!DOCTYPE', lt)) {
        if (seenDoctype || root !== undefined) {
          throw malformed(`DOCTYPE at line ${lineOf(xml, lt)} is not at the start of the document`);
        }
        seenDoctype = true;
        i = skipDoctype(xml, lt);
      } else if (xml.startsWith('<!ENTITY', lt)) {
        throw new CxmlError('entity_forbidden', 'Document declares an entity; punchgate accepts none');
      } else {
        throw malformed(`Unknown markup declaration at line ${lineOf(xml, lt)}`);
      }
    } else {
      // A start tag: find its `>` outside quoted attribute values, measuring each value on the way.
      let quote = 0;
      let quoteStart = 0;
      let gt = -1;
      for (let j = lt + 1; j < length; j++) {
        const code = xml.charCodeAt(j);
        if (quote !== 0) {
          if (code === quote) {
            if (j - quoteStart > maxValueLength) {
              const tag = xml.slice(lt + 1, nameEnd(xml, lt + 1, j));
              throw new CxmlError(
                'too_large',
                `An attribute of <${tag}> is longer than ${maxValueLength} characters`,
              );
            }
            quote = 0;
          }
        } else if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) {
          quote = code;
          quoteStart = j + 1;
        } else if (code === GT) {
          gt = j;
          break;
        } else if (code === LT) {
          break;
        }
      }
      const name = xml.slice(lt + 1, nameEnd(xml, lt + 1, gt === -1 ? length : gt));
      if (name.length === 0) throw malformed(`Tag at line ${lineOf(xml, lt)} has no name`);
      if (gt === -1) throw malformed(`<${name}> at line ${lineOf(xml, lt)} is not closed`);
      if (rootClosed) throw malformed(`<${name}> at line ${lineOf(xml, lt)} follows the root element`);
      root ??= name;
      if (xml.charCodeAt(gt - 1) === SLASH) {
        if (open.length === 0) rootClosed = true;
      } else {
        open.push(name);
        if (open.length > maxDepth) {
          throw new CxmlError('too_deep', `Elements are nested deeper than ${maxDepth} levels at <${name}>`);
        }
      }
      i = gt + 1;
    }
  }

  if (root === undefined) throw malformed('Document has no root element');
  const unclosed = open[open.length - 1];
  if (unclosed !== undefined) throw malformed(`<${unclosed}> is not closed`);
  return root;
}
