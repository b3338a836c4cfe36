/**
 * Loading @punchgate/sandbox: only the package itself missing becomes the one-line install hint; a module
 * missing inside an installed sandbox (a broken install) stays the error it is, so it is not hidden.
 */
import { describe, expect, it } from 'vitest';
import { loadSandboxPackage, type SandboxPackage } from '../../src/runtime/sandbox-package.ts';

function notFound(specifier: string): Error {
  return Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/src/runtime/x.ts`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('loadSandboxPackage', () => {
  it('loads the installed package', async () => {
    const loaded = await loadSandboxPackage();
    expect(typeof loaded.createSandbox).toBe('function');
    expect(typeof loaded.createBuyerSimulator).toBe('function');
    expect(typeof loaded.readSeedFile).toBe('function');
  });

  it('turns the package missing into one line naming the package to install', async () => {
    await expect(loadSandboxPackage(() => Promise.reject(notFound('@punchgate/sandbox')))).rejects.toThrow(
      new Error(
        'the sandbox print service and the buyer simulator are a separate package; install it beside punchgate: npm install @punchgate/sandbox',
      ),
    );
  });

  it('leaves a module missing inside the sandbox as it is', async () => {
    const broken = notFound('pdf-lib');
    await expect(loadSandboxPackage(() => Promise.reject(broken) as Promise<SandboxPackage>)).rejects.toBe(
      broken,
    );
  });
});
