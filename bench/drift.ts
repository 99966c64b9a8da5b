/**
 * Drift's cost: a plan of 2,000 marked scopes at 20 ms a request where 10 % drifted (half changed
 * outside only, half also edited in the files: conflicts, whose state last applied comes from git)
 * against the same plan with no drift, in one run. The emulator runs in this process with its
 * latency; the scopes are marked by a real apply from a real git repository first.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { applyPlan, makePlan } from '../src/reconcile/index.js';
import { createClient } from '../src/service/client.js';
import { DEFAULT_API_KEY, emptyData, startEmulator, type Emulator } from '../src/emulator/index.js';
import type { Plan } from '../src/plan/types.js';
import type { BenchOptions, BenchRow } from './types.js';
import { settingsIn } from '../src/run/settings.js';

const LATENCY_MS = 20;
const CONCURRENCY = 16;
const ROUNDS = 3;

/** Runs the benchmark and returns its row for the `npm run bench` table. */
export async function benchDrift(options: BenchOptions): Promise<BenchRow[]> {
  const scopes = options.short ? 100 : 2_000;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-drift-'));
  const emulator = await startEmulator({ port: 0, data: emptyData(), latencyMs: LATENCY_MS });
  try {
    await writePolicies(dir, scopes, () => false);
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'policies');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    await run(emulator, dir, (plan) => applyPlan({ client: plan.client, plan: plan.plan, settings: settingsIn(dir, { flags: { concurrency: CONCURRENCY } }), commit: head }));
    const clean = await medianPlan(emulator, dir, 0);
    const drifted = Math.round(scopes / 10);
    await driftOutside(emulator, drifted);
    await writePolicies(dir, scopes, (n) => n <= drifted / 2); // half of them edited here too: conflicts
    const withDrift = await medianPlan(emulator, dir, drifted);
    const ratio = withDrift / clean;
    return [
      {
        name: `plan ${scopes.toLocaleString('en')} marked scopes @ ${LATENCY_MS} ms, 10 % drifted (half of them conflicts, read from git)`,
        value: `${withDrift.toFixed(2)} s`,
        comparison: `${ratio.toFixed(2)}× the same plan without drift (${clean.toFixed(2)} s)`,
        goal: '≤ 1.1× without drift',
        met: ratio <= 1.1,
      },
    ];
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function medianPlan(emulator: Emulator, dir: string, expected: number): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const plan = await run(emulator, dir, ({ plan }) => Promise.resolve(plan));
    times.push((performance.now() - started) / 1000);
    const moved = plan.changes.filter((change) => change.origin !== undefined).length;
    if (moved !== expected) throw new Error(`bench drift: ${moved} scopes changed outside, expected ${expected}`);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
}

async function run<T>(emulator: Emulator, dir: string, work: (made: { plan: Plan; client: ReturnType<typeof createClient> }) => Promise<T>): Promise<T> {
  const client = createClient({ baseUrl: emulator.url, apiKey: DEFAULT_API_KEY, connections: CONCURRENCY });
  try {
    const { plan } = await makePlan({ settings: settingsIn(dir, { flags: { concurrency: CONCURRENCY, read: 'autojoin', prune: false } }), client });
    if (!plan) throw new Error('bench drift: no plan');
    return await work({ plan, client });
  } finally {
    await client.close();
  }
}

/** An admin's edit of the first `count` scopes: one domain swapped, posted without metadata (the marker stays). */
async function driftOutside(emulator: Emulator, count: number): Promise<void> {
  for (let n = 1; n <= count; n++) {
    const scope = scopeName(n);
    const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': DEFAULT_API_KEY },
      body: JSON.stringify({ domains: [`d1.${scope}.example`, `partner.${scope}.example`], scope, scopeType: 'team', componentId: 'cmp-bench' }),
    });
    if (!response.ok) throw new Error(`bench drift: POST ${scope} answered ${response.status}`);
  }
}

const scopeName = (n: number): string => `scope-${String(n).padStart(4, '0')}`;

async function writePolicies(dir: string, scopes: number, edited: (n: number) => boolean): Promise<void> {
  await mkdir(path.join(dir, 'policies'), { recursive: true });
  await Promise.all(
    Array.from({ length: scopes }, (_, i) => {
      const scope = scopeName(i + 1);
      const extra = edited(i + 1) ? [`d9.${scope}.example`] : [];
      const domains = [`d1.${scope}.example`, `d2.${scope}.example`, ...extra].map((domain) => `  - ${domain}`).join('\n');
      return writeFile(path.join(dir, 'policies', `${scope}.autojoin.yaml`), `scope: ${scope}\nscopeType: team\ncomponentId: cmp-bench\ndomains:\n${domains}\n`);
    }),
  );
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
}
