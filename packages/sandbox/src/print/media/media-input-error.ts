/**
 * The one error type of the sandbox media layer: a query or form value that the editor host refuses.
 * Parsers return it (never throw it) so a route can map `code` to a status and show `message`.
 */

export type MediaInputErrorCode =
  | 'missing_parameter'
  | 'invalid_integer'
  | 'out_of_range'
  | 'invalid_boolean'
  | 'invalid_choice'
  | 'invalid_color'
  | 'invalid_color_map'
  | 'invalid_url'
  | 'invalid_size'
  | 'size_not_allowed'
  | 'invalid_text'
  | 'unknown_product';

class MediaInputError extends Error {
  readonly code: MediaInputErrorCode;
  /** The query parameter or form field the error is about, spelled as the interface or the form spells it. */
  readonly parameter: string;

  constructor(code: MediaInputErrorCode, parameter: string, message: string) {
    super(message);
    this.name = 'MediaInputError';
    this.code = code;
    this.parameter = parameter;
  }

  toJSON(): { code: MediaInputErrorCode; parameter: string; message: string } {
    return { code: this.code, parameter: this.parameter, message: this.message };
  }
}

export type MediaParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: MediaInputError };

export function parsed<T>(value: T): MediaParseResult<T> {
  return { ok: true, value };
}

export function refused<T>(
  code: MediaInputErrorCode,
  parameter: string,
  message: string,
): MediaParseResult<T> {
  return { ok: false, error: new MediaInputError(code, parameter, message) };
}
