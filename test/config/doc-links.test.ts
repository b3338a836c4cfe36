/**
 * The documentation's relative links resolve: every `[text](target)` and `[label]: target` in the README,
 * docs/, CONTRIBUTING.md, CHANGELOG.md and the READMEs beside the code names a file or folder of the
 * repository, and a `#fragment` names a heading of the Markdown file it points at (as GitHub makes heading
 * ids). Links to other sites are not fetched: a test must not depend on the network.
 *
 * Also the front door's promises: the README stays within 300 lines and links every page of docs/.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Markdown files whose links readers follow, relative to the repository root. */
function documentationFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'];
  for (const name of readdirSync(join(ROOT, 'docs'))) if (name.endsWith('.md')) files.push(`docs/${name}`);
  for (const folder of ['src', 'packages', 'fixtures', 'examples', 'test']) {
    for (const path of readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })) {
      if (path.split(sep).includes('node_modules')) continue;
      if (path.endsWith('README.md')) files.push(`${folder}/${path.split(sep).join('/')}`);
    }
  }
  return files.sort();
}

/** The lines of a Markdown text outside fenced code blocks (the fenced ones blanked, so line numbers stay). */
function linesOutsideFences(markdown: string): string[] {
  let inFence = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line;
  });
}

/** The text outside fenced code blocks, with inline code spans reduced so their brackets are not links. */
function proseOf(markdown: string): string {
  return linesOutsideFences(markdown)
    .map((line) => line.replace(/`[^`]*`/g, '`code`'))
    .join('\n');
}

/** Every link target in a Markdown text: inline links and images, and reference definitions. */
function linkTargets(markdown: string): string[] {
  const prose = proseOf(markdown);
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
  const references = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? '');
  return [...inline, ...references];
}

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingSlug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The ids of a Markdown file's headings, repeated ones numbered as GitHub numbers them (`-1`, `-2`). */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of linesOutsideFences(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    ids.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return ids;
}

/** What is wrong with one link of `file` (relative to the root), or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: — another site
  const [pathPart = '', fragment] = target.split('#', 2);
  const from = join(ROOT, file);
  const path = pathPart === '' ? from : resolve(dirname(from), decodeURIComponent(pathPart));
  if (relative(ROOT, path).startsWith('..')) return `${target}: points outside the repository`;
  if (!existsSync(path)) return `${target}: no such file`;
  if (fragment === undefined || fragment === '') return undefined;
  if (statSync(path).isDirectory() || !path.endsWith('.md')) return undefined;
  return headingIds(readFileSync(path, 'utf8')).has(decodeURIComponent(fragment).toLowerCase())
    ? undefined
    : `${target}: no heading #${fragment} in ${relative(ROOT, path)}`;
}

describe('documentation links', () => {
  const files = documentationFiles();

  it('finds the documentation', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md', 'CONTRIBUTING.md']));
  });

  it('every relative link resolves to a file of the repository, and every #fragment to a heading', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const target of linkTargets(readFileSync(join(ROOT, file), 'utf8'))) {
        checked++;
        const problem = brokenLink(file, target);
        if (problem !== undefined) broken.push(`${file}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('reads links as Markdown does: inline, images, references, not inside code', () => {
    const text = [
      'See [the guide](docs/a.md#set-up) and ![logo](img/logo.png "Logo").',
      '[`code` in text](b.md) but not `[in code](c.md)`.',
      '```sh',
      'echo [not](a-link.md)',
      '```',
      '[ref]: ../d.md',
      'A [site](https://example.com).',
    ].join('\n');
    expect(linkTargets(text)).toEqual([
      'docs/a.md#set-up',
      'img/logo.png',
      'b.md',
      'https://example.com',
      '../d.md',
    ]);
  });

  it('makes heading ids as GitHub does', () => {
    const ids = headingIds(
      '# Title\n## Control API (`/_sandbox`, JSON, camelCase)\n## Demo credentials (fixtures/sandbox-seed.json)\n' +
        '## Title\n```\n# not a heading\n```\n',
    );
    expect([...ids]).toEqual([
      'title',
      'control-api-_sandbox-json-camelcase',
      'demo-credentials-fixturessandbox-seedjson',
      'title-1',
    ]);
  });

  it('reports a missing file, a missing heading and a way out of the repository', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toBe('docs/no-such-page.md: no such file');
    expect(brokenLink('README.md', 'docs/configuration.md#no-such-heading')).toBe(
      'docs/configuration.md#no-such-heading: no heading #no-such-heading in docs/configuration.md',
    );
    expect(brokenLink('README.md', '../outside.md')).toBe('../outside.md: points outside the repository');
    expect(brokenLink('docs/operations.md', '#admin-api')).toBeUndefined();
    expect(brokenLink('README.md', 'https://example.com/nowhere')).toBeUndefined();
  });
});

describe('the README as a front door', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('fits in 300 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links every page of docs/', () => {
    const linked = new Set(linkTargets(readme).map((t) => t.split('#')[0]));
    const pages = readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`);
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('keeps the demo and the test command CI runs', () => {
    expect(readme).toContain('npm install && npm start');
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
    expect(readme).toMatch(/^npm test\s+# /m);
  });
});
