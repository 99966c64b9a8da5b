/**
 * The steady state a team runs every day (issue 38), as whole CLI processes against the spawned
 * emulator at 20 ms a request, each figure beside its comparison in the same run.
 *
 * How the state is made: a real git repository with a project file (`autojoin-sync.yaml`, owner
 * `bench-team`) and one policy file per scope (2,000; 100 when short), committed; an emulator
 * seeded with those scopes (unmarked) and a data file; `autojoin-sync apply --yes` run once from
 * the repository (at no latency, to save time), so every scope carries this repository's marker
 * (owner, commit, applied, keys); then a second commit that changes half the scopes' domain
 * lists (every odd scope gets one more domain). The emulator's data file after that apply is the
 * live state every phase starts from, copied to a fresh emulator child (a data file in /dev/shm
 * where there is one, so its journal's fsync costs nothing).
 *
 * Rows, at --concurrency 16 and 64, each figure the median of three rounds that run every phase in
 * turn (one round when short):
 *  - `plan` (default read, run from the repository: pruning's history, the last-applied state of
 *    the changed scopes and the ancestry of the marker commits are all read from git) against a
 *    bare undici loop of the same GETs against the same emulator, and against the latency-bound
 *    limit (requests the emulator served × 20 ms ÷ concurrency);
 *  - `apply --yes` (the same plan, then one POST per changed scope) against the bare loop of
 *    those GETs, then those POSTs, and against the limit;
 *  - beside each, the same bare loop as a fresh Node process (bench/bare-loop.ts, bundled as the
 *    CLI is): the goals are against the loop in the bench's own process, whose undici code V8 has
 *    already optimized; a fresh process pays start-up and cold code as the CLI does;
 *  - and the CPU-bound floor: the CPU of the CLI's process (every thread, from a preloaded probe,
 *    ./probe.ts) and the emulator's during the phase (from /proc), spread over the machine's
 *    cores, against the bare loop's time. The emulator shares the cores with the client here;
 *    where that floor is above a goal, no client that uses that much CPU can meet it on this
 *    machine, however its requests overlap;
 * and the peak RSS of the steady-state plan at 30,000 scopes against 10,000 (600 vs 200 when
 * short; the state made the same way, at no latency), each the median of three runs.
 * Goals (issue 38): at 16 ≤ 1.2× the bare loop and ≤ 1.3× the limit; at 64 ≤ 1.5× the bare loop.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_KEY } from '../src/emulator/index.js';
import { SYNC_PATH } from '../src/service/paths.js';
import { medianPeakRss, peakRss, peakText, type PeakRss } from './memory.js';
import { probe } from './probe.js';
import { measureBare, readRequests, spawnEmulator, withServer, type Phase } from './reconcile.js';
import type { BareRequest } from './bare-loop.js';
import { bareLoopProcess } from './bare-process.js';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const LATENCY_MS = 20;
const OWNER = 'bench-team';
const GOALS = { 16: { bare: 1.2, limit: 1.3 }, 64: { bare: 1.5 } } as const;
const GOAL_GROWTH = 1.2;

/** The steady state: a repository, its commit, and the emulator's data file after the apply. */
interface Steady {
  repo: string;
  data: string;
  scopes: number;
  /** The POST bodies of the changed scopes (what apply writes), from the plan's JSON. */
  writes: BareRequest[];
}


/** What a client used: the CPU of its process (every thread), in seconds. */
interface ClientCpu {
  cpuSeconds: number;
}

