/**
 * One YAML reader or two: the plain-YAML fast path (src/policy/plain.ts) against the `yaml`
 * library on the same corpus in the same run, the measurement issue 24 decides by (keep the fast
 * path only at ≥ 1.5× the library path). The corpus is the validate bench's policy text, the form
 * `import` and `fmt` write. Two rows:
 *
 * - parse only, in memory: the fast path (parsePolicyText) against the library as the loader calls
 *   it for any other file (parseYamlSource: parseAllDocuments with a LineCounter, then toJS) and
 *   against the library without positions (what "parse with yaml, re-parse with positions only
 *   for files that have a finding" pays on a clean file);
 * - the whole loader (loadPolicies), on disk: the same files, and the same files behind a `---`
 *   line, which the fast path declines, so they take the library path and nothing else changes.
 *
 * Each figure is the median of several rounds, the two sides alternating within a round.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseYamlSource } from '../src/policy/parse.js';
import { parsePlainDocument, parsePolicyText } from '../src/policy/plain.js';
import type { PolicySource } from '../src/policy/types.js';
import { median } from './startup.js';
import { policyText, timeLoad } from './validate.js';
import type { BenchOptions, BenchRow } from './types.js';

const FILE_COUNT = 10_000;
const FILES_PER_DIRECTORY = 100;
/** Issue 24: a second YAML reader stays only if it is at least this much faster. */
const KEEP_RATIO = 1.5;

/** Runs the benchmark and returns its rows for the `npm run bench` table. */
export async function benchYaml(options: BenchOptions): Promise<BenchRow[]> {
  const fileCount = options.short ? 200 : FILE_COUNT;
  const rounds = options.short ? 2 : 7;
  const sources = Array.from({ length: fileCount }, (_, n) => ({ file: `team-${n}.autojoin.yaml`, text: policyText(n) }));
  if (!sources.every((source) => parsePlainDocument(source) !== null)) throw new Error('bench corpus is outside the fast path');
  const parse = medians(rounds, {
    fast: () => parseAll(sources, parsePolicyText),
    library: () => parseAll(sources, parseYamlSource),
    bare: () => parseAll(sources, parseWithoutPositions),
  });
  const load = await timeLoader(fileCount, options.short ? 2 : 3);
  const count = fileCount.toLocaleString('en');
  const ms = (seconds: number): string => `${(seconds * 1000).toFixed(0)} ms`;
  return [
    {
      name: `policy YAML: parse ${count} files in memory, fast path vs yaml library (median of ${rounds})`,
      value: `${ms(parse.fast)} fast path; ${ms(parse.library)} library`,
      comparison:
        `fast path ${(parse.library / parse.fast).toFixed(1)}× the library path (parseYamlSource); ` +
        `${(parse.bare / parse.fast).toFixed(1)}× the library without positions (${ms(parse.bare)})`,
      goal: `keep the fast path at ≥ ${KEEP_RATIO}×`,
      met: parse.library / parse.fast >= KEEP_RATIO,
    },
    {
      name: `policy YAML: validate ${count} files (loadPolicies), fast path vs the same files behind \`---\` (median of ${load.rounds})`,
      value: `${ms(load.fast)} fast path; ${ms(load.library)} library`,
      comparison: `fast path ${(load.library / load.fast).toFixed(2)}× the library path; it saves ${ms(load.library - load.fast)}`,
      goal: `keep the fast path at ≥ ${KEEP_RATIO}×`,
      met: load.library / load.fast >= KEEP_RATIO,
    },
  ];
}

/** The `yaml` library as the alternative would call it first: same options, no LineCounter. */
function parseWithoutPositions(source: PolicySource): unknown {
  const docs = parseAllDocuments(source.text, { prettyErrors: true, uniqueKeys: true, strict: true });
  if (!Array.isArray(docs)) return [];
  return docs.map((doc) => doc.toJS({ maxAliasCount: 16 }) as unknown);
}

function parseAll(sources: readonly PolicySource[], parse: (source: PolicySource) => unknown): void {
  for (const source of sources) {
    if (parse(source) === undefined) throw new Error(`no result for ${source.file}`);
  }
}

/** @returns the median seconds of each measure over `rounds` rounds, every measure once a round. */
function medians<K extends string>(rounds: number, measures: Record<K, () => void>): Record<K, number> {
  const times = new Map<K, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [name, measure] of Object.entries(measures) as [K, () => void][]) {
      const started = performance.now();
      measure();
      times.set(name, [...(times.get(name) ?? []), (performance.now() - started) / 1000]);
    }
  }
  return Object.fromEntries([...times].map(([name, seconds]) => [name, median(seconds)])) as Record<K, number>;
}

/** loadPolicies over the corpus as written and behind a `---` line, alternating; median seconds of each. */
async function timeLoader(fileCount: number, rounds: number): Promise<{ fast: number; library: number; rounds: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-yaml-'));
  try {
    await writeCorpus(path.join(dir, 'fast'), fileCount, '');
    if (parsePlainDocument({ file: 'f', text: `---\n${policyText(0)}` }) !== null) throw new Error('the fast path reads `---`: no library corpus');
    await writeCorpus(path.join(dir, 'library'), fileCount, '---\n');
    const times = { fast: [] as number[], library: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      for (const side of ['fast', 'library'] as const) times[side].push(await timeLoad(path.join(dir, side), fileCount));
    }
    return { fast: median(times.fast), library: median(times.library), rounds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function writeCorpus(dir: string, fileCount: number, prefix: string): Promise<void> {
  for (let start = 0; start < fileCount; start += FILES_PER_DIRECTORY) {
    const sub = path.join(dir, `group-${String(start / FILES_PER_DIRECTORY).padStart(3, '0')}`);
    await mkdir(sub, { recursive: true });
    const batch = Array.from({ length: Math.min(FILES_PER_DIRECTORY, fileCount - start) }, (_, i) => start + i);
    await Promise.all(batch.map((n) => writeFile(path.join(sub, `team-${n}.autojoin.yaml`), prefix + policyText(n))));
  }
}
