/**
 * Incremental pull-request plans: `plan --changed-since HEAD` in a git repository of 10,000
 * policy files of which 3 were edited, as the built CLI run by a user (start-up included),
 * against an emulator answering every request after 20 ms. Beside it, in the same run, the full
 * plan's latency-bound limit (what no full plan at that concurrency can beat).
 * Goal (issue 13): ≤ 1 s.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateData, startEmulator } from '../src/emulator/index.js';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const LATENCY_MS = 20;
const CONCURRENCY = 16;
const EDITED = 3;
const GOAL_SECONDS = 1;

const scopeName = (n: number): string => `scope-${String(n).padStart(4, '0')}`;

function policyText(n: number, extra = ''): string {
  const scope = scopeName(n);
  return `scope: ${scope}\nscopeType: team\ncomponentId: cmp-bench\ndomains:\n  - d1.${scope}.example\n  - d2.${scope}.example\n${extra}`;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', '-c', 'gc.auto=0', ...args], { cwd, stdio: 'ignore' });
}

/** A committed repository of `files` policy files, then `EDITED` of them edited in the working tree. */
async function makeRepository(dir: string, files: number): Promise<void> {
  for (let group = 0; group * 100 < files; group++) {
    const sub = path.join(dir, 'policies', `group-${String(group).padStart(3, '0')}`);
    await mkdir(sub, { recursive: true });
    const count = Math.min(100, files - group * 100);
    await Promise.all(Array.from({ length: count }, (_, i) => group * 100 + i + 1).map((n) => writeFile(path.join(sub, `${scopeName(n)}.autojoin.yaml`), policyText(n))));
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'policies');
  for (let k = 0; k < EDITED; k++) {
    const n = 1 + Math.floor((k * files) / EDITED);
    const file = path.join(dir, 'policies', `group-${String(Math.floor((n - 1) / 100)).padStart(3, '0')}`, `${scopeName(n)}.autojoin.yaml`);
    await writeFile(file, policyText(n, `  - new.${scopeName(n)}.example\n`));
  }
}

/** @returns seconds of one spawned CLI run that must exit with `expected`. */
async function timeCli(args: string[], cwd: string, env: Record<string, string>, expected: number): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== expected) throw new Error(`autojoin-sync ${args.join(' ')} exited ${String(code)}`);
  return (performance.now() - started) / 1000;
}

/** Runs the benchmark and returns its row for the `npm run bench` table. */
export async function benchChanged(options: BenchOptions): Promise<BenchRow[]> {
  const files = options.short ? 300 : 10_000;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-changed-'));
  const data = generateData({ scopes: files, invitationsPerScope: 30, domainsPerScope: 2, seed: 7 });
  const emulator = await startEmulator({ port: 0, data, latencyMs: LATENCY_MS });
  try {
    await makeRepository(dir, files);
    const env = { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: emulator.apiKey };
    emulator.requests.length = 0;
    const seconds = await timeCli(['plan', '--changed-since', 'HEAD', '--detailed-exitcode', 'policies'], dir, env, 2);
    const served = emulator.requests.length;
    const fullLimit = (files * 2 * LATENCY_MS) / 1000 / CONCURRENCY;
    return [
      {
        name: `plan --changed-since: ${EDITED} of ${files.toLocaleString('en')} files edited @ ${LATENCY_MS} ms`,
        value: `${seconds.toFixed(2)} s (${served} requests, start-up included)`,
        comparison: `${(fullLimit / seconds).toFixed(1)}× faster than the full plan's latency-bound limit (${(files * 2).toLocaleString('en')} × ${LATENCY_MS} ms ÷ ${CONCURRENCY} = ${fullLimit.toFixed(1)} s)`,
        goal: `≤ ${GOAL_SECONDS} s`,
        met: seconds <= GOAL_SECONDS,
      },
    ];
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}
