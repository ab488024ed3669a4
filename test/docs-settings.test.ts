// The docs name settings, files and pages that must exist: every setting src/config.ts reads is in the
// table of docs/configuration.md and every one listed there is read; every relative link and every
// repository path written in backticks in README.md, CONTRIBUTING.md and docs/ points at a file that is there.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const docs = ['README.md', 'CONTRIBUTING.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function settingsRead(): string[] {
  const source = read('src/config.ts');
  const start = source.indexOf('const schema = z.object({');
  const body = source.slice(start, source.indexOf('\n});', start));
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!).sort();
}

function settingsListed(): string[] {
  const rows = read('docs/configuration.md')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return [...new Set(rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)))].sort();
}

describe('the docs agree with the code', () => {
  it('docs/configuration.md lists exactly the settings src/config.ts reads', () => {
    const read = settingsRead();
    expect(read.length).toBeGreaterThan(40);
    expect(settingsListed()).toEqual(read);
  });

  it('relative links in the docs point at files that exist', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      for (const [, target] of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith('/')) continue;
        if (!existsSync(path.join(root, path.dirname(doc), target!))) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('building-an-agent.md shows the minimal agent exactly as examples/minimal-agent/agent.mjs is', () => {
    const page = read('docs/building-an-agent.md');
    const shown = page.slice(page.indexOf('```js\n', page.indexOf('**4. Run the agent.**')) + '```js\n'.length);
    expect(shown.slice(0, shown.indexOf('```'))).toBe(read('examples/minimal-agent/agent.mjs'));
  });

  it('repository paths written in backticks exist', () => {
    const missing: string[] = [];
    for (const doc of docs) {
      for (const [, written] of read(doc).matchAll(/`((?:src|scripts|test|bench|examples|prisma|web|docs)\/[\w./-]+\.(?:ts|tsx|mjs|sh|md|prisma|json))`/g)) {
        if (!existsSync(path.join(root, written!))) missing.push(`${doc}: ${written}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
