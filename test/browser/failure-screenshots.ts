/**
 * Named steps for a browser walk: when a step fails, the page as the person saw it is saved under
 * `test-results/browser/` and the error names the step, so a red CI run says where the walk stopped.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-results', 'browser');

export type Step = <T>(name: string, action: () => Promise<T>) => Promise<T>;

/**
 * @example
 * const step = stepsWithScreenshots(page, 'ariba');
 * await step('punch out', () => page.getByRole('button', { name: 'Punch out' }).click());
 */
export function stepsWithScreenshots(page: Page, walk: string): Step {
  let number = 0;
  return async (name, action) => {
    number += 1;
    try {
      return await action();
    } catch (error) {
      const file = join(SCREENSHOT_DIR, `${walk}-${String(number).padStart(2, '0')}-${slug(name)}.png`);
      let saved = `screenshot ${file}`;
      try {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: file, fullPage: true });
      } catch (screenshotError) {
        saved = `no screenshot (${screenshotError instanceof Error ? screenshotError.message : 'unknown'})`;
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${walk}, step ${number} "${name}" failed at ${page.url()} (${saved}): ${reason}`, {
        cause: error,
      });
    }
  };
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
