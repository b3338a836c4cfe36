/**
 * Caps that keep a hostile or broken document from costing more than a normal one. They are checked
 * before the XML parser builds anything.
 */

export interface CxmlParseOptions {
  /** Largest accepted document, in bytes (UTF-8 bytes for string input). Default 1 MiB. */
  readonly maxBytes?: number;
  /** Deepest accepted element nesting; the root element is depth 1. Default 100. */
  readonly maxDepth?: number;
  /** Longest accepted text run or attribute value, in characters. Default 65,536. */
  readonly maxValueLength?: number;
}

export interface CxmlParseLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxValueLength: number;
}

export const DEFAULT_PARSE_LIMITS: CxmlParseLimits = {
  maxBytes: 1024 * 1024,
  maxDepth: 100,
  maxValueLength: 64 * 1024,
};

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`cXML parse option ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

export function resolveParseLimits(options: CxmlParseOptions | undefined): CxmlParseLimits {
  if (options === undefined) return DEFAULT_PARSE_LIMITS;
  return {
    maxBytes: positiveInteger('maxBytes', options.maxBytes, DEFAULT_PARSE_LIMITS.maxBytes),
    maxDepth: positiveInteger('maxDepth', options.maxDepth, DEFAULT_PARSE_LIMITS.maxDepth),
    maxValueLength: positiveInteger(
      'maxValueLength',
      options.maxValueLength,
      DEFAULT_PARSE_LIMITS.maxValueLength,
    ),
  };
}
