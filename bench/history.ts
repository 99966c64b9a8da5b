/**
 * Pruning's history read, two figures:
 *  - time: a generated repository of 10,000 commits over 1,000 policy files (built in a second
 *    with `git fast-import`), read from git down to the scopes to clear with the whole history
 *    (every commit, every side of every merge), against a copy of the old simplified read
 *    (bench/history-old.ts) in the same run; each timed as the best of three, alternating;
 *  - memory: peak RSS of the built CLI's `plan` (pruning on) over a history holding 50 versions
 *    of a 90 MB policy file, measured on the CLI process itself (memory.ts's probe).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyData, startEmulator } from '../src/emulator/index.js';
import { openRepository } from '../src/git/repository.js';
import { readReplacedVersions } from '../src/history/walk.js';
import { historyPaths } from '../src/history/policy-tree.js';
import { pastScopeReader } from '../src/history/versions.js';
import { prunedFromHistory, readReplacedPolicySources } from './history-old.js';
import { peakRss } from './memory.js';
import { childrenCpuSeconds } from './probe.js';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** Every DELETE_EVERY-th commit deletes a file instead of editing one (a later edit re-adds it). */
const DELETE_EVERY = 97;
const GOAL_SECONDS = 1.5;
const GOAL_RATIO = 1.3;
const GOAL_RSS = 150e6;
/** Timed rounds of each read (the best counts): the machine is shared. */
const ROUNDS = 5;

/** Runs the benchmark and returns its rows for the `npm run bench` table. */
export async function benchHistory(options: BenchOptions): Promise<BenchRow[]> {
  return [await benchHistoryTime(options), await benchHistoryMemory(options)];
}