/** Runs the benchmark; `--short` shrinks the sizes to check that it runs. */
export async function benchSteady(options: BenchOptions): Promise<BenchRow[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const tmp = await mkdtemp(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'autojoin-bench-steady-'));
  try {
    const steady = await makeSteady(path.join(tmp, 'main'), options.short ? 100 : 2_000);
    const rows: BenchRow[] = [];
    for (const concurrency of [16, 64] as const) rows.push(...(await reconcileRows(steady, concurrency, options.short ? 1 : ROUNDS)));
    rows.push(await memoryRow(tmp, options.short ? [200, 600] : [10_000, 30_000]));
    return rows;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

const scopeName = (n: number): string => `scope-${String(n).padStart(4, '0')}`;

/** One policy file per scope, 100 to a directory; `changed` scopes get a fourth domain. */
async function writePolicies(dir: string, scopes: number, changed: (n: number) => boolean): Promise<void> {
  for (let first = 1; first <= scopes; first += 100) {
    const sub = path.join(dir, 'policies', `group-${String((first - 1) / 100).padStart(3, '0')}`);
    await mkdir(sub, { recursive: true });
    const files = [];
    for (let n = first; n < Math.min(first + 100, scopes + 1); n++) {
      const scope = scopeName(n);
      const domains = [1, 2, 3, ...(changed(n) ? [4] : [])].map((d) => `  - d${d}.${scope}.example`).join('\n');
      files.push(writeFile(path.join(sub, `${scope}.autojoin.yaml`), `scope: ${scope}\nscopeType: team\ncomponentId: cmp-bench\ndomains:\n${domains}\n`));
    }
    await Promise.all(files);
  }
}

function git(dir: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** Builds the steady state (see the head of this file) in `repo`. */
export async function makeSteady(repo: string, scopes: number, seed: readonly string[] = []): Promise<Steady> {
  await mkdir(repo, { recursive: true });
  await writeFile(path.join(repo, 'autojoin-sync.yaml'), `owner: ${OWNER}\nsafety:\n  maxRemovals: 100000\n  maxRemovalPercent: 100\n`);
  await writePolicies(repo, scopes, () => false);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'policies');
  const data = path.join(repo, '..', `emulator-${scopes}.json`);
  await withEmulator(scopes, data, ['--latency', '0', ...seed], (url) => runCli(['apply', '--yes', '--concurrency', '64'], repo, url));
  await writePolicies(repo, scopes, (n) => n % 2 === 1);
  git(repo, 'commit', '-q', '-am', 'half the scopes change');
  const planned = await withEmulator(scopes, data, ['--latency', '0'], (url) => runCli(['plan', '--format', 'json'], repo, url));
  const changes = (JSON.parse(planned.result.stdout) as { changes: { scope: string; scopeType: string; componentId: string; after: string[] }[] }).changes;
  if (changes.length !== Math.ceil(scopes / 2)) throw new Error(`bench steady: the plan has ${changes.length} changes, expected ${Math.ceil(scopes / 2)}`);
  const writes = changes.map((change) => ({ method: 'POST' as const, path: SYNC_PATH, body: JSON.stringify({ domains: change.after, scope: change.scope, scopeType: change.scopeType, componentId: change.componentId, metadata: { 'autojoin-sync.owner': OWNER } }) }));
  return { repo, data, scopes, writes };
}

/**
 * Runs `work` against a fresh emulator child whose state is a copy of `data` (seeded when it does
 * not exist yet), timed, with the CPU of this process and of the emulator (reconcile.ts `withServer`).
 */
export async function withEmulator<T>(scopes: number, data: string, extra: string[], work: (url: string) => Promise<T>): Promise<{ result: T; phase: Phase }> {
  let file = data;
  if (existsSync(data)) {
    file = `${data}.${Date.now()}-${Math.random().toString(36).slice(2)}.json`;
    await copyFile(data, file);
  }
  try {
    return await withServer(() => spawnEmulator(scopes, ['--data', file, ...extra]), work);
  } finally {
    if (file !== data) await rm(file, { force: true });
  }
}

/**
 * Spawns the built CLI in `cwd` against `url`, with the probe (its report beside the repository,
 * in the bench's temp dir); @throws when it exits other than 0 (or 2: changes pending).
 */
export async function runCli(args: string[], cwd: string, url: string): Promise<{ stdout: string; stderr: string } & ClientCpu> {
  const probed = await probe(path.dirname(cwd));
  const env = { ...process.env, AUTOJOIN_BASE_URL: url, AUTOJOIN_API_KEY: DEFAULT_API_KEY, NO_COLOR: '1', ...probed.env };
  const child = spawn(process.execPath, [...probed.nodeArgs, CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 && code !== 2) throw new Error(`autojoin-sync ${args.join(' ')} exited ${String(code)}: ${stderr.slice(-1000)}`);
  return { stdout, stderr, cpuSeconds: (await probed.read()).cpuSeconds };
}

/**
 * Rounds of the timed phases in a full run. A round runs each phase once, in turn, so a spell of
 * load on these shared cores falls on the tool and the loops alike; each figure is the median
 * round's (one run's time moves by more than the margin a goal leaves).
 */
const ROUNDS = 3;

/** One round's phases, each on a fresh copy of the state. */
interface Round {
  plan: CliRun & { result: { stderr: string } };
  barePlan: Phase;
  freshPlan: CliRun;
  apply: CliRun;
  bareApply: Phase;
  freshApply: CliRun;
}

/** The plan and apply rows at one concurrency: the CLI, the bare loop of its requests and the same loop as a fresh process, `rounds` times. */
async function reconcileRows(steady: Steady, concurrency: 16 | 64, rounds: number): Promise<BenchRow[]> {
  const { repo, data, scopes } = steady;
  const flags = ['--concurrency', String(concurrency)];
  const emulator = <T>(work: (url: string) => Promise<T>) => withEmulator(scopes, data, ['--latency', String(LATENCY_MS)], work);
  // The same loops as a fresh Node process: what starting and running undici cold costs any client.
  const freshReads = await bareLoopProcess([readRequests(scopes)], concurrency, DEFAULT_API_KEY);
  const freshWrites = await bareLoopProcess([readRequests(scopes), steady.writes], concurrency, DEFAULT_API_KEY);
  const done: Round[] = [];
  for (let round = 0; round < rounds; round++) {
    done.push({
      plan: await emulator((url) => runCli(['plan', ...flags], repo, url)),
      barePlan: (await emulator((url) => measureBare(url, readRequests(scopes), concurrency))).phase,
      freshPlan: await emulator((url) => freshReads.run(url)),
      apply: await emulator((url) => runCli(['apply', '--yes', ...flags], repo, url)),
      bareApply: (
        await emulator(async (url) => {
          await measureBare(url, readRequests(scopes), concurrency);
          await measureBare(url, steady.writes, concurrency);
        })
      ).phase,
      freshApply: await emulator((url) => freshWrites.run(url)),
    });
  }
  const median = <T>(of: (round: Round) => T, seconds: (value: T) => number): T => medianBy(done.map(of), seconds);
  const cli = (of: (round: Round) => CliRun) => ({ run: median(of, (run) => run.phase.seconds), all: done.map((round) => of(round).phase.seconds) });
  const bare = (warm: (round: Round) => Phase, fresh: (round: Round) => CliRun) => ({ warm: median(warm, (phase) => phase.seconds), fresh: median(fresh, (run) => run.phase.seconds) });
  const warnings = (done[0] as Round).plan.result.stderr.split('\n').filter((line) => /warning/iu.test(line)).length;
  const size = `${scopes.toLocaleString('en')} scopes, half changed since the last apply`;
  return [
    row(`steady state: plan of ${size} (whole CLI, from the repository) @ ${LATENCY_MS} ms, --concurrency ${concurrency}`, cli((round) => round.plan), bare((round) => round.barePlan, (round) => round.freshPlan), concurrency, `; ${warnings} warning lines on stderr`),
    row(`steady state: apply --yes of ${size} (whole CLI: plan, then ${steady.writes.length.toLocaleString('en')} POSTs) @ ${LATENCY_MS} ms, --concurrency ${concurrency}`, cli((round) => round.apply), bare((round) => round.bareApply, (round) => round.freshApply), concurrency, ''),
  ];
}

/** @returns the median of `values` by `key` (the lower middle one of an even count) */
function medianBy<T>(values: readonly T[], key: (value: T) => number): T {
  const sorted = [...values].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

/** A spawned client's run against a fresh emulator (the CLI's, or the fresh bare loop's): the phase, and the CPU of its process. */
interface CliRun {
  result: ClientCpu;
  phase: Phase;
}

/**
 * The goal is against the bare loop in this process (`warm`); the same loop as a fresh process
 * (`fresh`) is shown beside it, since the CLI is one: it starts Node and runs undici's code cold.
 * Each is its median round, and the CLI's CPU that of its median run.
 */
function row(name: string, tool: { run: CliRun; all: number[] }, bare: { warm: Phase; fresh: CliRun }, concurrency: 16 | 64, extra: string): BenchRow {
  const { phase } = tool.run;
  const limit = (phase.served * LATENCY_MS) / 1000 / concurrency;
  const toLimit = phase.seconds / limit;
  const toBare = phase.seconds / bare.warm.seconds;
  const toFresh = phase.seconds / bare.fresh.phase.seconds;
  const goal: { bare: number; limit?: number } = GOALS[concurrency];
  const runs = tool.all.length > 1 ? `median of ${tool.all.length} runs: ${tool.all.map((seconds) => seconds.toFixed(2)).join(', ')} s; ` : '';
  return {
    name,
    value: `${phase.seconds.toFixed(2)} s (${runs}${phase.served.toLocaleString('en')} requests served)`,
    comparison:
      `${toBare.toFixed(2)}× a bare undici loop of the same ${bare.warm.served.toLocaleString('en')} requests at ${concurrency} in flight (${bare.warm.seconds.toFixed(2)} s, in the bench's process); ` +
      `${toFresh.toFixed(2)}× the same loop as a fresh Node process (${bare.fresh.phase.seconds.toFixed(2)} s, ${bare.fresh.result.cpuSeconds.toFixed(2)} s of CPU); ` +
      `${toLimit.toFixed(2)}× the latency-bound limit (${phase.served.toLocaleString('en')} × ${LATENCY_MS} ms ÷ ${concurrency} = ${limit.toFixed(2)} s); start-up, file discovery and git included${extra}` +
      cpuText(tool.run, bare.warm),
    goal: `≤ ${goal.bare}× the bare loop` + (goal.limit === undefined ? '' : ` and ≤ ${goal.limit}× the limit`),
    met: toBare <= goal.bare && (goal.limit === undefined || toLimit <= goal.limit),
  };
}

/**
 * The CPU-bound floor: the CLI and the emulator share this machine's cores, so the run cannot take
 * less than their CPU spread over all the cores (empty where the emulator's CPU was not read).
 */
function cpuText(tool: CliRun, bare: Phase): string {
  const emulator = tool.phase.cpu?.server;
  if (emulator === undefined || bare.cpu === undefined) return '';
  const cores = os.availableParallelism();
  const floor = (tool.result.cpuSeconds + emulator) / cores;
  const s = (seconds: number): string => `${seconds.toFixed(2)} s`;
  return (
    `; CPU: the CLI ${s(tool.result.cpuSeconds)} + the emulator ${s(emulator)} over ${cores} cores, so at least ${s(floor)}, ` +
    `${(floor / bare.seconds).toFixed(2)}× the bare loop (its CPU: ${s(bare.cpu.client)} + the emulator ${s(bare.cpu.server)})`
  );
}

/** Peak RSS of the steady-state plan (spawned CLI, its own VmHWM) at `large` scopes against `small`. */
async function memoryRow(tmp: string, [small, large]: [number, number]): Promise<BenchRow> {
  const peak = async (scopes: number): Promise<PeakRss> => {
    // No ordinary invitations (the default read never lists them): 30 a scope would not fit one JSON data file at 30,000.
    const steady = await makeSteady(path.join(tmp, `rss-${scopes}`), scopes, ['--seed-invitations', '0']);
    const { result } = await withEmulator(scopes, steady.data, ['--latency', '0'], (url) =>
      medianPeakRss(() => peakRss(tmp, [CLI, '-C', steady.repo, 'plan'], { AUTOJOIN_BASE_URL: url, AUTOJOIN_API_KEY: DEFAULT_API_KEY })),
    );
    await rm(steady.repo, { recursive: true, force: true });
    return result;
  };
  const smallRss = await peak(small);
  const largeRss = await peak(large);
  const ratio = largeRss.median / smallRss.median;
  return {
    name: `steady state: plan of ${large.toLocaleString('en')} scopes, half changed since the last apply: peak RSS`,
    value: peakText(largeRss),
    comparison: `${ratio.toFixed(2)}× the same plan of ${small.toLocaleString('en')} scopes at ${peakText(smallRss)}; 3× the scopes; medians`,
    goal: `≤ ${GOAL_GROWTH}× the ${small.toLocaleString('en')}-scope plan`,
    met: ratio <= GOAL_GROWTH,
  };
}
