/**
 * Imports point down (docs/ARCHITECTURE.md, "Layers"): every folder of src/ has a layer, and a
 * module imports only from its own folder or from a lower layer; the top-level files of src/ are
 * the lowest layer. Folders of one layer are peers and import nothing of each other (the CLI and
 * the action; policy files and the service client). And no two files of src/ share a name,
 * except the per-folder `index.ts` and `types.ts` and the entry points `main.ts`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, SRC, sourceFiles } from '../support/imports.js';

/** Lowest first; one entry per layer, a layer's folders are peers. `.` is the top-level files of src/; `generated` the schema validators the build compiles. */
export const LAYERS: readonly (readonly string[])[] = [
  ['.', 'generated'],
  ['policy', 'service'],
  ['emulator', 'dns', 'git'],
  ['plan'],
  ['apply', 'history'],
  ['render', 'output'],
  ['run'],
  ['connect'],
  ['reconcile'],
  ['governance', 'notify'],
  ['commands'],
  ['cli', 'action'],
];

/** The layer test allows these names more than once: one per folder, or an entry point. */
const SHARED_NAMES = new Set(['index.ts', 'types.ts', 'main.ts']);

const folderOf = (module: string): string => (module.includes('/') ? (module.split('/')[0] ?? '.') : '.');

/** @returns one line per import that runs sideways or back up, naming the file and the import */
export function importsAgainstLayers(graph: ReadonlyMap<string, readonly string[]>, layers: readonly (readonly string[])[]): string[] {
  const rank = new Map(layers.flatMap((folders, index) => folders.map((folder) => [folder, index] as const)));
  const problems: string[] = [];
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    const fromRank = rank.get(from);
    if (fromRank === undefined) {
      problems.push(`src/${file}: its folder src/${from} has no layer (add it to LAYERS)`);
      continue;
    }
    for (const imported of imports) {
      if (imported.startsWith('..')) continue;
      const to = folderOf(imported);
      if (to === from) continue;
      const toRank = rank.get(to) ?? Number.POSITIVE_INFINITY;
      if (toRank >= fromRank) problems.push(`src/${file} imports src/${imported} (${to === '.' ? 'top level' : to}, layer ${toRank}) from layer ${fromRank}`);
    }
  }
  return problems;
}

/** @returns each file name that more than one file of `files` has, with its paths, unless allowed */
export function repeatedNames(files: readonly string[], allowed: ReadonlySet<string>): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(path.basename(file), [...(byName.get(path.basename(file)) ?? []), file]);
  return [...byName]
    .filter(([name, paths]) => paths.length > 1 && !allowed.has(name))
    .map(([name, paths]) => `${name}: ${paths.join(', ')}`);
}

async function srcGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const file of await sourceFiles(SRC)) graph.set(path.relative(SRC, file), importsOf(file, await readFile(file, 'utf8')));
  return graph;
}

describe('src/ layers', () => {
  it('names an import that runs back up or sideways, and a folder without a layer (the check can fail)', () => {
    const layers = [['.'], ['policy', 'service'], ['plan']];
    const graph = new Map([
      ['scope.ts', ['policy/homographs.ts', 'text.ts']],
      ['policy/load.ts', ['service/client.ts', 'policy/types.ts', '../package.json']],
      ['plan/diff.ts', ['policy/types.ts', 'scope.ts']],
      ['extra/x.ts', []],
    ]);
    expect(importsAgainstLayers(graph, layers)).toEqual([
      'src/scope.ts imports src/policy/homographs.ts (policy, layer 1) from layer 0',
      'src/policy/load.ts imports src/service/client.ts (service, layer 1) from layer 1',
      'src/extra/x.ts: its folder src/extra has no layer (add it to LAYERS)',
    ]);
    expect(repeatedNames(['a/plan.ts', 'b/plan.ts', 'a/index.ts', 'b/index.ts', 'c.ts'], SHARED_NAMES)).toEqual(['plan.ts: a/plan.ts, b/plan.ts']);
  });

  it('every import of src/ points down', async () => {
    const graph = await srcGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(importsAgainstLayers(graph, LAYERS)).toEqual([]);
  });

  it('every folder of src/ has a layer, and every layer a folder', async () => {
    const folders = new Set([...(await srcGraph()).keys()].map(folderOf));
    expect([...folders].filter((folder) => !LAYERS.flat().includes(folder))).toEqual([]);
    expect(LAYERS.flat().filter((folder) => !folders.has(folder))).toEqual([]);
  });

  it('no two files of src/ share a name (but index.ts, types.ts and the entry points main.ts)', async () => {
    const files = (await sourceFiles(SRC)).map((file) => path.relative(SRC, file));
    expect(repeatedNames(files, SHARED_NAMES)).toEqual([]);
  });
});
