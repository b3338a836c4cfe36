/**
 * vitest's global setup: unpacks the npm Chromium (test/browser/chromium.ts) once, before the browser
 * test files start side by side, so they do not each unpack it on a fresh install.
 */
import { unpackChromium } from './chromium.ts';

export default async function setup(): Promise<void> {
  if (process.env.CHROMIUM_PATH !== undefined) return;
  const begun = performance.now();
  const { executablePath } = await unpackChromium();
  console.info(`Chromium for the tests: ${executablePath} (${Math.round(performance.now() - begun)} ms)`);
}
