/**
 * Sharded runs (`plan --shard K/N`, `merge-plans`), as whole CLI processes, each beside its
 * comparison in the same run:
 *  - merging 4 parts of 20,000 scopes against reading one plan of 20,000 scopes (`show`): the
 *    fan-in must cost about what reading the plan costs (goal ≤ 1.5×);
 *  - one shard's plan (1/4) against a quarter of the unsharded plan's time, both at 20 ms a
 *    request against the emulator (goal ≤ 1.2×): a shard still loads every policy file to hash
 *    its scopes, but reads only its quarter of the live state.
 * Runs alternate between the two commands so background load hits both alike.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planBuilder } from '../src/plan/plan-builder.js';
import { serializePlan } from '../src/plan/encode.js';
import type { Plan } from '../src/plan/types.js';
import type { Policy } from '../src/policy/types.js';
import type { LiveScope } from '../src/service/types.js';
import { DEFAULT_API_KEY } from '../src/emulator/index.js';
import { median } from './startup.js';
import { spawnEmulator, writePolicies } from './reconcile.js';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const TARGET = 'https://invitations.example.com';
const GOAL_MERGE = 1.5;
const GOAL_SHARD = 1.2;

/** Runs both rows; `--short` shrinks the sizes to check that they run. */
export async function benchShard(options: BenchOptions): Promise<BenchRow[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-shard-'));
  try {
    return [await mergeRow(dir, options.short ? 400 : 20_000, options.short ? 1 : 5), await shardPlanRow(dir, options.short ? 100 : 2_000, options.short ? 1 : 3)];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** 4 part files and the whole plan, made by the production plan builder from synthetic live state (one scope in ten changes). */
async function writePlans(dir: string, scopes: number): Promise<void> {
  const builders = [0, 1, 2, 3, 4].map((index) => planBuilder({ target: TARGET, shard: index === 0 ? undefined : { index, total: 4 } }));
  for (let n = 0; n < scopes; n++) {
    const key = `team/scope-${n}` as const;
    const domains = [`a.scope-${n}.example`, `b.scope-${n}.example`];
    const policy: Policy = { key, scope: `scope-${n}`, scopeType: 'team', componentId: 'cmp-bench', domains: n % 10 === 0 ? [...domains, `c.scope-${n}.example`] : domains, source: { file: `p/${n}.autojoin.yaml`, line: 1, column: 1 }, explicitEmpty: false };
    const live: LiveScope = { key, scope: `scope-${n}`, scopeType: 'team', domains, autojoin: { invitationId: `inv-${n}`, status: 'sent', acceptsCount: 0 }, metadata: { 'autojoin-sync.owner': 'default' } };
    for (const builder of builders) builder.add(policy, live);
  }
  const plans: Plan[] = builders.map((builder) => builder.finish());
  await Promise.all(plans.map((plan, index) => writeFile(path.join(dir, index === 0 ? 'whole.json' : `part-${index}.json`), serializePlan(plan))));
}

async function mergeRow(dir: string, scopes: number, runs: number): Promise<BenchRow> {
  await writePlans(dir, scopes);
  const commands = {
    merge: [CLI, 'merge-plans', 'part-1.json', 'part-2.json', 'part-3.json', 'part-4.json', '--out', 'merged.json', '--format', 'json'],
    show: [CLI, 'show', 'whole.json', '--format', 'json'],
  };
  const times = alternate(commands, runs, { cwd: dir });
  const ratio = median(times.merge) / median(times.show);
  return {
    name: `merge-plans of 4 parts, ${scopes.toLocaleString('en')} scopes in all (${runs} runs)`,
    value: `median ${seconds(median(times.merge))}`,
    comparison: `${ratio.toFixed(2)}× \`show\` of one plan of ${scopes.toLocaleString('en')} scopes (median ${seconds(median(times.show))})`,
    goal: `≤ ${GOAL_MERGE}× show`,
    met: ratio <= GOAL_MERGE,
  };
}

async function shardPlanRow(dir: string, scopes: number, runs: number): Promise<BenchRow> {
  const policies = path.join(dir, 'policies');
  await mkdir(policies);
  await writePolicies(policies, scopes);
  const server = await spawnEmulator(scopes, []);
  try {
    const env = { AUTOJOIN_BASE_URL: server.url, AUTOJOIN_API_KEY: DEFAULT_API_KEY };
    const commands = { shard: [CLI, 'plan', '--shard', '1/4', '--no-prune', '--quiet', policies], whole: [CLI, 'plan', '--no-prune', '--quiet', policies] };
    const times = alternate(commands, runs, { cwd: dir, env });
    const ratio = median(times.shard) / (median(times.whole) / 4);
    return {
      name: `plan --shard 1/4 of ${scopes.toLocaleString('en')} scopes @ 20 ms, whole CLI (${runs} runs)`,
      value: `median ${seconds(median(times.shard))}`,
      comparison: `${ratio.toFixed(2)}× a quarter of the unsharded plan (median ${seconds(median(times.whole))} for all ${scopes.toLocaleString('en')})`,
      goal: `≤ ${GOAL_SHARD}× a quarter`,
      met: ratio <= GOAL_SHARD,
    };
  } finally {
    server.child.kill('SIGTERM');
  }
}

/** @returns each command's wall times in milliseconds over `runs` alternating runs, after one warm-up each. */
export function alternate<K extends string>(commands: Record<K, string[]>, runs: number, options: { cwd: string; env?: Record<string, string> }): Record<K, number[]> {
  const names = Object.keys(commands) as K[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let run = -1; run < runs; run++) {
    for (const name of names) {
      const elapsed = timeNode(commands[name], options);
      if (run >= 0) times[name].push(elapsed);
    }
  }
  return times;
}

function timeNode(args: string[], options: { cwd: string; env?: Record<string, string> }): number {
  const env = { ...process.env, ...options.env };
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: options.cwd, env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.slice(1).join(' ')} exited ${String(result.status)}: ${String(result.stderr).slice(0, 500)}`);
  return elapsed;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
