/**
 * Notifications' cost on an apply: 2,000 scopes at 20 ms latency, applied with and without three
 * notification targets (a signed webhook, Slack, Teams; each a receiver on 127.0.0.1 answering
 * after 20 ms), each on a fresh emulator, alternated for three rounds; the medians compared.
 * The messages are built from the whole report (2,000 scopes, each format cut to its budget).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { applyPlan, makePlan } from '../src/reconcile/index.js';
import { settingsIn } from '../src/run/settings.js';
import { createClient } from '../src/service/client.js';
import { DEFAULT_API_KEY } from '../src/emulator/index.js';
import { notifyAfterRun } from '../src/commands/notify-command.js';
import type { Plan } from '../src/plan/types.js';
import type { NotifyTargetConfig } from '../src/policy/types.js';
import { spawnEmulator, withServer, writePolicies } from './reconcile.js';
import type { BenchOptions, BenchRow } from './types.js';

const LATENCY_MS = 20;
const CONCURRENCY = 16;
const GOAL = 1.05;
const ROUNDS = 3;
const SECRET = 'bench-secret-0123456789abcdef0123456789';

export async function benchNotify(options: BenchOptions): Promise<BenchRow[]> {
  const scopes = options.short ? 100 : 2_000;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-notify-'));
  const receivers = await Promise.all([0, 1, 2].map(() => slowReceiver()));
  try {
    await writePolicies(dir, scopes);
    const plan = (await withServer(() => spawnEmulator(scopes, []), (url) => planOf(url, dir, scopes))).result;
    const [hook, slack, teams] = receivers.map((receiver) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook/token`);
    const env = { AUTOJOIN_NOTIFY_HOOK: hook, AUTOJOIN_NOTIFY_HOOK_SECRET: SECRET, AUTOJOIN_NOTIFY_SLACK: slack, AUTOJOIN_NOTIFY_TEAMS: teams };
    const notify: NotifyTargetConfig[] = [
      { to: 'webhook', urlEnv: 'AUTOJOIN_NOTIFY_HOOK', secretEnv: 'AUTOJOIN_NOTIFY_HOOK_SECRET' },
      { to: 'slack', urlEnv: 'AUTOJOIN_NOTIFY_SLACK' },
      { to: 'teams', urlEnv: 'AUTOJOIN_NOTIFY_TEAMS' },
    ];
    const without: number[] = [];
    const withNotify: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      without.push((await withServer(() => spawnEmulator(scopes, []), (url) => apply(url, plan, undefined))).phase.seconds);
      withNotify.push((await withServer(() => spawnEmulator(scopes, []), (url) => apply(url, plan, { notify, env }))).phase.seconds);
    }
    const a = median(without);
    const b = median(withNotify);
    const ratio = b / a;
    return [
      {
        name: `apply ${scopes.toLocaleString('en')} scopes @ ${LATENCY_MS} ms, --concurrency ${CONCURRENCY}, with three notification targets (webhook, Slack, Teams) answering after ${LATENCY_MS} ms`,
        value: `${b.toFixed(2)} s (median of ${ROUNDS}: ${withNotify.map((s) => s.toFixed(2)).join(', ')})`,
        comparison: `${ratio.toFixed(3)}× the same apply without notify (${a.toFixed(2)} s, median of ${ROUNDS}: ${without.map((s) => s.toFixed(2)).join(', ')}), alternated on fresh emulators in this run`,
        goal: `≤ ${GOAL.toFixed(2)}× without notify`,
        met: ratio <= GOAL,
      },
    ];
  } finally {
    await Promise.all(receivers.map((receiver) => new Promise((resolve) => receiver.close(resolve))));
    await rm(dir, { recursive: true, force: true });
  }
}

async function planOf(baseUrl: string, cwd: string, scopes: number): Promise<Plan> {
  const client = createClient({ baseUrl, apiKey: DEFAULT_API_KEY, connections: CONCURRENCY });
  try {
    const { plan } = await makePlan({ settings: settingsIn(cwd, { flags: { concurrency: CONCURRENCY } }), client });
    if (plan?.changes.length !== scopes) throw new Error(`bench plan has ${plan?.changes.length ?? 'no'} changes, expected ${scopes}`);
    return plan;
  } finally {
    await client.close();
  }
}

/** The apply, then (with targets) its notifications, as the command layer sends them. */
async function apply(baseUrl: string, plan: Plan, targets: { notify: NotifyTargetConfig[]; env: NodeJS.ProcessEnv } | undefined): Promise<void> {
  const client = createClient({ baseUrl, apiKey: DEFAULT_API_KEY, connections: CONCURRENCY });
  try {
    const settings = settingsIn('.', { flags: { concurrency: CONCURRENCY } });
    const report = await applyPlan({ client, plan, settings });
    if (report.failed.length > 0) throw new Error(`bench apply failed for ${report.failed.length} scopes`);
    if (!targets) return;
    const told = await notifyAfterRun(
      { command: 'apply', plan, report, exitCode: 0 },
      { context: { project: { notify: targets.notify }, owner: settings.owner, notifyEnv: {} }, service: baseUrl, enabled: true, env: targets.env, onWarning: (text) => process.stderr.write(`${text}\n`) },
    );
    if (told.notifications.some((one) => !one.delivered)) throw new Error('bench: a notification was not delivered');
  } finally {
    await client.close();
  }
}

/** A receiver that reads the body and answers 200 after the latency. */
async function slowReceiver(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(200).end('ok'), LATENCY_MS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
