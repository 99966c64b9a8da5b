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
import { statFields, statSeconds } from './probe.js';
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
    const rules = await rulesOverhead(dir, fileCount, options.short ? 2 : 8);
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
        value: `+${((rules.cpuRatio - 1) * 100).toFixed(1)} % CPU (${rules.cpuWith.toFixed(2)} s)`,
        comparison:
          `the same load without rules: ${rules.cpuWithout.toFixed(2)} s CPU (sums of ${rules.runs} alternated runs); ` +
          `wall clock, medians: ${rules.wallWith.toFixed(2)} s with, ${rules.wallWithout.toFixed(2)} s without`,
        goal: '≤ +10 %',
        met: rules.cpuRatio <= 1.1,
      },
      {
        name: `inventory ${count} policy files (CLI, CSV)`,
        value: `${plain.wall.toFixed(2)} s`,
        comparison: `${plain.cpu.toFixed(2)} s CPU (the CLI process)`,
        goal: '≤ 2 s',
        met: plain.wall <= 2,
      },
      {
        name: `inventory --blame ${count} policy files (${edited.toLocaleString('en')} edited since added: one git blame each; the rest from one git log)`,
        value: `${blamed.wall.toFixed(2)} s`,
        comparison: `${(blamed.wall / plain.wall).toFixed(2)}× inventory without --blame; CPU ${blamed.cpu.toFixed(2)} s (CLI and git), ${(blamed.cpu / plain.cpu).toFixed(2)}× its`,
        goal: '≤ 3× inventory',
        met: blamed.wall <= 3 * plain.wall,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Alternates loads with and without rules, in ABBA order (the first pair warms up, unmeasured). CPU time of
 * this process is compared, as well as the wall clock: on a shared machine the wall clock moves
 * with the others' load, the CPU a load takes does not.
 */
async function rulesOverhead(dir: string, fileCount: number, runs: number): Promise<Overhead> {
  const project = parseProjectSource({ file: 'autojoin-sync.yaml', text: RULES }, path.join(dir, 'autojoin-sync.yaml'));
  if (project.diagnostics.length > 0) throw new Error('bench rules do not load');
  const withRules: Timing[] = [];
  const without: Timing[] = [];
  for (let run = 0; run <= runs; run += 1) {
    // ABBA: each kind runs first as often as second, so neither pays the other's garbage more often.
    const first = run % 2 === 0;
    const b0 = first ? await timeLoad(dir, fileCount, project.config) : null;
    const a = await timeLoad(dir, fileCount, {});
    const b = b0 ?? (await timeLoad(dir, fileCount, project.config));
    if (run === 0) continue;
    without.push(a);
    withRules.push(b);
  }
  const sum = (list: Timing[], key: keyof Timing): number => list.reduce((total, timing) => total + timing[key], 0);
  return {
    cpuRatio: sum(withRules, 'cpu') / sum(without, 'cpu'),
    wallWith: median(withRules.map((t) => t.wall)),
    wallWithout: median(without.map((t) => t.wall)),
    cpuWith: sum(withRules, 'cpu') / runs,
    cpuWithout: sum(without, 'cpu') / runs,
    runs,
  };
}

interface Timing {
  wall: number;
  cpu: number;
}

interface Overhead {
  cpuRatio: number;
  cpuWith: number;
  cpuWithout: number;
  wallWith: number;
  wallWithout: number;
  runs: number;
}

async function timeLoad(dir: string, fileCount: number, project: ProjectConfig): Promise<Timing> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await loadPolicies(['.'], { cwd: dir, project, today: '2026-03-01' });
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  if (result.policies.length !== fileCount || result.diagnostics.some((d) => d.severity === 'error')) throw new Error('bench corpus did not load cleanly');
  return { wall: seconds, cpu: (used.user + used.system) / 1e6 };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Runs the CLI from a shell that then prints its own /proc stat: its children's CPU (cutime,
 * cstime) is the CLI's and its git processes'. Linux only, as the other CPU figures of the bench.
 * @returns wall-clock and CPU seconds; throws unless the CLI exits 0
 */
function timeCli(cwd: string, args: string[]): Timing {
  const started = performance.now();
  const command = `${[process.execPath, CLI, ...args].map((arg) => `'${arg}'`).join(' ')} > /dev/null || exit 1; cat /proc/$$/stat`;
  const result = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  // The shell's children's CPU (cutime, cstime): the CLI's and its git processes'.
  return { wall, cpu: statSeconds(statFields(result.stdout), 13) ?? 0 };
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
