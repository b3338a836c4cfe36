import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../schemas/config.ts';

type Schema = { [key: string]: unknown };

/** Every field path of the config schema, as docs/configuration.md writes them (`buyers[].from[].domain`). */
function schemaPaths(schema: Schema, path = '', out = new Set<string>()): Set<string> {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives?.some((a) => (a.properties as Schema | undefined)?.env)) return out; // a secret
  if (alternatives) for (const a of alternatives) schemaPaths(a, path, out);
  if (schema.type === 'array' && schema.items) schemaPaths(schema.items as Schema, `${path}[]`, out);
  for (const [key, child] of Object.entries((schema.properties as Record<string, Schema>) ?? {})) {
    if (key === '$schema') continue;
    const childPath = path ? `${path}.${key}` : key;
    out.add(childPath);
    schemaPaths(child, childPath, out);
  }
  return out;
}

function documentedPaths(): Set<string> {
  const reference = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  const section =
    /<!-- config-reference:start -->([\s\S]*?)<!-- config-reference:end -->/.exec(reference)?.[1] ?? '';
  return new Set([...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1] ?? ''));
}

describe('configuration reference (docs/configuration.md)', () => {
  const documented = documentedPaths();
  const fields = schemaPaths(configJsonSchema());

  it('documents every field of the config schema', () => {
    expect([...fields].filter((f) => !documented.has(f))).toEqual([]);
  });

  it('documents nothing the schema does not have', () => {
    expect([...documented].filter((f) => !fields.has(f))).toEqual([]);
  });
});
