/**
 * `validate` throughput: 10,000 generated policy files loaded in-process by loadPolicies,
 * against a naive loader measured in the same run (readFileSync, yaml.parse and a freshly
 * compiled ajv schema per file, as a first-draft loader would do).
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import policySchema from '../schemas/autojoin.schema.json' with { type: 'json' };
import { loadPolicies } from '../src/policy/index.js';
import type { BenchOptions, BenchRow } from './types.js';

const FILE_COUNT = 10_000;
const FILES_PER_DIRECTORY = 100;
// The naive loader takes milliseconds per file; a sample keeps the bench short.
const NAIVE_SAMPLE = 300;
/** Issue 13: validate of 10,000 files within 2 s. */
const GOAL_SECONDS = 2;

/** Runs the benchmark and returns its rows for the `npm run bench` table. */
export async function benchValidate(options: BenchOptions): Promise<BenchRow[]> {
  const fileCount = options.short ? 200 : FILE_COUNT;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-validate-'));
  try {
    const files = await generatePolicyFiles(dir, fileCount);
    const started = performance.now();
    const result = await loadPolicies(['.'], { cwd: dir });
    const seconds = (performance.now() - started) / 1000;
    const peakMiB = process.resourceUsage().maxRSS / 1024;
    if (result.policies.length !== fileCount || result.diagnostics.length !== 0) {
      throw new Error(`bench corpus did not load cleanly: ${result.policies.length} policies, ${result.diagnostics.length} diagnostics`);
    }
    const rate = fileCount / seconds;
    const naiveRate = measureNaive(files.slice(0, options.short ? 20 : NAIVE_SAMPLE));
    return [
      {
        name: `validate ${fileCount.toLocaleString('en')} policy files (loadPolicies)`,
        value: `${Math.round(rate).toLocaleString('en')} files/s (${seconds.toFixed(2)} s)`,
        comparison: `${(rate / naiveRate).toFixed(1)}× the naive loader (fresh ajv compile + readFileSync per file: ${Math.round(naiveRate)} files/s on ${NAIVE_SAMPLE} files)`,
        goal: `≤ ${GOAL_SECONDS} s`,
        met: seconds <= GOAL_SECONDS,
      },
      {
        name: `validate ${fileCount.toLocaleString('en')} policy files: peak memory`,
        value: `${peakMiB.toFixed(0)} MiB`,
        comparison: `peak RSS of the bench process (${(peakMiB * 1024 / fileCount).toFixed(1)} KiB per file)`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function generatePolicyFiles(dir: string, count: number): Promise<string[]> {
  const files: string[] = [];
  for (let start = 0; start < count; start += FILES_PER_DIRECTORY) {
    const sub = path.join(dir, `group-${String(start / FILES_PER_DIRECTORY).padStart(3, '0')}`);
    await mkdir(sub);
    const batch = Array.from({ length: Math.min(FILES_PER_DIRECTORY, count - start) }, (_, i) => start + i);
    await Promise.all(
      batch.map(async (n) => {
        const file = path.join(sub, `team-${n}.autojoin.yaml`);
        files.push(file);
        await writeFile(file, policyText(n));
      }),
    );
  }
  return files;
}

function policyText(n: number): string {
  return `# yaml-language-server: $schema=../../schemas/autojoin.schema.json
scope: team-${n}
scopeType: team
scopeName: Team ${n}
componentId: cmp_${n % 17}
domains:
  - company-${n}.com
  - company-${n}.co.uk
  - subsidiary-${n % 50}-holdings.de
`;
}

function measureNaive(files: readonly string[]): number {
  const started = performance.now();
  for (const file of files) {
    const validate = new Ajv2020({ allErrors: true }).compile(policySchema);
    if (!validate(parseYaml(readFileSync(file, 'utf8')))) throw new Error(`naive loader rejected ${file}`);
  }
  return files.length / ((performance.now() - started) / 1000);
}
