/**
 * Peak memory of `plan` as the estate grows: 30,000 scopes (each with 30 ordinary invitations in
 * its listing, so two pages per scope) beside 10,000 scopes in the same run. If the state reader
 * kept every invitation, memory would grow about 3× with the scopes; it should stay nearly flat.
 * One scope in ten changes (a new domain): the live state is what an earlier apply of this
 * repository left, ownership marker included. Unmarked, every scope would be an update that
 * marks it, and the figure would be that of a plan of 30,000 changes, not of 30,000 scopes.
 *
 * How RSS is measured, and why it is honest: the built CLI runs as its own process, exactly as a
 * user runs it, with one preloaded module that on exit writes the kernel's high-water mark of that
 * process's resident set (./probe.ts). It covers the whole run (load, policy parsing, reading,
 * planning, rendering) and needs no /usr/bin/time. The emulator serves from this process, so it
 * is not counted.
 *
 * Each plan's figure is the median of RSS_RUNS runs, all shown: the high-water mark moves with
 * when the collector runs (up to 4 MiB from one run of the 30,000-scope plan to the next).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateData, startEmulator, type EmulatorData } from '../src/emulator/index.js';
import { DEFAULT_OWNER, MARKER_KEYS } from '../src/plan/ownership.js';
import { probe } from './probe.js';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const INVITATIONS_PER_SCOPE = 30;
const DOCS_PER_FILE = 100;

/** @returns policy YAML for scopes [from, to): the live domains, plus one new domain on every tenth scope. */
function policyDocuments(from: number, to: number): string {
  const docs: string[] = [];
  for (let n = from; n < to; n++) {
    const scope = `scope-${String(n).padStart(4, '0')}`;
    const extra = n % 10 === 0 ? `\n  - new.${scope}.example` : '';
    docs.push(`scope: ${scope}\nscopeType: team\ncomponentId: cmp-emulator\ndomains:\n  - d1.${scope}.example\n  - d2.${scope}.example${extra}\n`);
  }
  return docs.join('---\n');
}

async function writePolicies(dir: string, scopes: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let first = 1; first <= scopes; first += DOCS_PER_FILE) {
    const last = Math.min(first + DOCS_PER_FILE, scopes + 1);
    await writeFile(path.join(dir, `group-${String(first).padStart(5, '0')}.autojoin.yaml`), policyDocuments(first, last));
  }
}

/** Runs `node ...args` with the probe (./probe.ts), discarding stdout; @returns peak RSS in bytes. */
export async function peakRss(tmp: string, args: string[], env: Record<string, string>): Promise<number> {
  const probed = await probe(tmp);
  await new Promise<number | null>((resolve, reject) => {
    // cwd: the temp dir, so its policy files are inside the working directory, as for any user.
    const child = spawn(process.execPath, [...probed.nodeArgs, ...args], {
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '', HOME: tmp, NO_COLOR: '1', ...probed.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(status) : reject(new Error(`exit ${String(status)}: ${stderr}`))));
  });
  return (await probed.read()).peakBytes;
}

/** Runs of each plan whose peak RSS is measured; the median is the figure. */
export const RSS_RUNS = 3;

/** The peaks of RSS_RUNS runs of `measure`: the median, and all of them for the table. */
export interface PeakRss {
  median: number;
  runs: number[];
}

export async function medianPeakRss(measure: () => Promise<number>): Promise<PeakRss> {
  const runs: number[] = [];
  for (let run = 0; run < RSS_RUNS; run++) runs.push(await measure());
  const sorted = [...runs].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] as number, runs };
}

/** `105 MiB (runs 104, 105, 107 MiB)`: a median peak with the runs it was taken from. */
export function peakText(peak: PeakRss): string {
  return `${mib(peak.median)} (runs ${peak.runs.map((bytes) => (bytes / 2 ** 20).toFixed(0)).join(', ')} MiB)`;
}

/** Peak RSS of `plan` over `scopes` scopes against a fresh in-process emulator: the median of RSS_RUNS runs. */
async function planPeakRss(tmp: string, scopes: number): Promise<PeakRss> {
  const data = markedAsOurs(generateData({ scopes, invitationsPerScope: INVITATIONS_PER_SCOPE, domainsPerScope: 2, seed: 7 }));
  const emulator = await startEmulator({ port: 0, data });
  try {
    const dir = path.join(tmp, `policies-${scopes}`);
    await writePolicies(dir, scopes);
    return await medianPeakRss(() => peakRss(tmp, [CLI, 'plan', dir], { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: emulator.apiKey }));
  } finally {
    await emulator.close();
  }
}

/** @returns the data with every autojoin invitation carrying the ownership marker of the policies' owner (the default). */
function markedAsOurs(data: EmulatorData): EmulatorData {
  for (const scope of Object.values(data.scopes)) {
    if (scope.autojoin) scope.autojoin.invitation.metadata = { [MARKER_KEYS.owner]: DEFAULT_OWNER };
  }
  return data;
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Issue 13: peak RSS at 10,000 scopes within 120 MB, and 30,000 within 1.2× of that. */
const GOAL_BYTES = 120e6;
const GOAL_GROWTH = 1.2;

/**
 * Peak RSS of plan at 10,000 and 30,000 scopes (200 and 600 when short) beside a bare Node process.
 * @returns two table rows
 */
export async function benchMemory(options: BenchOptions): Promise<BenchRow[]> {
  const [small, large] = options.short ? [200, 600] : [10_000, 30_000];
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-memory-'));
  try {
    const bare = await peakRss(tmp, ['-e', '0'], {});
    const smallRss = await planPeakRss(tmp, small);
    const largeRss = await planPeakRss(tmp, large);
    const ratio = largeRss.median / smallRss.median;
    const label = (scopes: number) => `plan ${scopes.toLocaleString('en')} scopes × ${INVITATIONS_PER_SCOPE} invitations: peak RSS`;
    return [
      {
        name: label(small),
        value: peakText(smallRss),
        comparison: `bare \`node -e 0\`: ${mib(bare)}`,
        goal: `≤ 120 MB (${mib(GOAL_BYTES)})`,
        met: smallRss.median <= GOAL_BYTES,
      },
      {
        name: label(large),
        value: peakText(largeRss),
        comparison: `${ratio.toFixed(2)}× the ${small.toLocaleString('en')}-scope plan (3× the scopes; medians)`,
        goal: `≤ ${GOAL_GROWTH}× the ${small.toLocaleString('en')}-scope plan`,
        met: ratio <= GOAL_GROWTH,
      },
    ];
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
