/**
 * The Chromium the browser tests drive with playwright-core: the headless build that npm installs inside
 * @sparticuz/chromium (brotli-compressed in the package, so nothing is downloaded), or the one
 * `CHROMIUM_PATH` names. Headless, no sandbox (the tests may run as root, where Chromium's sandbox will not
 * start), no GPU, and no background traffic to Google, so a test only talks to the demo on loopback.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflate } from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

/** The package's entry is build/index.js; its archives are in bin/ beside build/. */
const PACKAGE_DIR = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..');
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * Where the unpacked browser is kept between runs: beside the package it came from, per version, so
 * `npm ci` or an upgrade starts afresh and concurrent runs on one machine never share a half-written file.
 */
const UNPACKED_DIR = fileURLToPath(
  new URL(`../../node_modules/.cache/punchgate-chromium/${PACKAGE_VERSION}/`, import.meta.url),
);

/**
 * The archives in the package: the browser, its SwiftShader graphics libraries, a font with its
 * fontconfig file, and the NSS/NSPR/expat libraries it links to (built for Amazon Linux; with them on
 * LD_LIBRARY_PATH the browser needs nothing from the machine but the C library).
 */
const ARCHIVES = ['chromium.br', 'swiftshader.tar.br', 'fonts.tar.br', 'al2023.tar.br'];

interface UnpackedChromium {
  executablePath: string;
  env: Record<string, string>;
}

function unpacked(dir: string): UnpackedChromium {
  return {
    executablePath: join(dir, 'chromium'),
    env: { LD_LIBRARY_PATH: join(dir, 'al2023', 'lib'), FONTCONFIG_PATH: join(dir, 'fonts') },
  };
}

/**
 * The fontconfig file for the browser unpacked in `dir`. The package's own looks in /tmp/fonts, where
 * Lambda unpacks them; without a font every text box has no width and the tests find no visible heading.
 */
function fontsConf(dir: string): string {
  return `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`;
}

/**
 * Points the fontconfig file of an unpacked browser at where it is now: a checkout moved or copied with
 * its node_modules keeps a file naming the old place, which no longer has the fonts.
 */
function keepFontsFound(dir: string): void {
  const file = join(dir, 'fonts', 'fonts.conf');
  const wanted = fontsConf(dir);
  if (readFileSync(file, 'utf8') !== wanted) writeFileSync(file, wanted);
}

/**
 * Unpacks the package's Chromium once (about 200 MB; a few seconds) and answers where it is. The package
 * unpacks into os.tmpdir(), which reads TMPDIR, so TMPDIR names a fresh directory while it does; that
 * directory then takes its final name in one rename, which only the first of two racing runs wins.
 */
export async function unpackChromium(): Promise<UnpackedChromium> {
  const ready = unpacked(UNPACKED_DIR);
  if (existsSync(ready.executablePath)) {
    keepFontsFound(UNPACKED_DIR);
    return ready;
  }
  mkdirSync(join(UNPACKED_DIR, '..'), { recursive: true });
  const staging = mkdtempSync(`${UNPACKED_DIR.replace(/\/$/, '')}.unpacking-`);
  const tmpdir = process.env.TMPDIR;
  try {
    process.env.TMPDIR = staging;
    for (const archive of ARCHIVES) await inflate(join(PACKAGE_DIR, 'bin', archive));
    writeFileSync(join(staging, 'fonts', 'fonts.conf'), fontsConf(UNPACKED_DIR));
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `could not unpack the Chromium of @sparticuz/chromium ${PACKAGE_VERSION} (${(error as Error).message}): reinstall it with \`npm ci\`, or set CHROMIUM_PATH to a Chromium of your own`,
    );
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    renameSync(staging, UNPACKED_DIR);
  } catch {
    // Another run unpacked the same version first; its copy is as good as this one.
    rmSync(staging, { recursive: true, force: true });
  }
  return ready;
}

/**
 * @example
 * const browser = await launchChromium();
 * const page = await browser.newPage();
 */
export async function launchChromium(): Promise<Browser> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured !== undefined && !existsSync(configured)) {
    throw new Error(
      `CHROMIUM_PATH names ${configured}, which does not exist: unset it to use the Chromium from npm`,
    );
  }
  const browser = configured === undefined ? await unpackChromium() : { executablePath: configured, env: {} };
  return chromium.launch({
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
