/**
 * `--prune` history read: a generated repository of 10,000 commits over 1,000 policy files
 * (built in a second with `git fast-import`), read by readReplacedPolicySources and folded by
 * prunedFromHistory, against a naive reader measured in the same run (one `git ls-tree` per
 * commit, timed on a sample and scaled to the whole history).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readReplacedPolicySources } from '../src/reconcile/history.js';
import { prunedFromHistory } from '../src/reconcile/prune.js';
import type { BenchRow } from './types.js';

const COMMITS = 10_000;
const FILES = 1_000;
/** Every DELETE_EVERY-th commit deletes a file instead of editing one (a later edit re-adds it). */
const DELETE_EVERY = 97;
const NAIVE_SAMPLE = 200;

/** Runs the benchmark and returns its rows for the `npm run bench` table. */

export async function benchHistory(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-history-'));
  try {
    const built = performance.now();
    const declared = buildRepository(dir);
    const buildSeconds = (performance.now() - built) / 1000;

    const started = performance.now();
    const sources = await readReplacedPolicySources(['policies'], dir);
    const readSeconds = (performance.now() - started) / 1000;
    const pruned = prunedFromHistory(sources, declared, {});
    const seconds = (performance.now() - started) / 1000;
    if (pruned.length === 0 || pruned.some((policy) => declared.has(policy.key))) throw new Error(`bench history pruned ${pruned.length} scopes`);

    const naiveSeconds = measureNaive(dir);
    return [
      {
        name: `--prune history read: ${COMMITS.toLocaleString('en')} commits × ${FILES.toLocaleString('en')} policy files`,
        value: `${seconds.toFixed(2)} s (git ${readSeconds.toFixed(2)} s, ${sources.length.toLocaleString('en')} replaced file versions read; ${pruned.length} scopes to clear)`,
        comparison:
          `${(naiveSeconds / seconds).toFixed(0)}× faster than one \`git ls-tree\` per commit (${naiveSeconds.toFixed(1)} s, scaled from ${NAIVE_SAMPLE} commits); ` +
          `repository built by git fast-import in ${buildSeconds.toFixed(1)} s`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Writes the repository with one `git fast-import`: commit 1 adds FILES policy files, every
 * later commit edits one file's domains or deletes one file.
 * @returns the scope keys the files declare at HEAD
 */
function buildRepository(dir: string): Set<string> {
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const live = new Set<number>();
  const parts: string[] = [];
  for (let commit = 1; commit <= COMMITS; commit++) {
    const changes: string[] = [];
    if (commit === 1) {
      for (let file = 0; file < FILES; file++) {
        changes.push(modify(file, commit));
        live.add(file);
      }
    } else if (commit % DELETE_EVERY === 0) {
      const file = commit % FILES;
      changes.push(`D ${fileName(file)}\n`);
      live.delete(file);
    } else {
      const file = (commit * 7) % FILES;
      changes.push(modify(file, commit));
      live.add(file);
    }
    parts.push(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${1_700_000_000 + commit * 60} +0000\n${data(`change ${commit}`)}${changes.join('')}\n`);
  }
  const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, input: parts.join(''), maxBuffer: 1 << 30 });
  if (imported.status !== 0) throw new Error(`git fast-import failed: ${imported.stderr.toString()}`);
  execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
  return new Set([...live].map((file) => `team/team-${file}`));
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

/** One `git ls-tree` per commit (what a per-commit reader spawns at least), timed on a sample. */
function measureNaive(dir: string): number {
  const commits = execFileSync('git', ['rev-list', `--max-count=${NAIVE_SAMPLE}`, 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
  const started = performance.now();
  for (const commit of commits) execFileSync('git', ['ls-tree', '-r', commit, '--', 'policies'], { cwd: dir, maxBuffer: 1 << 26 });
  return ((performance.now() - started) / 1000) * (COMMITS / commits.length);
}
