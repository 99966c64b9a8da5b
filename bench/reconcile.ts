/**
 * Reconcile throughput: plan and apply over 2,000 scopes (30 ordinary invitations + the
 * autojoin one each, so two listing pages per scope) against the emulator answering every
 * request after 20 ms, through the same core the CLI and the action call (makePlan, applyPlan).
 *
 * Each figure stands beside two comparisons measured in this run: a naive sequential client
 * (a plain `fetch` loop doing the identical requests, timed on a 200-scope subset and scaled
 * linearly, since at ~20 ms a request the full naive run would take minutes), and the
 * latency-bound limit, requests × latency ÷ concurrency, which no client at that concurrency
 * can beat. The emulator runs in a child process (the built CLI), so the RSS measured here is
 * the reconciler's process alone and the two do not share an event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyPlan, makePlan } from '../src/reconcile/index.js';
import { syncRequest } from '../src/apply/apply.js';
import { createClient } from '../src/service/client.js';
import { DEFAULT_API_KEY } from '../src/emulator/index.js';
import type { Plan } from '../src/plan/types.js';
import type { BenchRow } from './types.js';

const SCOPES = 2_000;
const INVITATIONS_PER_SCOPE = 30;
const DOMAINS_PER_SCOPE = 2;
const LATENCY_MS = 20;
const CONCURRENCY = 16;
const NAIVE_SUBSET = 200;
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Measured {
  seconds: number;
  requests: number;
  peakRssMiB: number;
  /** RSS when the phase started (modules, earlier benches). */
  baselineRssMiB: number;
}

/** Runs the benchmark and returns its rows for the `npm run bench` table. */
export async function benchReconcile(): Promise<BenchRow[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing; run \`npm run bench\` (it builds dist/ first)`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-reconcile-'));
  const emulator = await spawnEmulator();
  try {
    await writePolicies(dir);
    const { plan, measured: planned } = await measurePlan(emulator.url, dir);
    const applied = await measureApply(emulator.url, plan);
    const naive = await measureNaive(emulator.url, plan);
    const scale = SCOPES / NAIVE_SUBSET;
    return [
      row(`plan ${SCOPES.toLocaleString('en')} scopes × ${INVITATIONS_PER_SCOPE + 1} invitations @ ${LATENCY_MS} ms`, planned, naive.planSeconds * scale),
      row(`apply ${plan.changes.length.toLocaleString('en')} scopes (one POST each) @ ${LATENCY_MS} ms`, applied, naive.applySeconds * scale),
    ];
  } finally {
    emulator.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

function row(name: string, measured: Measured, naiveSeconds: number): BenchRow {
  const limit = (measured.requests * LATENCY_MS) / 1000 / CONCURRENCY;
  return {
    name,
    value:
      `${measured.seconds.toFixed(2)} s · ${Math.round(measured.requests / measured.seconds).toLocaleString('en')} req/s ` +
      `(${measured.requests.toLocaleString('en')} requests) · peak RSS ${measured.peakRssMiB.toFixed(0)} MiB ` +
      `(${measured.baselineRssMiB.toFixed(0)} MiB before the phase)`,
    comparison:
      `${(naiveSeconds / measured.seconds).toFixed(1)}× faster than naive sequential ` +
      `(${naiveSeconds.toFixed(1)} s: ${NAIVE_SUBSET} scopes timed, scaled ×${SCOPES / NAIVE_SUBSET}); ` +
      `${(measured.seconds / limit).toFixed(2)}× the latency-bound limit ` +
      `(${measured.requests.toLocaleString('en')} × ${LATENCY_MS} ms ÷ ${CONCURRENCY} = ${limit.toFixed(2)} s)`,
  };
}

async function measurePlan(baseUrl: string, cwd: string): Promise<{ plan: Plan; measured: Measured }> {
  const client = createClient({ baseUrl, apiKey: DEFAULT_API_KEY, connections: CONCURRENCY });
  try {
    let plan: Plan | null = null;
    const measured = await measure(async () => {
      const result = await makePlan({ paths: ['.'], cwd, client, project: {}, concurrency: CONCURRENCY });
      plan = result.plan;
    }, () => client.requestCount);
    const made = plan as Plan | null;
    if (!made || made.changes.length !== SCOPES) throw new Error(`bench plan has ${made?.changes.length ?? 'no'} changes, expected ${SCOPES}`);
    return { plan: made, measured };
  } finally {
    await client.close();
  }
}

async function measureApply(baseUrl: string, plan: Plan): Promise<Measured> {
  const client = createClient({ baseUrl, apiKey: DEFAULT_API_KEY, connections: CONCURRENCY });
  try {
    return await measure(async () => {
      const report = await applyPlan({ client, plan, limits: {}, concurrency: CONCURRENCY });
      if (report.failed.length > 0) throw new Error(`bench apply failed for ${report.failed.length} scopes: ${report.failed[0]?.reason}`);
    }, () => client.requestCount);
  } finally {
    await client.close();
  }
}

/** Times `work`, sampling this process's RSS every 20 ms for the phase's peak. */
async function measure(work: () => Promise<void>, requests: () => number): Promise<Measured> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, process.memoryUsage.rss());
  return { seconds, requests: requests(), peakRssMiB: peak / 2 ** 20, baselineRssMiB: baseline / 2 ** 20 };
}

