/**
 * Read cost of each read mode: the plan time of 500 scopes (30 ordinary invitations + the
 * autojoin one each) against the emulator answering every request after 20 ms, through the
 * core the CLI and the action call (makePlan). `autojoin` (the default) needs call 2b only;
 * `by-group` and `by-scope` need two listing pages and call 2b per scope (2b gives the domains
 * real listings lack, and every listing is checked against it). Two emulator shapes show the
 * listing modes were the service different: domain targets in the listing, and an unpaginated
 * listing (one page). Every figure stands beside the by-group plan of the same run.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makePlan } from '../src/reconcile/index.js';
import { settingsIn } from '../src/run/settings.js';
import { createClient } from '../src/service/client.js';
import { generateData, startEmulator, type EmulatorOptions } from '../src/emulator/index.js';
import type { ReadMode } from '../src/service/types.js';
import type { BenchRow } from './types.js';

const SCOPES = 500;
const INVITATIONS_PER_SCOPE = 30;
const LATENCY_MS = 20;
const CONCURRENCY = 16;

interface Mode {
  name: string;
  listing: ReadMode;
  emulator: EmulatorOptions;
}

const MODES: Mode[] = [
  { name: '--read by-group', listing: 'by-group', emulator: {} },
  { name: '--read by-scope', listing: 'by-scope', emulator: {} },
  { name: '--read autojoin (default)', listing: 'autojoin', emulator: {} },
  { name: 'by-scope, emulator --domain-targets', listing: 'by-scope', emulator: { domainTargets: true } },
  { name: 'by-scope, emulator --unpaginated', listing: 'by-scope', emulator: { unpaginated: true } },
];

/** Runs the benchmark and returns one row per listing mode. */
export async function benchListing(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-listing-'));
  try {
    await writePolicies(dir);
    const measured: { mode: Mode; seconds: number; requests: number }[] = [];
    for (const mode of MODES) measured.push({ mode, ...(await measurePlan(dir, mode)) });
    const baseline = measured[0]?.seconds ?? 1;
    return measured.map(({ mode, seconds, requests }) => ({
      name: `plan ${SCOPES} scopes × ${INVITATIONS_PER_SCOPE + 1} invitations @ ${LATENCY_MS} ms, ${mode.name}`,
      value: `${seconds.toFixed(2)} s (${requests.toLocaleString('en')} requests, ${(requests / SCOPES).toFixed(1)} a scope)`,
      comparison: `${(seconds / baseline).toFixed(2)}× the by-group plan time`,
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function measurePlan(cwd: string, mode: Mode): Promise<{ seconds: number; requests: number }> {
  const data = generateData({ scopes: SCOPES, invitationsPerScope: INVITATIONS_PER_SCOPE, domainsPerScope: 2, seed: 1 });
  const emulator = await startEmulator({ data, latencyMs: LATENCY_MS, ...mode.emulator });
  const client = createClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, connections: CONCURRENCY });
  try {
    const began = performance.now();
    const { plan } = await makePlan({ settings: settingsIn(cwd, { flags: { read: mode.listing, concurrency: CONCURRENCY } }), client });
    const seconds = (performance.now() - began) / 1000;
    if (plan?.changes.length !== SCOPES) throw new Error(`bench listing: expected ${SCOPES} changes with ${mode.name}`);
    return { seconds, requests: client.requestCount };
  } finally {
    await client.close();
    await emulator.close();
  }
}

/** One policy per scope, each adding a domain, so every plan has the same changes. */
async function writePolicies(dir: string): Promise<void> {
  const documents = Array.from({ length: SCOPES }, (_, i) => {
    const scope = `scope-${String(i + 1).padStart(4, '0')}`;
    const domains = [1, 2, 3].map((n) => `  - d${n}.${scope}.example`).join('\n');
    return `scope: ${scope}\nscopeType: team\ncomponentId: cmp_bench\ndomains:\n${domains}\n`;
  });
  await writeFile(path.join(dir, 'bench.autojoin.yaml'), documents.join('---\n'));
}
