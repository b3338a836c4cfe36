/**
 * The sandbox print service and the buyer simulator live in their own package, `@punchgate/sandbox`, which
 * the published gateway does not depend on (it would make pdf-lib and fflate dependencies of a gateway that
 * never draws a PDF). `punchgate sandbox`, `punchgate keygen` and `punchgate demo` load it when they run;
 * when it is not installed beside the gateway they say in one line which package to install.
 */

export const SANDBOX_PACKAGE = '@punchgate/sandbox';

/** What the commands use of the package: its runtime-agnostic entry plus reading a seed file on Node. */
export type SandboxPackage = typeof import('@punchgate/sandbox') & typeof import('@punchgate/sandbox/node');

async function importInstalledPackage(): Promise<SandboxPackage> {
  const [core, node] = await Promise.all([import('@punchgate/sandbox'), import('@punchgate/sandbox/node')]);
  return { ...core, ...node };
}

/**
 * Node's answer when the package itself cannot be found. A module missing inside an installed sandbox (a
 * broken install) names another specifier, so it stays the error it is.
 */
function isPackageMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
    error.message.includes(`'${SANDBOX_PACKAGE}'`)
  );
}

/**
 * Loads `@punchgate/sandbox`; when it is not installed, throws an Error whose message is the one line to
 * show (the CLI prints it after the command's name and exits 1).
 *
 * @example
 * const { createSandbox, readSeedFile } = await loadSandboxPackage();
 */
export async function loadSandboxPackage<T = SandboxPackage>(
  importPackage: () => Promise<T> = importInstalledPackage as () => Promise<T>,
): Promise<T> {
  try {
    return await importPackage();
  } catch (error) {
    if (isPackageMissing(error)) {
      throw new Error(
        `the sandbox print service and the buyer simulator are a separate package; install it beside punchgate: npm install ${SANDBOX_PACKAGE}`,
      );
    }
    throw error;
  }
}
