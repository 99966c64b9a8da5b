/**
 * No import circle anywhere in src/: every relative import (static, `export … from`, and
 * `import()`) of every module, followed as a graph, never comes back to where it started. A circle
 * is a pair of modules that can only be understood together, and breaks when one is moved.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, SRC, sourceFiles } from '../support/imports.js';

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
