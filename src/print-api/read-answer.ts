/**
 * Readers of a 2xx answer, one per kind the interface has: nothing (204/200 without body), JSON checked
 * against a zod contract, and a file (ZIP, PNG, PDF) handed over as a stream.
 */
import type { z } from 'zod';
import { parseContentDispositionFilename } from './content-disposition.ts';
import { PrintApiError } from './error.ts';
import { formatFieldPath } from './field-path.ts';
import type { CallSpec, ReadAnswer } from './transport.ts';

/** A file answer. The body is not read: stream it somewhere, or cancel it to free the connection. */
export interface PrintApiFile {
  readonly body: ReadableStream<Uint8Array>;
  /** From Content-Disposition (`filename*` preferred), else the name the interface documents. */
  readonly filename: string;
  readonly contentType: string;
  /** From Content-Length, when the service sent one. */
  readonly contentLength?: number;
}

/** For answers whose body carries nothing: empty bodies are skipped, anything else is drained. */
export const readNothing: ReadAnswer<void> = async (response) => {
  if (response.body !== null) await response.arrayBuffer();
};

/**
 * A reader that parses JSON and checks it against `schema`: unknown extra fields pass (the contracts are
 * loose objects), a wrong type is an `invalid_response` naming the field.
 */
export function jsonReader<S extends z.ZodType>(schema: S): ReadAnswer<z.output<S>> {
  return async (response, spec) => {
    const text = await response.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw invalidResponse(spec, `body is not JSON (${text.length === 0 ? 'empty' : 'malformed'})`, {
        cause: error,
      });
    }
    const result = schema.safeParse(data);
    if (result.success) return result.data;
    const issue = result.error.issues[0]!;
    const fieldPath = formatFieldPath(issue.path);
    throw invalidResponse(spec, `${fieldPath === '' ? 'the body' : fieldPath}: ${issue.message}`, {
      fieldPath,
      cause: result.error,
    });
  };
}

/** A reader that hands the body over as a stream; `fallbackName` when Content-Disposition names none. */
export function fileReader(fallbackName: string): ReadAnswer<PrintApiFile> {
  return (response, spec) => {
    if (response.body === null) throw invalidResponse(spec, 'file answer without a body', {});
    const length = response.headers.get('content-length');
    const file: PrintApiFile = {
      body: response.body,
      filename: parseContentDispositionFilename(response.headers.get('content-disposition')) ?? fallbackName,
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      ...(length !== null && /^\d+$/.test(length) ? { contentLength: Number(length) } : {}),
    };
    return file;
  };
}

function invalidResponse(
  spec: CallSpec,
  what: string,
  extra: { fieldPath?: string; cause?: unknown },
): PrintApiError {
  return new PrintApiError('invalid_response', `${spec.method} ${spec.path}: invalid response: ${what}`, {
    method: spec.method,
    path: spec.path,
    ...extra,
  });
}
