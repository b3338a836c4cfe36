/**
 * A form parameter as it arrived, before charset decoding: the percent-decoded (or multipart) bytes of its
 * name and value. The punch-in parser decides the charset only after seeing every parameter, because the
 * buyer may announce it in one of them (`http_content_charset`).
 */
export interface RawParam {
  readonly name: Uint8Array;
  readonly value: Uint8Array;
}