/**
 * The naive client: one request at a time with plain fetch, the same listing walk
 * (start 0, 19, 39, … until a short page) and the same POST bodies, for the first scopes.
 */
async function measureNaive(baseUrl: string, plan: Plan): Promise<{ planSeconds: number; applySeconds: number }> {
  const headers = { 'x-api-key': DEFAULT_API_KEY };
  const subset = plan.changes.slice(0, NAIVE_SUBSET);
  let started = performance.now();
  for (const change of subset) {
    for (let page = 0; ; page++) {
      const start = page === 0 ? 0 : page * 20 - 1;
      const url = `${baseUrl}/api/v1/invitations/by-group/${encodeURIComponent(change.scopeType)}/${encodeURIComponent(change.scope)}?start=${start}`;
      const body = (await (await fetch(url, { headers })).json()) as { invitations: unknown[] };
      if (body.invitations.length < 20) break;
    }
  }
  const planSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  for (const change of subset) {
    const response = await fetch(`${baseUrl}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(syncRequest(change)),
    });
    await response.arrayBuffer();
  }
  return { planSeconds, applySeconds: (performance.now() - started) / 1000 };
}

/** One policy file per scope, each adding a third domain to the two the emulator holds. */
async function writePolicies(dir: string): Promise<void> {
  for (let group = 0; group < SCOPES / 100; group++) {
    const sub = path.join(dir, `group-${String(group).padStart(2, '0')}`);
    await mkdir(sub);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const scope = `scope-${String(group * 100 + i + 1).padStart(4, '0')}`;
        const domains = [1, 2, 3].map((n) => `  - d${n}.${scope}.example`).join('\n');
        const text = `scope: ${scope}\nscopeType: team\ncomponentId: cmp-bench\ndomains:\n${domains}\n`;
        return writeFile(path.join(sub, `${scope}.autojoin.yaml`), text);
      }),
    );
  }
}

/** Starts `autojoin-sync emulator` with generated data and waits for its `listening on URL` line. */
async function spawnEmulator(): Promise<{ url: string; child: ChildProcess }> {
  const args = [
    CLI, 'emulator', '--port', '0', '--latency', String(LATENCY_MS),
    '--seed-scopes', String(SCOPES), '--seed-invitations', String(INVITATIONS_PER_SCOPE),
    '--seed-domains', String(DOMAINS_PER_SCOPE), '--seed', '1',
  ];
  const env = { ...process.env, AUTOJOIN_API_KEY: DEFAULT_API_KEY };
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening: ${errors.trim()}`)));
  });
  return { url, child };
}
