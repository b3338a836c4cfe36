/**
 * The one error type of the buyer simulator. Its `code` decides the cXML Status an inbound document is
 * answered with and the message a page shows; the message itself says what was wrong, for integrators.
 */

const SIMULATOR_ERROR_CODES = [
  /** Not well-formed XML, too large, or carrying entity declarations. */
  'malformed_xml',
  /** Well-formed, but the root is not `<cXML>`. */
  'not_cxml',
  /** A cXML document of another kind than the endpoint reads. */
  'unexpected_document',
  /** A required element or attribute is missing or empty. */
  'missing_field',
  /** A cart form post without a readable cXML field. */
  'bad_form',
] as const;

export type SimulatorErrorCode = (typeof SIMULATOR_ERROR_CODES)[number];

export class SimulatorError extends Error {
  readonly code: SimulatorErrorCode;

  constructor(code: SimulatorErrorCode, message: string) {
    super(message);
    this.name = 'SimulatorError';
    this.code = code;
  }
}
