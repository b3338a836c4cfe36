/**
 * The sandbox on Node: reading a seed file. The only file of the package that imports `node:*`; the rest
 * runs unchanged on Cloudflare Workers.
 */
import { readFile } from 'node:fs/promises';
import { parseSandboxSeed, type SeedResult } from './sandbox-seed.ts';

/** Reads and validates a seed file; an unreadable file or bad JSON is one problem at `(file)`. */
export async function readSeedFile(path: string | URL): Promise<SeedResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return { ok: false, problems: [{ path: '(file)', message: `cannot be read (${reason})` }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [{ path: '(file)', message: `is not valid JSON (${(error as Error).message})` }],
    };
  }
  return parseSandboxSeed(value);
}