async function benchHistoryTime(options: BenchOptions): Promise<BenchRow> {
  const [commits, files] = options.short ? [500, 100] : [10_000, 1_000];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-history-'));
  try {
    const declared = buildRepository(dir, commits, files);
    const full = { seconds: Infinity, cpu: Infinity, scopes: 0, versions: 0 };
    const old = { seconds: Infinity, cpu: Infinity, scopes: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const whole = await measured(() => readWhole(dir, declared));
      Object.assign(full, whole.result, { seconds: Math.min(full.seconds, whole.seconds), cpu: Math.min(full.cpu, whole.cpu) });
      const simplified = await measured(async () => prunedFromHistory(await readReplacedPolicySources(['policies'], dir), declared, {}).length);
      Object.assign(old, { scopes: simplified.result, seconds: Math.min(old.seconds, simplified.seconds), cpu: Math.min(old.cpu, simplified.cpu) });
    }
    if (full.scopes === 0 || full.scopes !== old.scopes) throw new Error(`bench history: whole history found ${full.scopes} scopes, the old read ${old.scopes}`);
    const ratio = full.seconds / old.seconds;
    return {
      name: `pruning's history read: ${commits.toLocaleString('en')} commits × ${files.toLocaleString('en')} policy files, whole history`,
      value: `${full.seconds.toFixed(2)} s (${full.versions.toLocaleString('en')} replaced versions; ${full.scopes} scopes to clear)`,
      comparison:
        `${ratio.toFixed(2)}× the old simplified read (\`git log -- PATHS\`, ${old.seconds.toFixed(2)} s), best of ${ROUNDS} each, alternating; ` +
        `CPU (this process and its git processes): ${full.cpu.toFixed(2)} s, ${(full.cpu / old.cpu).toFixed(2)}× the old read's ${old.cpu.toFixed(2)} s`,
      goal: `≤ ${GOAL_SECONDS} s and ≤ ${GOAL_RATIO}× the simplified read`,
      met: full.seconds <= GOAL_SECONDS && ratio <= GOAL_RATIO,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `work`, timing it and the CPU it used: this process's and that of the child processes it waited for (git). */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; cpu: number }> {
  const cpuBefore = process.cpuUsage();
  const childrenBefore = childrenCpuSeconds();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(cpuBefore);
  return { result, seconds, cpu: (own.user + own.system) / 1e6 + (childrenCpuSeconds() - childrenBefore) };
}

/** What pruning reads, from git to the scopes to clear. */
async function readWhole(dir: string, declared: ReadonlySet<string>): Promise<{ scopes: number; versions: number }> {
  const repository = await openRepository(['policies'], dir, 'bench');
  const paths = repository && historyPaths(repository, ['policies']);
  if (!repository || !paths) throw new Error('bench history: no repository');
  const reader = pastScopeReader(repository, { secrets: [], isDeclared: (key) => declared.has(key), context: 'bench' });
  let versions = 0;
  await readReplacedVersions(repository, paths, (version) => {
    versions++;
    reader.add(version);
  });
  return { scopes: (await reader.finish()).scopes.size, versions };
}

/**
 * Writes the repository with one `git fast-import`: commit 1 adds the policy files, every later
 * commit edits one file's domains or deletes one file.
 * @returns the scope keys the files declare at HEAD
 */
function buildRepository(dir: string, commits: number, files: number): Set<string> {
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const live = new Set<number>();
  const parts: string[] = [];
  for (let commit = 1; commit <= commits; commit++) {
    const changes: string[] = [];
    if (commit === 1) {
      for (let file = 0; file < files; file++) {
        changes.push(modify(file, commit));
        live.add(file);
      }
    } else if (commit % DELETE_EVERY === 0) {
      const file = commit % files;
      changes.push(`D ${fileName(file)}\n`);
      live.delete(file);
    } else {
      const file = (commit * 7) % files;
      changes.push(modify(file, commit));
      live.add(file);
    }
    parts.push(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${1_700_000_000 + commit * 60} +0000\n${data(`change ${commit}`)}${changes.join('')}\n`);
  }
  fastImport(dir, parts.join(''));
  return new Set([...live].map((file) => `team/team-${file}`));
}

function fastImport(dir: string, stream: string): void {
  const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream, maxBuffer: 1 << 30 });
  if (imported.status !== 0) throw new Error(`git fast-import failed: ${imported.stderr.toString()}`);
  checkOut(dir);
}

/** HEAD on main, and its files in the working tree (what "declared now" reads). */
function checkOut(dir: string): void {
  execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: dir });
}

/** `git fast-import` fed piece by piece (gigabytes never held at once), fast zlib level for the large blobs. */
async function fastImportStream(dir: string, pieces: Iterable<Buffer>): Promise<void> {
  const child = spawn('git', ['-c', 'core.compression=1', '-c', 'pack.compression=1', 'fast-import', '--quiet'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  for (const piece of pieces) {
    if (!child.stdin.write(piece)) await once(child.stdin, 'drain');
  }
  child.stdin.end();
  if ((await closed) !== 0) throw new Error(`git fast-import failed: ${stderr}`);
  checkOut(dir);
}

function fileName(file: number): string {
  return `policies/group-${file % 10}/team-${file}.autojoin.yaml`;
}

function modify(file: number, commit: number): string {
  const text = `scope: team-${file}\nscopeType: team\ncomponentId: cmp_${file % 17}\ndomains:\n  - company-${file}.com\n  - rev-${commit}.company-${file}.com\n`;
  return `M 100644 inline ${fileName(file)}\n${data(text)}`;
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/**
 * Peak RSS of `plan` (pruning on, the default) in a repository whose one policy file had 50
 * versions of 90 MB (3 MB when short) before its last, ordinary one.
 */
async function benchHistoryMemory(options: BenchOptions): Promise<BenchRow> {
  const [versions, bytes] = [50, options.short ? 3e6 : 90e6];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-history-rss-'));
  const emulator = await startEmulator({ port: 0, data: emptyData() });
  try {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    await fastImportStream(dir, largeVersions(versions, bytes));
    await writeFile(path.join(dir, 'autojoin-sync.yaml'), 'defaults:\n  componentId: cmp_bench\n');
    const peak = await peakRss(dir, [CLI, 'plan', 'policies'], { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: emulator.apiKey });
    const mib = (value: number): string => `${(value / 2 ** 20).toFixed(0)} MiB`;
    return {
      name: `plan (pruning on) over a history of ${versions} versions × ${(bytes / 1e6).toFixed(0)} MB of one policy file: peak RSS`,
      value: mib(peak),
      comparison: `${((versions * bytes) / 2 ** 30).toFixed(1)} GiB of versions in history, none read (each over the 1 MiB cap)`,
      goal: `≤ 150 MB (${mib(GOAL_RSS)})`,
      met: peak <= GOAL_RSS,
    };
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A fast-import stream, piece by piece: `versions` commits of one large policy file, then an ordinary one. */
function* largeVersions(versions: number, bytes: number): Generator<Buffer> {
  const filler = Buffer.alloc(bytes, '  - filler.example\n');
  for (let version = 0; version <= versions; version++) {
    const head = Buffer.from(`scope: big\nscopeType: team\n# version ${version}\ndomains:\n`);
    const last = Buffer.from('scope: big\nscopeType: team\ndomains: [big.example]\n');
    const size = version < versions ? head.length + filler.length : last.length;
    yield Buffer.from(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${1_700_000_000 + version * 60} +0000\ndata 7\nversion\nM 100644 inline policies/big.autojoin.yaml\ndata ${size}\n`);
    if (version < versions) yield* [head, filler];
    else yield last;
    yield Buffer.from('\n');
  }
}
