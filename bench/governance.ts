/**
 * Governance costs on 10,000 generated policy files: what the project file's rules add to
 * validate (the same load with and without a rule of every kind, alternated, medians compared),
 * and `inventory` as a user runs it (the spawned CLI, CSV to a pipe) on a git repository of those
 * files, then `inventory --blame` against it: 5 % of the files edited by a second commit (a git
 * blame each), the rest added once (their commit from one git log).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadPolicies, parseProjectSource, type ProjectConfig } from '../src/policy/index.js';
import type { BenchOptions, BenchRow } from './types.js';
import { generatePolicyFiles } from './validate.js';

const FILE_COUNT = 10_000;
/** Share of the files edited by a second commit (they need a git blame each). */
const EDITED_SHARE = 0.05;
const RULES = `rules:
  - name: company domains
    allow: ["*.com", "*.co.uk", "*.de"]
    deny: ["*.agency.example"]
    maxScopesPerDomain: 1000
    requireExpiry: ["*.contractor.example"]
    maxExpiryDays: 365
  - name: team one keeps its domain
    scopes: ["team/team-1"]
    require: ["company-1.com"]
`;
const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

/** Runs the benchmark and returns its rows for the `npm run bench` table. */
export async function benchGovernance(options: BenchOptions): Promise<BenchRow[]> {
  const fileCount = options.short ? 200 : FILE_COUNT;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-governance-'));
  try {
    await generatePolicyFiles(dir, fileCount, 'plain');
    const rules = await rulesOverhead(dir, fileCount, options.short ? 1 : 5);
    await writeFile(path.join(dir, '.gitignore'), '');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    commit(dir, 'policies');
    // Edited files take a git blame each; files added once and never touched take their commit from one git log.
    const edited = await editSome(dir, fileCount, EDITED_SHARE);
    commit(dir, 'edit some policies');
    const plain = timeCli(dir, ['inventory', '.']);
    const blamed = timeCli(dir, ['inventory', '.', '--blame']);
    const count = fileCount.toLocaleString('en');
    return [
      {
        name: `validate ${count} policy files with rules (every kind)`,
        value: `+${((rules.ratio - 1) * 100).toFixed(1)} % (${rules.with.toFixed(2)} s)`,
        comparison: `the same load without rules: ${rules.without.toFixed(2)} s (medians of ${rules.runs} alternated runs)`,
        goal: '≤ +10 %',
        met: rules.ratio <= 1.1,
      },
      { name: `inventory ${count} policy files (CLI, CSV)`, value: `${plain.toFixed(2)} s`, comparison: `${(plain / fileCount * 1e6).toFixed(0)} µs per file`, goal: '≤ 2 s', met: plain <= 2 },
      {
        name: `inventory --blame ${count} policy files (${edited.toLocaleString('en')} edited since added: one git blame each; the rest from one git log)`,
        value: `${blamed.toFixed(2)} s`,
        comparison: `${(blamed / plain).toFixed(2)}× inventory without --blame`,
        goal: '≤ 3× inventory',
        met: blamed <= 3 * plain,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Alternates loads with and without rules (the first of each warms up, unmeasured); medians. */
async function rulesOverhead(dir: string, fileCount: number, runs: number): Promise<{ with: number; without: number; ratio: number; runs: number }> {
  const project = parseProjectSource({ file: 'autojoin-sync.yaml', text: RULES }, path.join(dir, 'autojoin-sync.yaml'));
  if (project.diagnostics.length > 0) throw new Error('bench rules do not load');
  const withRules: number[] = [];
  const without: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const a = await timeLoad(dir, fileCount, {});
    const b = await timeLoad(dir, fileCount, project.config);
    if (run === 0) continue;
    without.push(a);
    withRules.push(b);
  }
  const w = median(withRules);
  const wo = median(without);
  return { with: w, without: wo, ratio: w / wo, runs };
}

async function timeLoad(dir: string, fileCount: number, project: ProjectConfig): Promise<number> {
  const started = performance.now();
  const result = await loadPolicies(['.'], { cwd: dir, project, today: '2026-03-01' });
  const seconds = (performance.now() - started) / 1000;
  if (result.policies.length !== fileCount || result.diagnostics.some((d) => d.severity === 'error')) throw new Error('bench corpus did not load cleanly');
  return seconds;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** @returns seconds the spawned CLI took; throws unless it exits 0 with output. */
function timeCli(cwd: string, args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0 || result.stdout === '') throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return seconds;
}

/** Adds a domain to every `1 / share`-th policy file; @returns how many. */
async function editSome(dir: string, fileCount: number, share: number): Promise<number> {
  const step = Math.round(1 / share);
  let edited = 0;
  for (let n = 0; n < fileCount; n += step) {
    const file = path.join(dir, `group-${String(Math.floor(n / 100)).padStart(3, '0')}`, `team-${n}.autojoin.yaml`);
    await appendFile(file, `  - extra-${n}.com\n`);
    edited += 1;
  }
  return edited;
}

function commit(cwd: string, message: string): void {
  git(cwd, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-a', '-m', message);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}
