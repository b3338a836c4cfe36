import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT } from '../../src/print-api/index.ts';
import { PUNCHGATE_VERSION } from '../../src/print-api/version.ts';

describe('the version the client names', () => {
  it("is package.json's, in the default User-Agent", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(PUNCHGATE_VERSION).toBe(pkg.version);
    expect(DEFAULT_USER_AGENT).toBe(`punchgate/${pkg.version}`);
  });
});
