/**
 * A form parameter as it arrived, before charset decoding: the percent-decoded (or multipart) bytes of its
 * name and value. The punch-in parser decides the charset only after seeing every parameter, because the
 * buyer may announce it in one of them (`http_content_charset`).
 */
export interface RawParam {
  readonly name: Uint8Array;
  readonly value: Uint8Array;
}

/** Limits that bound the work and memory one punch-in request can cost. */
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
