/**
 * makePlan reads live state while the policy files are still loading (the loader hands each
 * policy over as soon as its file passes, and gives the event loop a turn between batches), and
 * a failing file stops those reads and plans nothing. Against the emulator over loopback HTTP.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { loadPolicies, streamPolicies, type LoadOptions, type LoadResult, type PolicyBatch } from '../../src/policy/index.js';
import { makePlan } from '../../src/reconcile/index.js';
import { DEFAULT_CONCURRENCY } from '../../src/service/defaults.js';
import { settingsIn } from '../../src/run/settings.js';
import { createClient, type ServiceClient } from '../../src/service/index.js';

const FILES = 400; // many of the loader's batches (8 of 16 files, then 64 each): thirteen
const KEY = 'k-read-while-loading';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const policyText = (n: number): string => `scope: s${String(n).padStart(4, '0')}\nscopeType: team\ncomponentId: cmp\ndomains:\n  - d${n}.example.com\n`;

const fileName = (n: number): string => `p${String(n).padStart(4, '0')}.autojoin.yaml`;

/** @param bad the number of the one file that is not a valid policy (0: none) */
async function project(bad = 0): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'autojoin-read-while-loading-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (let n = 1; n <= FILES; n++) {
    const text = n === bad ? 'scope: [not, a, scope]\n' : policyText(n);
    await writeFile(join(dir, fileName(n)), text);
  }
  return dir;
}

/** @returns also `arrived`: how many requests reached the emulator so far (answered or not) */
async function service(latencyMs: number): Promise<{ emulator: Emulator; client: ServiceClient; arrived: () => number }> {
  let arrivals = 0;
  const emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY, latencyMs, beforeAnswer: () => void (arrivals += 1) });
  const client = createClient({ baseUrl: emulator.url, apiKey: KEY });
  cleanups.push(() => emulator.close(), () => client.close());
  return { emulator, client, arrived: () => arrivals };
}

/** Runs the streaming loader to its end. @returns every batch it yielded and its result */
async function streamAll(paths: string[], options: LoadOptions): Promise<{ batches: PolicyBatch[]; result: LoadResult }> {
  const batches: PolicyBatch[] = [];
  const stream = streamPolicies(paths, options);
  for (let next = await stream.next(); ; next = await stream.next()) {
    if (next.done) return { batches, result: next.value };
    batches.push(next.value);
  }
}

describe('loading and reading overlap', () => {
  it('the loader hands over each policy before it returns, and timers run between its batches', async () => {
    const dir = await project();
    const handed: string[] = [];
    let ticksDuringLoad = 0;
    let loading = true;
    const tick = (): void => {
      if (!loading) return;
      ticksDuringLoad += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    const { batches, result } = await streamAll(['.'], { cwd: dir });
    handed.push(...batches.flatMap((batch) => batch.policies.map((policy) => policy.key)));
    loading = false;
    expect(handed).toHaveLength(FILES);
    expect(handed.slice(0, 2)).toEqual(['team/s0001', 'team/s0002']); // in file order, as read
    // Handed over, so not kept: the result only counts them.
    expect(result.policies).toEqual([]);
    expect(result.policyCount).toBe(FILES);
    expect(ticksDuringLoad).toBeGreaterThanOrEqual(2);
  });

  it('a scope declared twice is handed over once and not counted, and the load fails', async () => {
    const dir = await project();
    await writeFile(join(dir, 'zz-again.autojoin.yaml'), policyText(7));
    const { batches, result } = await streamAll(['.'], { cwd: dir });
    const handed = batches.flatMap((batch) => batch.policies.map((policy) => policy.key));
    expect(handed.filter((key) => key === 'team/s0007')).toHaveLength(2);
    expect(result.policyCount).toBe(FILES - 1);
    expect(result.diagnostics.filter((d) => d.code === 'duplicate-scope')).toHaveLength(2);
  });

  it('loadPolicies (not streamed) returns the policies, sorted, and counts them', async () => {
    const dir = await project();
    const result = await loadPolicies(['.'], { cwd: dir });
    expect(result.policyCount).toBe(FILES);
    expect(result.policies.map((policy) => policy.key)).toEqual(Array.from({ length: FILES }, (_, i) => `team/s${String(i + 1).padStart(4, '0')}`));
  });

  it('the loader hands the warnings over a batch at a time and keeps none of them', async () => {
    const dir = await project();
    const { batches, result } = await streamAll(['.'], { cwd: dir });
    // Every file lists one domain under example.com, a subdomain warning each.
    expect(batches.reduce((sum, batch) => sum + batch.warnings.length, 0)).toBe(FILES);
    expect(batches.length).toBeGreaterThan(FILES / 100);
    expect(batches.every((batch) => !batch.failed)).toBe(true);
    expect(result.diagnostics).toEqual([]);
    expect(result.policyCount).toBe(FILES);
  });

  it('makePlan has read live state before the last file is loaded', async () => {
    const dir = await project();
    const { client } = await service(0);
    const knownAtFirstRead: number[] = [];
    const { plan } = await makePlan({
      settings: settingsIn(dir), client,
      onProgress: (done, total) => {
        if (done === 1) knownAtFirstRead.push(total);
      },
    });
    expect(plan?.changes).toHaveLength(FILES);
    // When the first scope had been read, not every file had handed over its scope yet.
    expect(knownAtFirstRead).toHaveLength(1);
    expect(knownAtFirstRead[0]).toBeLessThan(FILES);
  });

  it('a failing file plans nothing, and every read it started has ended when makePlan returns', async () => {
    const dir = await project(FILES);
    const { emulator, client, arrived } = await service(5);
    const { plan, load } = await makePlan({ settings: settingsIn(dir), client });
    expect(plan).toBeNull();
    expect(new Set(load.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file))).toEqual(new Set([fileName(FILES)]));
    const served = emulator.requests.length;
    expect(served).toBeGreaterThan(0); // reads had started while loading
    expect(served).toBeLessThan(2 * FILES); // not every scope was read (two requests each)
    // None in flight when makePlan returned: every request that reached the emulator had been answered.
    expect(arrived()).toBe(served);
  });

  it('a failing file early on stops the reads at the end of its batch, not at the end of loading', async () => {
    const dir = await project(1);
    const { emulator, client } = await service(5);
    const { plan } = await makePlan({ settings: settingsIn(dir), client });
    expect(plan).toBeNull();
    // The failing batch hands no scope to the reads, so none of its scopes was read (at most one
    // wave of reads, one request each); without the stop at the end of that batch, reads go on
    // until loading ends (about 60 here).
    expect(emulator.requests.length).toBeLessThanOrEqual(DEFAULT_CONCURRENCY);
  });

  it('a file with an error is what the run reports, even when a read failed while files were still loading', async () => {
    const { emulator } = await service(0);
    const refused = createClient({ baseUrl: emulator.url, apiKey: 'not-the-key' });
    cleanups.push(() => refused.close());
    const { plan, load } = await makePlan({ settings: settingsIn(await project(FILES)), client: refused });
    expect(plan).toBeNull();
    expect(new Set(load.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file))).toEqual(new Set([fileName(FILES)]));
    // Without a bad file, the read's own error is the answer.
    await expect(makePlan({ settings: settingsIn(await project()), client: refused })).rejects.toThrow(/401|key/i);
  });
});
