/**
 * Bounds on the work and memory one punch-in request can cost. The route should still refuse an oversized
 * body before reading it; these limits protect the parser itself.
 */

export interface OciParseLimits {
  /** Parameters in query and body together (multipart file parts count too). */
  readonly maxParams: number;
  /** Bytes of one parameter name after percent-decoding. */
  readonly maxNameBytes: number;
  /** Bytes of one parameter value after percent-decoding. */
  readonly maxValueBytes: number;
  /** Bytes of the raw query string. */
  readonly maxQueryBytes: number;
  /** Bytes of the request body. */
  readonly maxBodyBytes: number;
}

/** Generous for SAP SRM-MDM's two dozen parameters and long ITS HOOK_URLs, small enough to refuse floods. */
export const DEFAULT_OCI_PARSE_LIMITS: OciParseLimits = {
  maxParams: 200,
  maxNameBytes: 256,
  maxValueBytes: 16 * 1024,
  maxQueryBytes: 32 * 1024,
  maxBodyBytes: 256 * 1024,
};
