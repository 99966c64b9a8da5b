/**
 * Many projects, one run (design: "Many projects, one run"): `plan` of 2,000 scopes split over 20
 * projects (a project file per folder of 100) against the same 2,000 scopes under one project
 * file, both whole CLI processes at 20 ms a request against the emulator, alternating: planning
 * each project under its own context over the one client and pacer must cost about what one
 * project costs (goal ≤ 1.1×).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_KEY } from '../src/emulator/index.js';
import { median } from './startup.js';
import { spawnEmulator, writePolicies } from './reconcile.js';
import { alternate, seconds } from './shard.js';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const GOAL = 1.1;

/** One row; `--short` shrinks the size to check that it runs. */
export async function benchProjects(options: BenchOptions): Promise<BenchRow[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const scopes = options.short ? 200 : 2_000;
  const runs = options.short ? 1 : 3;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-projects-'));
  const server = await spawnEmulator(scopes, []);
  try {
    const many = path.join(dir, 'many');
    const one = path.join(dir, 'one');
    for (const repo of [many, one]) {
      await writePolicies(await made(repo), scopes);
      git(repo, 'init', '-q');
    }
    await writeFile(path.join(one, 'autojoin-sync.yaml'), 'owner: bench\n');
    const groups = (await readdir(many)).filter((name) => name.startsWith('group-'));
    await Promise.all(groups.map((group) => writeFile(path.join(many, group, 'autojoin-sync.yaml'), `owner: ${group}\n`)));
    const env = { AUTOJOIN_BASE_URL: server.url, AUTOJOIN_API_KEY: DEFAULT_API_KEY };
    const times = alternate({ many: [CLI, '-C', many, 'plan', '--no-prune', '--quiet'], one: [CLI, '-C', one, 'plan', '--no-prune', '--quiet'] }, runs, { cwd: dir, env });
    const ratio = median(times.many) / median(times.one);
    return [
      {
        name: `plan of ${scopes.toLocaleString('en')} scopes over ${groups.length} projects @ 20 ms, whole CLI (${runs} runs)`,
        value: `median ${seconds(median(times.many))}`,
        comparison: `${ratio.toFixed(2)}× the same scopes under one project file (median ${seconds(median(times.one))})`,
        goal: `≤ ${GOAL}× one project`,
        met: ratio <= GOAL,
      },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

async function made(dir: string): Promise<string> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  return dir;
}

function git(dir: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd: dir, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${dir}`);
}
