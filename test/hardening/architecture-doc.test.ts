/**
 * docs/ARCHITECTURE.md stays true to the code: every repository path it names exists, and every
 * module of src/ it names a function of exports that function.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');

/** Paths in backquotes, e.g. `src/reconcile/make-plan.ts`; trailing punctuation dropped. */
function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/`((?:src|schemas|test|bench|scripts|examples|docs)\/[^`\s]*)`/g)) {
    found.add((match[1] ?? '').replace(/[),.;:]+$/u, ''));
  }
  return [...found];
}

describe('docs/ARCHITECTURE.md', () => {
  it('names only files and folders that exist', () => {
    const paths = namedPaths(doc);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((named) => !existsSync(path.join(ROOT, named)))).toEqual([]);
  });

  it('each step of makePlan it draws is exported where it says', () => {
    const steps: [string, string][] = [
      ['src/reconcile/make-plan.ts', 'makePlan'],
      ['src/reconcile/desired.ts', 'desiredScopes'],
      ['src/policy/load.ts', 'streamPolicies'],
      ['src/service/state.ts', 'readEach'],
      ['src/plan/plan-builder.ts', 'planBuilder'],
      ['src/plan/encode.ts', 'encodePlan'],
      ['src/reconcile/saved-plan.ts', 'readSavedPlan'],
    ];
    for (const [file, name] of steps) {
      expect(doc, `${file} is drawn`).toContain(file);
      expect(readFileSync(path.join(ROOT, file), 'utf8'), `${name} in ${file}`).toMatch(new RegExp(`export (async )?function\\*? ?${name}\\b`, 'u'));
    }
  });

  it('names no file outside the repository', () => {
    expect(doc).not.toMatch(/(^|[\s`(])(\/work\/|\/tmp\/|\.\.\/shared|~\/)/mu);
  });

  it('the two front ends are peers: src/action imports nothing of src/cli, nor src/cli of src/action', () => {
    const crossing = (from: string, other: string): string[] =>
      readdirSync(path.join(ROOT, 'src', from), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .filter((file) => new RegExp(`from '(\\.\\./)+${other}/`, 'u').test(readFileSync(path.join(ROOT, 'src', from, file), 'utf8')))
        .map((file) => `src/${from}/${file}`);
    expect([...crossing('action', 'cli'), ...crossing('cli', 'action')]).toEqual([]);
  });
});
