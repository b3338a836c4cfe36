/**
 * No import cycle anywhere in the sources, type-only imports included: a cycle means two modules that can
 * only change together, and a folder that cannot be read without the one that imports it. The gateway's
 * layers are kept too: the assembly (`src/gateway/app/`, `src/gateway/index.ts`) sits above every feature,
 * and `src/gateway/http/` is plumbing that features use, so it imports none of them.
 *
 * dependency-cruiser reads the imports as TypeScript writes them (`tsPreCompilationDeps`, so `import type`
 * counts) and resolves the packages' own names through the `punchgate-source` condition, so a cycle
 * through `punchgate/…` or `@punchgate/sandbox/…` is seen as one through the sources.
 */
import { join } from 'node:path';
import { cruise, type IForbiddenRuleType, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

const FEATURES = '(punchout|cxml|oci|orders|documents|invoices|operator)';

const RULES: IForbiddenRuleType[] = [
  { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  {
    name: 'features-below-the-assembly',
    severity: 'error',
    from: { path: '^src/', pathNot: ['^src/gateway/app/', '^src/gateway/index\\.ts$', '^src/runtime/'] },
    to: { path: ['^src/gateway/app/', '^src/gateway/index\\.ts$'] },
  },
  {
    name: 'http-plumbing-imports-no-feature',
    severity: 'error',
    from: { path: '^src/gateway/http/' },
    to: { path: `^src/gateway/${FEATURES}/` },
  },
];

/** Every rule broken in `roots`, one line each: the rule, the importer and, for a cycle, the way round. */
async function violations(roots: string[]): Promise<string[]> {
  const result = await cruise(
    roots,
    {
      baseDir: root,
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: ['node_modules', '(^|/)dist/'] },
      validate: true,
      ruleSet: { forbidden: RULES },
      enhancedResolveOptions: {
        exportsFields: ['exports'],
        conditionNames: ['punchgate-source', 'import', 'default'],
      },
    },
    undefined,
    undefined,
  );
  if (typeof result.output === 'string') throw new Error(`unexpected string output: ${result.output}`);
  return result.output.summary.violations.map(describeViolation);
}

function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle?.map((step) => step.name).join(' -> ');
  const via = cycle === undefined ? `-> ${violation.to}` : `-> ${cycle}`;
  return `${violation.rule.name}: ${violation.from} ${via}`;
}

describe('imports', () => {
  it('form no cycle in src or packages, and keep the gateway layered', { timeout: 120_000 }, async () => {
    const found = await violations(['src', 'schemas', 'packages']);
    expect(found).toEqual([]);
  });
});
