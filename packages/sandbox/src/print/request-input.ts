/**
 * Reading what a request brings — JSON bodies, path ids, query values — into typed values or a 400/404
 * SandboxError with a message that names the field. Nothing is mutated before these have passed.
 */
import type { Context } from 'hono';
import { formatConfigPath } from 'punchgate/schemas/config';
import type { PrintApiErrorName } from 'punchgate/schemas/print-api';
import type { z } from 'zod';
import { SandboxError } from './sandbox-error.ts';

/** The largest id the service's 32-bit integer ids can hold. */
const MAX_ID = 2_147_483_647;

/** A positive integer id written in decimal digits; undefined for anything else. */
export function readId(text: string | undefined): number | undefined {
  if (text === undefined || !/^[0-9]{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}

/** A path id; anything but a positive integer is "not found" with the resource's own error. */
export function pathId(text: string | undefined, notFound: PrintApiErrorName | SandboxError): number {
  const id = readId(text);
  if (id === undefined) throw typeof notFound === 'string' ? SandboxError.of(notFound) : notFound;
  return id;
}

/** One line naming every problem zod found, by field path. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? '' : `${formatConfigPath(issue.path)}: `}${issue.message}`)
    .join('; ');
}

/** A missing field reads "is required" rather than zod's "expected string, received undefined". */
const requiredFieldMessage = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : undefined;

/**
 * The JSON body validated by a schema. An empty body counts as `{}` when `emptyAs` says so (for the
 * optional bodies of mark-shipped); otherwise it is a 400 like any malformed JSON.
 */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { emptyAs?: unknown } = {},
): Promise<z.infer<S>> {
  const text = await c.req.text();
  let value: unknown;
  if (text.trim() === '') {
    if (!('emptyAs' in options))
      throw SandboxError.invalid('The request body is empty; a JSON object is required.');
    value = options.emptyAs;
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      throw SandboxError.invalid('The request body is not valid JSON.');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw SandboxError.invalid('The request body must be a JSON object.');
  }
  const result = schema.safeParse(value, { error: requiredFieldMessage });
  if (!result.success) throw SandboxError.invalid(`Invalid request body: ${describeIssues(result.error)}.`);
  return result.data;
}
