/** The cXML fixture folders, for tests that iterate them. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../../fixtures/cxml/', import.meta.url));

export function fixtureNames(folder: 'valid' | 'invalid'): string[] {
  return readdirSync(`${FIXTURES}${folder}`)
    .filter((name) => name.endsWith('.xml'))
    .sort();
}

/** The fixture's bytes, exactly as a buyer would post them. */
export function fixtureBytes(folder: 'valid' | 'invalid', name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${FIXTURES}${folder}/${name}`));
}

export function fixtureJson<T>(folder: 'valid' | 'invalid', name: string): T {
  return JSON.parse(readFileSync(`${FIXTURES}${folder}/${name}`, 'utf8')) as T;
}
