/**
 * No import circle anywhere in src/: every relative import (static, `export … from`, and
 * `import()`) of every module, followed as a graph, never comes back to where it started. A circle
 * is a pair of modules that can only be understood together, and breaks when one is moved.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : Promise.resolve(entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : []))));
  return nested.flat();
}

/** @returns the src/ modules a file imports, as paths relative to src/ */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/gu)].map((match) => match[1] ?? match[2] ?? '');
  return specifiers
    .filter((specifier) => specifier.endsWith('.js'))
    .map((specifier) => path.relative(SRC, path.resolve(path.dirname(file), specifier.replace(/\.js$/u, '.ts'))));
}

/** @returns one circle of the graph, as the modules around it (empty when there is none) */
export function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] => {
    if (state.get(node) === 'done') return [];
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const circle = visit(next);
      if (circle.length > 0) return circle;
    }
    stack.pop();
    state.set(node, 'done');
    return [];
  };
  for (const node of graph.keys()) {
    const circle = visit(node);
    if (circle.length > 0) return circle;
  }
  return [];
}

describe('src/ import graph', () => {
  it('finds a circle where there is one (the check can fail)', () => {
    expect(findCircle(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']]]))).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
    expect(importsOf(path.join(SRC, 'plan/x.ts'), "import type { A } from './y.js';\nexport { B } from '../z/w.js';\nconst m = await import('./v.js');")).toEqual(['plan/y.ts', 'z/w.ts', 'plan/v.ts']);
  });

  it('has no import circle', async () => {
    const files = await sourceFiles(SRC);
    const graph = new Map<string, string[]>();
    for (const file of files) graph.set(path.relative(SRC, file), importsOf(file, await readFile(file, 'utf8')));
    expect(graph.size).toBeGreaterThan(100);
    expect(findCircle(graph).join(' → ')).toBe('');
  });
});
