/**
 * Debian's Chromium driven by playwright-core for the browser tests: headless, no sandbox (CI runs as
 * root), no GPU, and no background traffic to Google, so a test only talks to the demo on loopback.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** `.ci/run` installs Debian's `chromium` package, which puts the browser here. */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * @example
 * const browser = await launchChromium();
 * const page = await browser.newPage();
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM;
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
