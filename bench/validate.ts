/**
 * `validate` throughput: 10,000 generated policy files loaded in-process by loadPolicies, in the
 * form `import` and `fmt` write them (which the loader's plain-YAML fast path reads), then the
 * same policies with a `metadata` mapping (which it leaves to the yaml library). Both are compared with
 * a naive loader measured in the same run on the same files: readFileSync, yaml.parse and one
 * compiled ajv schema, one file after another — no positions, no domain checks, no safe reads.
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
/** Issue 13: validate of 10,000 files within 2 s. */
const GOAL_SECONDS = 2;

/** Runs the benchmark and returns its rows for the `npm run bench` table. */
export async function benchValidate(options: BenchOptions): Promise<BenchRow[]> {
  const fileCount = options.short ? 200 : FILE_COUNT;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-validate-'));
  try {
    // First, as `validate` would: in a process that has loaded nothing yet.
    const plainFiles = await generatePolicyFiles(path.join(dir, 'plain'), fileCount, 'plain');
    const plain = await timeLoad(path.join(dir, 'plain'), fileCount);
    const peakMiB = process.resourceUsage().maxRSS / 1024;
    const nestedFiles = await generatePolicyFiles(path.join(dir, 'nested'), fileCount, 'nested');
    const nested = await timeLoad(path.join(dir, 'nested'), fileCount);
    const naivePlain = measureNaive(plainFiles);
    const naiveNested = measureNaive(nestedFiles);
    const versus = (seconds: number, naive: number): string =>
      `${(naive / seconds).toFixed(1)}× the naive loader (readFileSync + yaml.parse + one compiled ajv schema, file by file: ${naive.toFixed(2)} s)`;
    return [
      {
        name: `validate ${fileCount.toLocaleString('en')} policy files (loadPolicies)`,
        value: `${Math.round(fileCount / plain).toLocaleString('en')} files/s (${plain.toFixed(2)} s)`,
        comparison: versus(plain, naivePlain),
        goal: `≤ ${GOAL_SECONDS} s`,
        met: plain <= GOAL_SECONDS,
      },
      {
        name: `validate ${fileCount.toLocaleString('en')} policy files with metadata (the full YAML path; run second)`,
        value: `${Math.round(fileCount / nested).toLocaleString('en')} files/s (${nested.toFixed(2)} s)`,
        comparison: versus(nested, naiveNested),
      },
      {
        name: `validate ${fileCount.toLocaleString('en')} policy files: peak memory`,
        value: `${peakMiB.toFixed(0)} MiB`,
        comparison: `peak RSS of the bench process after the first load (${(peakMiB * 1024 / fileCount).toFixed(1)} KiB per file)`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** @returns the seconds loadPolicies took over every file under `dir`, which must all load cleanly. */
export async function timeLoad(dir: string, fileCount: number): Promise<number> {
  const started = performance.now();
  const result = await loadPolicies(['.'], { cwd: dir });
  const seconds = (performance.now() - started) / 1000;
  if (result.policies.length !== fileCount || result.diagnostics.length !== 0) {
    throw new Error(`bench corpus did not load cleanly: ${result.policies.length} policies, ${result.diagnostics.length} diagnostics`);
  }
  return seconds;
}

export type Style = 'plain' | 'nested';

export async function generatePolicyFiles(dir: string, count: number, style: Style): Promise<string[]> {
  const files: string[] = [];
  for (let start = 0; start < count; start += FILES_PER_DIRECTORY) {
    const sub = path.join(dir, `group-${String(start / FILES_PER_DIRECTORY).padStart(3, '0')}`);
    await mkdir(sub, { recursive: true });
    const batch = Array.from({ length: Math.min(FILES_PER_DIRECTORY, count - start) }, (_, i) => start + i);
    await Promise.all(
      batch.map(async (n) => {
        const file = path.join(sub, `team-${n}.autojoin.yaml`);
        files.push(file);
        await writeFile(file, style === 'plain' ? policyText(n) : withMetadata(policyText(n), n));
      }),
    );
  }
  return files;
}

/** The same policy with a `metadata` mapping: nested, so outside the plain-YAML subset. */
function withMetadata(text: string, n: number): string {
  return text.replace('domains:', `metadata:\n  owner: team-${n}\n  ticket: SEC-${n}\ndomains:`);
}

export function policyText(n: number): string {
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

/** @returns the seconds the naive loader took over `files`. */
function measureNaive(files: readonly string[]): number {
  const validate = new Ajv2020({ allErrors: true }).compile(policySchema);
  const started = performance.now();
  for (const file of files) {
    if (!validate(parseYaml(readFileSync(file, 'utf8')))) throw new Error(`naive loader rejected ${file}`);
  }
  return (performance.now() - started) / 1000;
}
